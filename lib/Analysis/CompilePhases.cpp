//===- CompilePhases.cpp - Where a compile's time went --------------------===//
//
// Part of tlp. See CompilePhases.h and docs/IR.md.
//
// PyTorch's figures for one compile are nested: compilation_metrics'
// dynamo_cumulative_compile_time_us (the entire_frame_compile span) holds
// aot_autograd_cumulative_compile_time_us (backend_compile), which holds
// inductor_cumulative_compile_time_us (inductor_compile), which holds
// inductor_code_gen_cumulative_compile_time_us (code_gen); the backward's
// bwd_compilation_metrics have backward_cumulative_compile_time_us
// (entire_backward_compile) holding the same Inductor figures. The leaves
// (C++/Triton compile, autotuning, cache loads) have no figure of their
// own in a CPU log but spans, which run inside any of these levels: each
// leaf's time is taken from the level it ran in, found by where its spans
// lie. Spans on several threads count once (their union).
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/CompilePhases.h"
#include "tlp/IR/CompileRecord.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cmath>
#include <functional>
#include <vector>

using namespace llvm;

namespace tlp {

/// Each phase's key (JSON) and name (reports), in the enumeration's order.
static const struct {
  const char *Key;
  const char *Name;
} PhaseTexts[] = {
    {"dynamo", "Dynamo"},          {"aot_autograd", "AOTAutograd"},
    {"inductor", "Inductor"},      {"code_gen", "code generation"},
    {"compile", "C++/Triton compile"}, {"autotune", "autotuning"},
    {"cache", "cache lookups"},
};
static_assert(sizeof(PhaseTexts) / sizeof(PhaseTexts[0]) == NumPhases,
              "a text for every phase");

StringRef phaseName(Phase P) { return PhaseTexts[unsigned(P)].Name; }

StringRef phaseKey(Phase P) { return PhaseTexts[unsigned(P)].Key; }

std::string phaseSecondsText(Optional<double> S) {
  return S ? formatv("{0:f3}", *S).str() : std::string("?");
}

namespace {

/// Sorted, disjoint [begin, end) intervals in microseconds.
using Intervals = std::vector<std::pair<int64_t, int64_t>>;

Intervals merged(Intervals V) {
  std::sort(V.begin(), V.end());
  Intervals Out;
  for (const auto &I : V) {
    if (I.second <= I.first)
      continue;
    if (!Out.empty() && I.first <= Out.back().second)
      Out.back().second = std::max(Out.back().second, I.second);
    else
      Out.push_back(I);
  }
  return Out;
}

Intervals intersect(const Intervals &A, const Intervals &B) {
  Intervals Out;
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    int64_t Lo = std::max(A[I].first, B[J].first);
    int64_t Hi = std::min(A[I].second, B[J].second);
    if (Lo < Hi)
      Out.push_back({Lo, Hi});
    if (A[I].second < B[J].second)
      ++I;
    else
      ++J;
  }
  return Out;
}

Intervals subtract(const Intervals &A, const Intervals &B) {
  Intervals Out;
  size_t J = 0;
  for (auto I : A) {
    while (J < B.size() && B[J].second <= I.first)
      ++J;
    size_t K = J;
    while (K < B.size() && B[K].first < I.second) {
      if (B[K].first > I.first)
        Out.push_back({I.first, B[K].first});
      I.first = std::max(I.first, B[K].second);
      ++K;
    }
    if (I.first < I.second)
      Out.push_back(I);
  }
  return Out;
}

int64_t length(const Intervals &V) {
  int64_t N = 0;
  for (const auto &I : V)
    N += I.second - I.first;
  return N;
}

Intervals spansWhere(const CompileRecord &R,
                     const std::function<bool(StringRef)> &Pred) {
  Intervals V;
  for (const Span &S : R.Spans)
    if (S.Phase == 'X' && Pred(S.Name))
      V.push_back({S.Start, S.Start + S.Duration});
  return merged(std::move(V));
}

bool isCompileSpan(StringRef N) {
  return N == "compile_file" || N.startswith("async_compile.") ||
         N == "aoti_compile_fatbin";
}
bool isAutotuneSpan(StringRef N) {
  return N.endswith("_template_autotuning") ||
         N.endswith("_template_precompiling") ||
         N.startswith("CachingAutotuner.");
}
bool isCacheSpan(StringRef N) {
  return N == "AOTAutogradCache.inductor_load" ||
         N == "inductor_codecache_torch_key" ||
         N == "CacheBase.get_system.triton_key" ||
         N.startswith("TritonBundler.");
}

const char *const CompileSpansText = "compile_file, async_compile.*";
const char *const AutotuneSpansText =
    "*_template_autotuning, *_template_precompiling, CachingAutotuner.*";
const char *const CacheSpansText =
    "AOTAutogradCache.inductor_load, inductor_codecache_torch_key, "
    "CacheBase.get_system.triton_key, TritonBundler.*";

/// One nesting level of a part: its figure and the span that times it.
struct LevelSpec {
  const char *MetricUs;
  const char *MetricS;
  const char *SpanName;
};

struct Level {
  Optional<double> Us;
  std::string Origin;
  Intervals Where;
};

CompilePart
computePart(const CompileRecord &R,
            const MetricList &Ms,
            const LevelSpec (&Specs)[4], Optional<double> TotalS,
            StringRef TotalOrigin, bool HasDynamo, StringRef Other) {
  CompilePart P;
  if (!TotalS)
    return P;
  P.Total = TotalS;
  P.TotalOrigin = TotalOrigin.str();
  bool HaveSpans = std::any_of(R.Spans.begin(), R.Spans.end(),
                               [](const Span &S) { return S.Phase == 'X'; });
  Intervals Root = spansWhere(R, [&](StringRef N) {
    return N == Specs[0].SpanName;
  });
  // The attempt after a restart logs its spans under its own id, but the
  // entire_frame_compile span that holds them under the first attempt's:
  // then the part is all of the record's spans but the other part's, when
  // they hold the compile_attempt_N span that holds an attempt's levels
  // (else a level without a span may just not have been logged).
  bool Rootless =
      Root.empty() && std::any_of(R.Spans.begin(), R.Spans.end(),
                                  [](const Span &S) {
                                    return S.Phase == 'X' &&
                                           StringRef(S.Name).startswith(
                                               "compile_attempt_");
                                  });
  if (Rootless) {
    int64_t Lo = INT64_MAX, Hi = INT64_MIN;
    for (const Span &S : R.Spans)
      if (S.Phase == 'X') {
        Lo = std::min(Lo, S.Start);
        Hi = std::max(Hi, S.Start + S.Duration);
      }
    Root = subtract({{Lo, Hi}},
                    spansWhere(R, [&](StringRef N) { return N == Other; }));
  }
  bool Located = HaveSpans && !Root.empty();

  Level L[5];
  L[0].Us = *TotalS * 1e6;
  L[0].Origin = TotalOrigin.str();
  L[0].Where = Root;
  for (unsigned K = 1; K < 4; ++K) {
    const LevelSpec &S = Specs[K];
    if (K == 1 && !HasDynamo) {
      L[1] = L[0];
      continue;
    }
    Intervals Where = intersect(
        spansWhere(R, [&](StringRef N) { return N == S.SpanName; }), Root);
    L[K].Where = Where;
    if (Optional<double> Us = metricNumberIn(Ms, S.MetricUs)) {
      L[K].Us = *Us;
      L[K].Origin = S.MetricUs;
    } else if (Optional<double> Sec =
                   S.MetricS ? metricNumberIn(Ms, S.MetricS)
                             : Optional<double>()) {
      L[K].Us = *Sec * 1e6;
      L[K].Origin = S.MetricS;
    } else if (Located) {
      // The level did not run (a cache hit runs no Inductor), or ran and
      // its metric was left out: its spans tell which.
      L[K].Us = double(length(Where));
      L[K].Origin = Where.empty()
                        ? formatv("no {0} span: not run", S.SpanName).str()
                        : formatv("{0} spans", S.SpanName).str();
    } else {
      L[K].Origin =
          HaveSpans
              ? formatv("no {0}, and no {1} span to place spans in",
                        S.MetricUs, Specs[0].SpanName)
                    .str()
              : formatv("no {0}, no spans", S.MetricUs).str();
    }
  }
  L[4].Us = 0.0;

  // The leaves, each instant counted once: a compile inside a cache load
  // is compile, autotuning that compiles is compile.
  Intervals Leaf[3];
  Leaf[0] = intersect(spansWhere(R, isCompileSpan), Root);
  Leaf[1] = subtract(intersect(spansWhere(R, isAutotuneSpan), Root), Leaf[0]);
  Leaf[2] = subtract(
      subtract(intersect(spansWhere(R, isCacheSpan), Root), Leaf[0]),
      Leaf[1]);
  const Phase LeafPhase[3] = {Phase::Compile, Phase::Autotune, Phase::Cache};
  const char *LeafText[3] = {CompileSpansText, AutotuneSpansText,
                             CacheSpansText};
  // Leaf time per level: inside level K's spans and not level K+1's.
  double LeafAt[4] = {0, 0, 0, 0};
  for (unsigned K = 0; K < 4; ++K) {
    Intervals Own = K == 3 ? L[K].Where : subtract(L[K].Where, L[K + 1].Where);
    for (const Intervals &V : Leaf)
      LeafAt[K] += double(length(intersect(V, Own)));
  }
  for (unsigned I = 0; I < 3; ++I) {
    PhaseTime &T = P[LeafPhase[I]];
    if (Located) {
      T.Seconds = double(length(Leaf[I])) / 1e6;
      T.Origin = formatv("spans {0}", LeafText[I]).str();
      if (Rootless)
        T.Origin += formatv(" (no {0} span: the record's spans)",
                            Specs[0].SpanName)
                        .str();
    } else {
      T.Origin = HaveSpans ? formatv("no {0} span", Specs[0].SpanName).str()
                           : std::string("no chromium_event spans");
    }
  }

  const Phase LevelPhase[4] = {Phase::Dynamo, Phase::AOTAutograd,
                               Phase::Inductor, Phase::CodeGen};
  for (unsigned K = 0; K < 4; ++K) {
    PhaseTime &T = P[LevelPhase[K]];
    if (K == 0 && !HasDynamo) {
      T.Seconds = 0.0;
      T.Origin = "none: Dynamo does not run for the backward";
      continue;
    }
    if (!L[K].Us || !L[K + 1].Us) {
      T.Origin = "unknown: " + (L[K].Us ? L[K + 1].Origin : L[K].Origin);
      continue;
    }
    double Us = *L[K].Us - *L[K + 1].Us;
    std::string Origin = L[K].Origin;
    if (K < 3)
      Origin += " - " + L[K + 1].Origin;
    if (Located) {
      Us -= LeafAt[K];
      if (LeafAt[K] > 0)
        Origin += " - compile, autotuning and cache spans inside it";
    } else {
      Origin += " (with any compile, autotuning and cache lookups inside "
                "it: not logged apart)";
    }
    // Metrics and spans are timed apart; they disagree by microseconds.
    T.Seconds = std::round(std::max(Us, 0.0)) / 1e6;
    T.Origin = std::move(Origin);
  }
  return P;
}

} // namespace

/// Whether a span of AOTAutograd's backward compiler
/// (`compile_fx.<locals>.bw_compiler`) began during the frame's compile:
/// the backward was compiled with the forward, not at the first
/// backward() call. The frame's compile is the metrics' `start_time` and
/// `entire_frame_compile_time_s` (chromium timestamps are microseconds of
/// the same clock), else an `entire_frame_compile` span. (A restarted
/// compile's span begins under attempt 0 and ends under the last: its
/// record has no whole span, but its metrics.)
static bool backwardInFrame(const CompileRecord &R) {
  // The frame's compile: microseconds, both ends included.
  SmallVector<std::pair<double, double>, 1> Frames;
  Optional<double> Begin = R.metricNumber("start_time");
  Optional<double> Seconds = R.compileSeconds();
  if (Begin && Seconds)
    Frames.emplace_back(*Begin * 1e6, *Begin * 1e6 + *Seconds * 1e6);
  else
    for (const Span &Root : R.Spans)
      if (Root.Phase == 'X' && Root.Name == "entire_frame_compile")
        Frames.emplace_back(double(Root.Start),
                            double(Root.Start + Root.Duration));
  for (const Span &S : R.Spans) {
    if (S.Phase == 'i' ||
        (S.Name != "bw_compiler" && !S.Name.endswith(".bw_compiler")))
      continue;
    for (const auto &F : Frames)
      if (double(S.Start) >= F.first && double(S.Start) <= F.second)
        return true;
  }
  return false;
}

/// An AOTAutograd cache hit of \p R that loaded the backward: an FX graph
/// cache lookup of a backward graph (AOT ID `N_backward`) comes before it.
/// AOTAutograd's cache entry holds both graphs; on a hit, the frame's
/// compile looks up each in the FX graph cache, then logs the hit
/// (`fx_graph_cache_hit` twice, then `aotautograd_cache_hit`).
static bool backwardFromCache(const CompileRecord &R) {
  Optional<uint32_t> BackwardLookup;
  for (const CacheLookup &L : R.Caches) {
    if (L.Cache == CacheLookup::FXGraph &&
        StringRef(L.AotId).endswith("_backward") &&
        (!BackwardLookup || L.Line < *BackwardLookup))
      BackwardLookup = L.Line;
  }
  if (!BackwardLookup)
    return false;
  return llvm::any_of(R.Caches, [&](const CacheLookup &L) {
    return L.Cache == CacheLookup::AOTAutograd &&
           L.Result == CacheLookup::Hit && L.Line > *BackwardLookup;
  });
}

/// The numeric metrics every backward compile of \p R logged, summed (for
/// its levels: the times of each graph's compile add up).
static MetricList sumMetrics(const CompileRecord &R) {
  MetricList Out;
  for (MetricList::value_type KV : R.BwdMetrics) {
    Optional<double> Sum = metricNumberIn(R.BwdMetrics, KV.first);
    for (const MetricList &L : R.MoreBwdMetrics) {
      Optional<double> More = metricNumberIn(L, KV.first);
      Sum = Sum && More ? Optional<double>(*Sum + *More) : None;
    }
    if (Sum) {
      char Buf[32];
      snprintf(Buf, sizeof(Buf), "%.15g", *Sum);
      Out.emplace_back(KV.first, Buf);
    }
  }
  return Out;
}

CompilePhases CompilePhases::compute(const CompileRecord &R) {
  static const LevelSpec Fwd[4] = {
      {"dynamo_cumulative_compile_time_us", "entire_frame_compile_time_s",
       "entire_frame_compile"},
      {"aot_autograd_cumulative_compile_time_us", "backend_compile_time_s",
       "backend_compile"},
      {"inductor_cumulative_compile_time_us", "inductor_compile_time_s",
       "inductor_compile"},
      {"inductor_code_gen_cumulative_compile_time_us", "code_gen_time_s",
       "code_gen"}};
  // The backward has no Dynamo level: AOTAutograd's own time is its total
  // less Inductor's.
  static const LevelSpec Bwd[4] = {
      {"backward_cumulative_compile_time_us", nullptr,
       "entire_backward_compile"},
      {nullptr, nullptr, "entire_backward_compile"},
      {"inductor_cumulative_compile_time_us", "inductor_compile_time_s",
       "inductor_compile"},
      {"inductor_code_gen_cumulative_compile_time_us", "code_gen_time_s",
       "code_gen"}};
  CompilePhases C;
  StringRef FwdOrigin = R.metricNumber("entire_frame_compile_time_s")
                            ? "entire_frame_compile_time_s"
                            : "dynamo_cumulative_compile_time_us";
  C.Forward = computePart(R, R.Metrics, Fwd, R.compileSeconds(), FwdOrigin,
                          /*HasDynamo=*/true, "entire_backward_compile");
  // Several backward compiles (MoreBwdMetrics): their levels summed, as
  // their spans are.
  MetricList Summed;
  const MetricList &BwdList =
      R.MoreBwdMetrics.empty() ? R.BwdMetrics : (Summed = sumMetrics(R));
  StringRef BwdOrigin =
      metricNumberIn(BwdList, "backward_cumulative_compile_time_us")
          ? "backward_cumulative_compile_time_us"
      : metricNumberIn(BwdList, "duration_us")
          ? "duration_us"
          : "inductor_compile_time_s";
  C.Backward = computePart(R, BwdList, Bwd,
                           R.BwdMetrics.empty() ? None : R.backwardSeconds(),
                           BwdOrigin, /*HasDynamo=*/false,
                           "entire_frame_compile");
  if (R.BwdMetrics.empty() && C.Forward.logged()) {
    C.BackwardInForward = backwardInFrame(R);
    if (!C.BackwardInForward && backwardFromCache(R))
      C.BackwardInForward = C.BackwardFromCache = true;
  }
  Optional<double> F =
      metricNumberIn(R.RuntimeMetrics, "runtime_triton_autotune_time_us");
  Optional<double> B =
      metricNumberIn(R.BwdRuntimeMetrics, "runtime_triton_autotune_time_us");
  if (F || B)
    C.RuntimeAutotune = (F.getValueOr(0) + B.getValueOr(0)) / 1e6;
  return C;
}

Optional<double> CompilePhases::together(Phase P) const {
  Optional<double> Sum;
  for (const CompilePart *Part : {&Forward, &Backward}) {
    if (!Part->logged())
      continue;
    Optional<double> S = (*Part)[P].Seconds;
    if (!S)
      return None;
    Sum = Sum.getValueOr(0) + *S;
  }
  // Whole microseconds, as the figures are.
  if (Sum)
    Sum = std::round(*Sum * 1e6) / 1e6;
  return Sum;
}

Optional<double> CompilePhases::total() const {
  Optional<double> Sum;
  for (const CompilePart *Part : {&Forward, &Backward})
    if (Part->logged())
      Sum = Sum.getValueOr(0) + *Part->Total;
  if (Sum)
    Sum = std::round(*Sum * 1e6) / 1e6;
  return Sum;
}

} // namespace tlp
