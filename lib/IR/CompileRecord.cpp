//===- CompileRecord.cpp - The health of one compile ----------------------===//

#include "tlp/IR/CompileRecord.h"
#include "tlp/IR/SourceInfo.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace llvm;

namespace tlp {

const InternedName *internName(StringRef S) {
  // Leaked on purpose: spans and metrics of modules freed at exit may
  // still point here.
  static std::mutex *Lock = new std::mutex;
  static StringSet<> *Texts = new StringSet<>;
  std::lock_guard<std::mutex> G(*Lock);
  return &*Texts->insert(S).first;
}

InternedText internSpanText(StringRef S) {
  if (S.empty())
    return InternedText();
  return InternedText(internName(S));
}

KeyComponent splitKeyComponent(StringRef C) {
  KeyComponent K;
  StringRef Rest = C;
  // Two-character needles by their first character: StringRef::find of a
  // longer needle builds a 256-entry table each call, and the dashboard
  // splits every component of every cache miss.
  auto Find2 = [](StringRef S, char A, char B) {
    for (size_t I = S.find(A); I != StringRef::npos; I = S.find(A, I + 1))
      if (I + 1 < S.size() && S[I + 1] == B)
        return I;
    return StringRef::npos;
  };
  if (Rest.startswith("[")) {
    size_t Close = Find2(Rest, ']', ' ');
    if (Close != StringRef::npos) {
      K.Hash = Rest.substr(1, Close - 1);
      Rest = Rest.substr(Close + 2);
    }
  }
  // The name ends at the first ": " (values may hold more of them).
  size_t Colon = Find2(Rest, ':', ' ');
  if (Colon == StringRef::npos) {
    size_t End = Rest.endswith(":") ? Rest.size() - 1 : Rest.size();
    K.Name = Rest.substr(0, End);
    return K;
  }
  K.Name = Rest.substr(0, Colon);
  K.Value = Rest.substr(Colon + 2);
  return K;
}

static SmallVector<StringRef, 16> valueLines(StringRef S) {
  SmallVector<StringRef, 16> Lines;
  S.split(Lines, '\n');
  for (StringRef &L : Lines)
    L = L.rtrim('\r');
  return Lines;
}

unsigned firstDifferingLine(StringRef Before, StringRef After) {
  if (Before == After)
    return 0;
  SmallVector<StringRef, 16> A = valueLines(Before), B = valueLines(After);
  size_t P = 0;
  while (P < A.size() && P < B.size() && A[P] == B[P])
    ++P;
  return static_cast<unsigned>(P + 1);
}

std::string keyValueDiff(StringRef Before, StringRef After, unsigned Context,
                         unsigned Max) {
  SmallVector<StringRef, 16> A = valueLines(Before), B = valueLines(After);
  if ((A.size() <= 1 && B.size() <= 1) || Before == After)
    return std::string();
  size_t NA = A.size(), NB = B.size();
  // The common prefix, then the first changed run: the smallest I + J
  // (each at most Max) where A[P + I] and B[P + J] agree again, or both
  // values end. Bounded: at most (2 Max + 1)^2 comparisons.
  size_t P = 0;
  while (P < NA && P < NB && A[P] == B[P])
    ++P;
  size_t I = 0, J = 0;
  bool Synced = false;
  for (size_t D = 1; D <= 2 * size_t(Max) && !Synced; ++D)
    for (size_t X = 0; X <= D && !Synced; ++X) {
      size_t Y = D - X;
      if (X > Max || Y > Max || P + X > NA || P + Y > NB)
        continue;
      bool EndA = P + X == NA, EndB = P + Y == NB;
      if ((EndA && EndB) || (!EndA && !EndB && A[P + X] == B[P + Y])) {
        I = X;
        J = Y;
        Synced = true;
      }
    }
  if (!Synced) {
    I = std::min<size_t>(Max, NA - P);
    J = std::min<size_t>(Max, NB - P);
  }
  size_t Lead = std::min<size_t>(Context, P), Trail = 0;
  if (Synced)
    while (Trail < Context && P + I + Trail < NA && P + J + Trail < NB &&
           A[P + I + Trail] == B[P + J + Trail])
      ++Trail;
  bool More = !Synced;
  if (Synced) {
    // Later differences: the rest after the run is not the same.
    size_t RA = NA - (P + I), RB = NB - (P + J);
    if (RA != RB)
      More = true;
    else
      for (size_t K = 0; K < RA && !More; ++K)
        More = A[P + I + K] != B[P + J + K];
  }
  auto Range = [](size_t Start, size_t Count) {
    // Unified diff: a range of no lines names the line before it.
    return std::to_string(Count ? Start + 1 : Start) + "," +
           std::to_string(Count);
  };
  std::string Out = "@@ -" + Range(P - Lead, Lead + I + Trail) + " +" +
                    Range(P - Lead, Lead + J + Trail) + " @@\n";
  auto Line = [&](char Tag, StringRef L) {
    Out += Tag;
    if (L.size() > 200) {
      size_t N = 200;
      while (N > 0 && (static_cast<unsigned char>(L[N]) & 0xC0) == 0x80)
        --N;
      Out += L.take_front(N).str() + "...";
    } else {
      Out += L.str();
    }
    Out += '\n';
  };
  for (size_t K = P - Lead; K < P; ++K)
    Line(' ', A[K]);
  for (size_t K = 0; K < I; ++K)
    Line('-', A[P + K]);
  for (size_t K = 0; K < J; ++K)
    Line('+', B[P + K]);
  for (size_t K = 0; K < Trail; ++K)
    Line(' ', A[P + I + K]);
  if (More)
    Out += "@@ more lines differ below @@\n";
  return Out;
}

StringRef CompileRecord::metric(StringRef Name) const {
  return Metrics.lookup(Name);
}

/// \p V as a number, when the whole of it is one (a metric's JSON value).
static Optional<double> parseNumber(StringRef V) {
  if (V.empty() || !(isDigit(V[0]) || V[0] == '-'))
    return None;
  std::string S = V.str();
  char *End = nullptr;
  double D = std::strtod(S.c_str(), &End);
  if (End != S.c_str() + S.size())
    return None;
  return D;
}

Optional<double> CompileRecord::metricNumber(StringRef Name) const {
  return parseNumber(metric(Name));
}

Optional<double> CompileRecord::compileSeconds() const {
  if (Optional<double> S = metricNumber("entire_frame_compile_time_s"))
    return S;
  if (Optional<double> Us = metricNumber("dynamo_cumulative_compile_time_us"))
    return *Us / 1e6;
  return None;
}

Optional<double>
metricNumberIn(const MetricList &Ms, StringRef Name) {
  for (MetricList::value_type KV : Ms) {
    if (KV.first != Name)
      continue;
    return parseNumber(KV.second);
  }
  return None;
}

static Optional<double> backwardSecondsOf(const MetricList &L) {
  if (Optional<double> Us =
          metricNumberIn(L, "backward_cumulative_compile_time_us"))
    return *Us / 1e6;
  if (Optional<double> Us = metricNumberIn(L, "duration_us"))
    return *Us / 1e6;
  return metricNumberIn(L, "inductor_compile_time_s");
}

Optional<double> CompileRecord::backwardSeconds() const {
  Optional<double> S = backwardSecondsOf(BwdMetrics);
  for (const MetricList &L : MoreBwdMetrics) {
    Optional<double> More = backwardSecondsOf(L);
    if (!S || !More)
      return None;
    // Whole microseconds, as the figures are.
    S = std::round((*S + *More) * 1e6) / 1e6;
  }
  return S;
}

Optional<double> CompileRecord::wallSeconds() const {
  if (Optional<double> Us = metricNumber("duration_us"))
    return *Us / 1e6;
  Optional<double> Start = metricNumber("start_time_us"),
                   End = metricNumber("end_time_us");
  if (Start && End && *End >= *Start)
    return (*End - *Start) / 1e6;
  return None;
}

std::string CompileRecord::noIdCompileText(ArrayRef<std::string> Units) const {
  if (Id || Metrics.empty())
    return std::string();
  std::string S = "Compiled without a compile id (`compilation_metrics` "
                  "with `compile_id` null, as AOTInductor logs its "
                  "compile): ";
  StringRef Fail = metric("fail_type");
  if (!FailType.empty())
    S += "failed, " + failSummary() + "; ";
  else if (!Fail.empty() && Fail != "null")
    S += "failed (its metrics' `fail_type`); ";
  if (Optional<double> W = wallSeconds())
    S += formatv("{0:f3}", *W).str() +
         " s from its start to its end time";
  else
    S += "its time not logged";
  if (!Units.empty()) {
    S += Units.size() == 1 ? "; its unit " : "; its units ";
    for (size_t I = 0; I < Units.size(); ++I)
      S += (I ? ", " : "") + Units[I];
  }
  return S + ".";
}

Optional<double> CompileRecord::totalSeconds() const {
  Optional<double> F = compileSeconds();
  if (BwdMetrics.empty() || !F)
    return F;
  Optional<double> B = backwardSeconds();
  if (!B)
    return None;
  return *F + *B;
}

const CacheLookup *CompileRecord::lastCache(CacheLookup::CacheKind K) const {
  for (auto It = Caches.rbegin(); It != Caches.rend(); ++It)
    if (It->Cache == K)
      return &*It;
  return nullptr;
}

void CompileRecord::addBreak(StringRef Reason, Optional<SourceLoc> Where,
                             Optional<SourceLoc> UserFrame,
                             StringRef Traceback) {
  for (BreakReason &B : Breaks)
    if (B.Reason == Reason && B.Where == Where) {
      ++B.Count;
      if (!B.UserFrame)
        B.UserFrame = std::move(UserFrame);
      if (B.Traceback.empty())
        B.Traceback = Traceback.str();
      return;
    }
  BreakReason B;
  B.Reason = Reason.str();
  B.Where = std::move(Where);
  B.UserFrame = std::move(UserFrame);
  B.Traceback = Traceback.str();
  Breaks.push_back(std::move(B));
}

std::string CompileRecord::failSummary() const {
  if (FailType.empty())
    return std::string();
  std::string S = reasonSummary(FailReason);
  return S.empty() ? FailType : FailType + ": " + S;
}

bool CompileRecord::failureSuppressed() const {
  StringRef V = metric("config_suppress_errors");
  return !FailType.empty() && (V == "True" || V == "true");
}

std::string CompileRecord::displayName() const {
  std::string S;
  if (Rank)
    S += "rank " + std::to_string(*Rank) + " ";
  return S + idName();
}

std::string CompileRecord::timeText() const {
  Optional<double> F = compileSeconds();
  auto Fmt = [](Optional<double> D) {
    return D ? formatv("{0:f3}", *D).str() : std::string("unknown");
  };
  if (BwdMetrics.empty())
    return F ? Fmt(F) : std::string();
  Optional<double> T = totalSeconds();
  size_t N = backwardCompiles();
  return (T ? Fmt(T) + " " : std::string()) + "(forward " + Fmt(F) +
         ", backward " + Fmt(backwardSeconds()) +
         (N > 1 ? " in " + std::to_string(N) + " graphs" : std::string()) +
         ")";
}

std::string CompileRecord::idName() const {
  std::string S = Id ? Id->str() : std::string("(no compile id)");
  if (Ordinal)
    S += " #" + std::to_string(Ordinal);
  if (LogInId)
    S += " (log " + std::to_string(Log) + ")";
  return S;
}

std::string CompileRecord::slug() const {
  std::string S;
  if (Rank)
    S += "r" + std::to_string(*Rank) + "-";
  S += Id ? Id->slug() : std::string("none");
  if (Ordinal)
    S += "-n" + std::to_string(Ordinal);
  if (LogInId)
    S += "-log" + std::to_string(Log);
  return S;
}

static bool isLineDigits(StringRef S) {
  return !S.empty() && llvm::all_of(S, [](char C) { return isDigit(C); });
}

Optional<SourceLoc> findUserLocation(StringRef Text) {
  Optional<SourceLoc> Found;
  // Python traceback frames: File "x.py", line 12, in fn
  // File and line only: the span of a traceback's underline is kept for
  // kernels (SourceLoc::SpanBegin), not for the places a record names.
  std::vector<SourceLoc> Frames = parseStackTrace(Text);
  if (!Frames.empty()) {
    SourceLoc L = Frames.back();
    L.SpanBegin = L.SpanEnd = 0;
    return L;
  }
  // "x.py:12" anywhere (graph-break messages name the user line so).
  size_t Pos = 0;
  while (true) {
    size_t P = Text.find(".py:", Pos);
    if (P == StringRef::npos)
      break;
    size_t B = P;
    while (B > 0 && !StringRef(" \t\n\"'(`").contains(Text[B - 1]))
      --B;
    size_t E = P + 4;
    while (E < Text.size() && isDigit(Text[E]))
      ++E;
    StringRef Digits = Text.slice(P + 4, E);
    uint64_t N;
    if (isLineDigits(Digits) && parseUnsigned(Digits, N) && N > 0 &&
        N < UINT32_MAX) {
      SourceLoc L;
      L.File = Text.slice(B, P + 3).str();
      L.Line = static_cast<uint32_t>(N);
      Found = L;
    }
    Pos = P + 4;
  }
  return Found;
}

/// The first line of \p Text that says more than a preamble; a line that
/// ends in ':' ("backend='x' raised:") goes on with the next one.
static std::string headline(StringRef Text) {
  StringRef First, Found;
  while (!Text.empty()) {
    StringRef L;
    std::tie(L, Text) = Text.split('\n');
    L = L.trim();
    if (L.empty())
      continue;
    if (First.empty())
      First = L;
    if (!L.startswith("Encountered graph break") &&
        !L.startswith("Failed to handle graph break gracefully")) {
      Found = L;
      break;
    }
  }
  if (Found.empty())
    return First.str();
  std::string S = Found.str();
  if (Found.endswith(":")) {
    StringRef Next = Text.ltrim().split('\n').first.trim();
    if (!Next.empty())
      S += " " + Next.str();
  }
  return S;
}

std::string reasonSummary(StringRef Text) {
  static constexpr StringLiteral Again =
      "*** While handling this graph break, another graph break occurred: ***";
  size_t At = Text.find(Again);
  if (At == StringRef::npos)
    return headline(Text);
  std::string S = headline(Text.take_front(At));
  std::string Last = headline(Text.substr(Text.rfind(Again) + Again.size()));
  if (Last.empty())
    return S;
  return S + "; while handling it: " + Last;
}

std::string BreakReason::summary() const { return reasonSummary(Reason); }

std::string BreakReason::restartClass() const {
  // "<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>", the
  // whole reason (str() of the exception class).
  StringRef T = StringRef(Reason).trim();
  if (!T.consume_front("<class '") || !T.consume_back("'>"))
    return std::string();
  StringRef Name = T.rsplit('.').second.empty() ? T : T.rsplit('.').second;
  if (!Name.endswith("RestartAnalysis") || !T.startswith("torch."))
    return std::string();
  return Name.str();
}

std::string BreakReason::label() const {
  std::string C = restartClass();
  return C.empty() ? summary() : C;
}

/// Whether \p Path (with '/' separators) has a component `torch` right
/// after `site-packages` or `dist-packages`, or one of the compile stack's
/// other packages there.
static bool inInstalledTorch(StringRef Path) {
  for (StringRef Dir : {"/site-packages/", "/dist-packages/"}) {
    size_t P = 0;
    while ((P = Path.find(Dir, P)) != StringRef::npos) {
      P += Dir.size();
      StringRef Pkg = Path.substr(P).take_until([](char C) {
        return C == '/';
      });
      if (Pkg == "torch" || Pkg == "torchgen" || Pkg == "functorch" ||
          Pkg == "triton")
        return true;
    }
  }
  return false;
}

/// Whether \p Path is in Python's standard library: a component
/// `pythonX.Y` (or `pythonX`) after `lib`, `lib64` or `Lib`, with no
/// site-packages or dist-packages after it.
static bool inStdlib(StringRef Path) {
  SmallVector<StringRef, 16> Parts;
  Path.split(Parts, '/');
  for (size_t I = 1; I + 1 < Parts.size(); ++I) {
    StringRef Lib = Parts[I - 1], Py = Parts[I];
    if (Lib != "lib" && Lib != "lib64" && Lib != "Lib")
      continue;
    if (!Py.consume_front("python") || Py.empty() ||
        !llvm::all_of(Py, [](char C) { return isDigit(C) || C == '.'; }))
      continue;
    for (size_t J = I + 1; J < Parts.size(); ++J)
      if (Parts[J] == "site-packages" || Parts[J] == "dist-packages")
        return false;
    return true;
  }
  return false;
}

bool isUserFile(StringRef File, StringRef TorchRoot) {
  if (File.empty() || File.startswith("<"))
    return false;
  std::string Norm = File.str();
  std::replace(Norm.begin(), Norm.end(), '\\', '/');
  StringRef P = Norm;
  if (P.startswith("torch/") || inInstalledTorch(P) || inStdlib(P))
    return false;
  if (!TorchRoot.empty() && P.startswith(TorchRoot))
    return false;
  // Code Inductor generated: its cache modules, named by a hash
  // (/tmp/torchinductor_u/ct/cctny2sis...py).
  StringRef Stem = sys::path::stem(P);
  if (P.contains("torchinductor") || P.contains("inductor-cache") ||
      (Stem.size() >= 40 && llvm::all_of(Stem, [](char C) {
         return isDigit(C) || (C >= 'a' && C <= 'z');
       })))
    return false;
  return true;
}

std::string torchRootOf(const std::vector<SourceLoc> &Frames) {
  for (const SourceLoc &F : Frames) {
    std::string Norm = F.File;
    std::replace(Norm.begin(), Norm.end(), '\\', '/');
    size_t P = StringRef(Norm).find("/torch/_dynamo/");
    if (P != StringRef::npos)
      return Norm.substr(0, P + strlen("/torch/"));
  }
  return std::string();
}

Optional<SourceLoc> innermostUserFrame(const std::vector<SourceLoc> &Frames,
                                       StringRef TorchRoot) {
  std::string Root = torchRootOf(Frames);
  if (Root.empty())
    Root = TorchRoot.str();
  for (auto It = Frames.rbegin(); It != Frames.rend(); ++It)
    if (isUserFile(It->File, Root)) {
      // File and line: the span a traceback underlines is kept for
      // kernels (SourceLoc::SpanBegin), not for the places a record names.
      SourceLoc L = *It;
      L.SpanBegin = L.SpanEnd = 0;
      return L;
    }
  return None;
}

std::string CompileRecord::noOutputReason() const {
  if (!Id)
    return "events outside any compile";
  switch (Status) {
  case CompileStatus::Failure:
    // The frame's compiles reached torch._dynamo.config.recompile_limit
    // (PyTorch 2.13: "Dynamo recompile limit exceeded"; before, the
    // cache_size_limit): Dynamo stops compiling the frame, and a call
    // that matches none of its compiled entries runs eagerly.
    if (FailType == "Unsupported" &&
        StringRef(FailReason).startswith("Dynamo recompile limit exceeded"))
      return "recompile limit reached: calls that match no compiled entry "
             "of this frame run eagerly";
    return "compile failed: " + FailType;
  case CompileStatus::Restart:
    return restartText();
  case CompileStatus::Unknown:
    if (isCompiledAutogradCapture())
      return "compiled autograd capture: Dynamo compiles its graph as "
             "compiles of their own (" +
             Id->str() + "/N/M); no compilation_metrics of its own";
    return "no compilation_metrics: the compile did not finish in this log";
  case CompileStatus::Success:
    break;
  }
  if (const CacheLookup *C = lastCache(CacheLookup::FXGraph))
    if (C->Result == CacheLookup::Hit)
      return "FX graph cache hit (no graphs or code re-emitted)";
  if (Optional<double> Ops = metricNumber("graph_op_count"))
    if (*Ops == 0)
      return "empty graph: no ops to compile";
  // A frame Dynamo traced to no graph at all (a resume function that only
  // returns: `torch._dynamo.graph_break(); return x`): PyTorch 2.13 logs no
  // graph_op_count and an empty graph_node_shapes, and calls no backend.
  if (metric("graph_op_count").empty() &&
      metric("graph_node_shapes") == "\"{}\"")
    return "empty graph: Dynamo traced no ops, nothing to compile";
  return "no Inductor output in the log (another backend, or eager)";
}

bool CompileRecord::tracedEmptyGraph() const {
  return StringRef(noOutputReason()).startswith("empty graph");
}

std::string CompileRecord::restartText() const {
  if (Breaks.empty())
    return "restarted";
  const BreakReason &B = Breaks.front();
  return "restarted (" + B.kindName().str() + ": " + B.label() + ")";
}

std::string CompileRecord::cacheSummary() const {
  std::string S;
  for (CacheLookup::CacheKind K :
       {CacheLookup::FXGraph, CacheLookup::AOTAutograd}) {
    // How many lookups of each result: a compile of several graphs (a
    // forward and its backward, DDPOptimizer's submodules) looks the cache
    // up once a graph, and one may hit where the others miss.
    unsigned N[3] = {0, 0, 0};
    for (const CacheLookup &C : Caches)
      if (C.Cache == K)
        ++N[C.Result];
    unsigned Kinds = (N[0] > 0) + (N[1] > 0) + (N[2] > 0);
    if (!Kinds)
      continue;
    if (!S.empty())
      S += ", ";
    S += cacheKindName(K).str() + " ";
    if (Kinds == 1) {
      S += cacheResultName(lastCache(K)->Result).str();
      continue;
    }
    static const char *const Plural[3] = {"hits", "misses", "bypasses"};
    bool First = true;
    for (CacheLookup::ResultKind R :
         {CacheLookup::Hit, CacheLookup::Miss, CacheLookup::Bypass}) {
      if (!N[R])
        continue;
      S += First ? "" : " and ";
      First = false;
      S += std::to_string(N[R]) + " " +
           (N[R] == 1 ? cacheResultName(R).str() : std::string(Plural[R]));
    }
  }
  return S;
}


std::string CompileRecord::tracebackWithoutReason() const {
  StringRef Reason = StringRef(FailReason).trim();
  size_t Lines = Reason.count('\n') + 1;
  // A short reason is repeated whole: it costs little, and the
  // traceback keeps reading as Python printed it.
  if (Lines < 20)
    return FailTraceback;
  size_t At = StringRef(FailTraceback).rfind(Reason);
  if (At == StringRef::npos)
    return FailTraceback;
  std::string Out = FailTraceback.substr(0, At);
  Out += "[the failure text above: " + std::to_string(Lines) + " lines]";
  Out += FailTraceback.substr(At + Reason.size());
  return Out;
}

RawEventReader::~RawEventReader() = default;

bool rawEventTexts(const RawEvent &E, const RawEventReader *Reader,
                   std::string &Line, std::string &Text) {
  if (E.Loaded) {
    Line = E.Loaded->EventLine;
    Text = E.Loaded->Text;
    return true;
  }
  return Reader && Reader->read(E, Line, Text);
}

} // namespace tlp
