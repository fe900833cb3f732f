//===- HealthPayloads.cpp - Health events of a log ------------------------===//
//
// Part of tlp. The events that feed a compile record (HealthKind: chromium
// spans, compilation metrics, guards, recompile reasons, errors, graph
// breaks, cache lookups), read in their chunk into small HealthEvents; the
// compile records are built from them once the chunks are scanned
// (CompileRecords.cpp).
//
//===----------------------------------------------------------------------===//

#include "ReaderInternals.h"
#include "tlp/IR/SourceInfo.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace tlp {
namespace reader {

uint32_t SharedTexts::intern(const json::Value &E) {
  StringRef Raw = E.Text;
  uint64_t H = xxHash64(Raw);
  std::string Decoded;
  bool HaveDecoded = false;
  auto decoded = [&]() -> const std::string & {
    if (!HaveDecoded) {
      Decoded = json::decodeString(E);
      sanitizeUTF8(Decoded);
      HaveDecoded = true;
    }
    return Decoded;
  };
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Ins = ByHash.try_emplace(H, uint32_t(Entries.size()));
  if (!Ins.second) {
    // The same raw text decodes to the same text: most lookups (the
    // configuration dumps of every compile, 25 KB of escaped JSON each)
    // end here without decoding (11 % of `tlp-emit --json` decoded them).
    uint32_t Last = Ins.first->second;
    for (uint32_t I = Last; I != ~0u; I = Entries[I].Next) {
      if (Entries[I].Raw == Raw || Entries[I].Text == decoded())
        return I;
      Last = I;
    }
    Entries[Last].Next = uint32_t(Entries.size());
  }
  Entries.push_back(Entry{Raw.str(), decoded(), ~0u});
  return uint32_t(Entries.size() - 1);
}

const std::string &SharedTexts::text(uint32_t Id) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Entries[Id].Text;
}

/// The first line of a traceback's last line, "RuntimeError: msg", split
/// into type and message.
static void splitException(StringRef Last, std::string &Type,
                           std::string &Message) {
  size_t C = Last.find(": ");
  StringRef T = C == StringRef::npos ? Last : Last.substr(0, C);
  if (T.empty() || T.contains(' ')) {
    Message = Last.str();
    return;
  }
  Type = T.str();
  Message = C == StringRef::npos ? std::string() : Last.substr(C + 2).str();
}

/// Calls \p F on each element of the list under \p Key of the object
/// \p V; false if \p V has no such list.
template <typename Fn>
static bool forEachOfList(const json::Value &V, StringRef Key, Fn F) {
  bool Found = false;
  if (V.isObject())
    json::forEachMember(V, [&](StringRef K, const json::Value &L) {
      if (K != Key || !L.isArray())
        return true;
      Found = true;
      json::forEachElement(L, [&](const json::Value &E) {
        F(E);
        return true;
      });
      return true;
    });
  return Found;
}

void ChunkScanner::finishHealth() {
  HealthEvent H;
  H.Kind = Cur.HK;
  H.Line = Cur.Line;
  auto Bad = [&](const Twine &Why) {
    diag(Severity::Warning, Cur.Line, "'" + Cur.ArtName + "': " + Why +
         "; ignored", StringRef(), DiagClass::Other);
  };
  json::Value V;
  json::ParseError Err;
  // recompile_reasons says "json" but newer PyTorch writes plain lines.
  bool IsJson = Cur.HK == HealthKind::Guards ||
                Cur.HK == HealthKind::Schedule ||
                Cur.HK == HealthKind::Runtime ||
                Cur.HK == HealthKind::Execution ||
                Cur.HK == HealthKind::Chromium ||
                Cur.HK == HealthKind::Cache ||
                Cur.HK == HealthKind::TorchVersion ||
                (Cur.HK == HealthKind::RecompileReasons &&
                 trimWS(Cur.Text).startswith("["));
  bool IsMetrics = Cur.HK == HealthKind::Metrics ||
                   Cur.HK == HealthKind::BwdMetrics ||
                   Cur.HK == HealthKind::RuntimeMetrics ||
                   Cur.HK == HealthKind::BwdRuntimeMetrics ||
                   Cur.HK == HealthKind::Shape || // metadata, no payload
                   Cur.HK == HealthKind::Export || // a payload or not
                   Cur.HK == HealthKind::DdpSplit;
  if (!IsMetrics && !Cur.HasPayload) {
    Bad("no payload");
    return;
  }
  if (IsJson && !json::parse(Cur.Text, V, Err)) {
    Bad("invalid JSON payload: " + Err.Message + " at offset " +
        Twine(Err.Offset));
    return;
  }
  auto Str = [](const json::Value &X) {
    std::string S = json::decodeString(X);
    sanitizeUTF8(S);
    return S;
  };
  switch (Cur.HK) {
  case HealthKind::None:
    return;
  case HealthKind::Metrics:
  case HealthKind::BwdMetrics:
  case HealthKind::RuntimeMetrics:
  case HealthKind::BwdRuntimeMetrics: {
    if (!Cur.Meta.isObject()) {
      Bad("metadata is not an object");
      return;
    }
    std::string FrameFile;
    Optional<int64_t> FrameLine;
    // A key given twice keeps its last value (JSON's usual reading) and
    // says so: a record holds each metric once (the verifier checks it).
    llvm::StringMap<size_t> Seen;
    std::string ValidKey;
    json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
      if (X.isNull())
        return true;
      // A name is kept as text like the values: valid UTF-8.
      if (firstInvalidUTF8(K) != StringRef::npos) {
        ValidKey = K.str();
        sanitizeUTF8(ValidKey);
        K = ValidKey;
      }
      if (K == "fail_type" && X.isString())
        H.detail().FailType = Str(X);
      else if (K == "fail_reason" && X.isString())
        H.detail().FailReason = Str(X);
      else if (K == "fail_user_frame_filename" && X.isString())
        FrameFile = Str(X);
      else if (K == "fail_user_frame_lineno") {
        int64_t I;
        if (json::getInt(X, I) && I > 0 && I < INT32_MAX)
          FrameLine = I;
      } else if (K == "restart_reasons" && X.isArray()) {
        json::forEachElement(X, [&](const json::Value &E) {
          if (E.isString())
            H.detail().Strings.push_back(Str(E));
          return true;
        });
      }
      // The configuration dumps are long and the same in most compiles:
      // kept once each (SharedTexts). The backward's
      // inductor_provenance repeats its stack traces artifact.
      if (K.endswith("_config") && X.isString()) {
        H.detail().Configs.emplace_back(K.str(), R.Configs->intern(X));
        return true;
      }
      if (K == "inductor_provenance")
        return true;
      std::string Text = X.Text.str();
      sanitizeUTF8(Text);
      MetricList &Ms = H.detail().Metrics;
      auto Ins = Seen.try_emplace(K, Ms.size());
      if (!Ins.second) {
        diag(Severity::Warning, Cur.Line,
             "'" + Cur.ArtName + "': key '" + K +
                 "' is repeated; the last value is kept",
             StringRef(), DiagClass::Other);
        Ms.setValue(Ins.first->second, Text);
        return true;
      }
      Ms.emplace_back(K, Text);
      return true;
    });
    H.detail().Metrics.shrinkToFit();
    if (!FrameFile.empty() && FrameLine) {
      SourceLoc L;
      L.File = FrameFile;
      L.Line = static_cast<uint32_t>(*FrameLine);
      H.detail().Where = L;
    }
    break;
  }
  case HealthKind::Shape: {
    if (!Cur.Meta.isObject()) {
      Bad("metadata is not an object");
      return;
    }
    H.detail().Shape = std::make_unique<ShapeEvent>();
    ShapeEvent &E = *H.detail().Shape;
    E.Line = Cur.Line;
    StringRef Kind = Cur.Kind;
    E.Kind = Kind == "create_symbol"            ? ShapeEvent::Symbol
             : Kind == "create_unbacked_symbol" ? ShapeEvent::UnbackedSymbol
             : Kind == "symbolic_shape_specialization"
                 ? ShapeEvent::Specialization
             : Kind == "guard_on_data_dependent_error"
                 ? ShapeEvent::DataDependentError
             : Kind.startswith("propagate_real_tensors")
                 ? ShapeEvent::RealTensors
                 : ShapeEvent::Guard;
    // A scalar as text: a string as it is, anything else as JSON.
    auto Text = [&](const json::Value &X) {
      if (X.isString())
        return Str(X);
      std::string T = X.Text.str();
      sanitizeUTF8(T);
      return T;
    };
    json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
      if (X.isNull())
        return true;
      if (K == "symbol")
        E.Sym = Text(X);
      else if (K == "source")
        E.Source = Text(X);
      else if (K == "sources" && X.isArray())
        json::forEachElement(X, [&](const json::Value &Y) {
          if (!E.Source.empty())
            E.Source += ", ";
          E.Source += Text(Y);
          return true;
        });
      else if (K == "val" || K == "value" || K == "result")
        E.Value = Text(X);
      else if (K == "vr")
        E.Range = Text(X);
      else if (K == "expr" || (K == "reason" && E.Expr.empty()))
        E.Expr = Text(X);
      else if (K == "user_stack" && X.isArray())
        json::forEachElement(X, [&](const json::Value &F) {
          int64_t Index = -1;
          if (Optional<SourceLoc> L = parseFrame(F, Index))
            H.detail().Stack.emplace_back(Index, std::move(*L));
          return true;
        });
      return true;
    });
    break;
  }
  case HealthKind::DdpSplit: {
    if (Cur.Kind == "optimize_ddp_split_child") {
      if (Cur.Meta.isObject())
        json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
          if (K == "name" && X.isString())
            H.detail().Text = Str(X);
          return true;
        });
      if (H.detail().Text.empty()) {
        Bad("names no submodule ('name')");
        return;
      }
    }
    // The graphs are shown raw.
    if (Cur.HasPayload && Cur.PayloadLines)
      keepRaw();
    break;
  }
  case HealthKind::Export: {
    H.detail().Export = std::make_unique<ExportEvent>();
    ExportEvent &E = *H.detail().Export;
    E.Line = Cur.Line;
    StringRef Kind = Cur.Kind;
    E.Kind = Kind == "exported_program"      ? ExportEvent::Program
             : Kind == "missing_fake_kernel" ? ExportEvent::MissingFakeKernel
             : Kind == "mismatched_fake_kernel"
                 ? ExportEvent::MismatchedFakeKernel
                 : ExportEvent::Start;
    E.Lines = Cur.PayloadLines;
    if (!Cur.Meta.isObject()) {
      Bad("metadata is not an object");
      return;
    }
    json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
      if (K == "op" && X.isString())
        E.Op = Str(X);
      else if (K == "reason" && X.isString())
        E.Reason = Str(X);
      return true;
    });
    // A fake-kernel event names its operator; without it the report
    // would say "?" with no word why.
    if ((E.Kind == ExportEvent::MissingFakeKernel ||
         E.Kind == ExportEvent::MismatchedFakeKernel) &&
        E.Op.empty())
      diag(Severity::Warning, Cur.Line,
           "'" + Cur.ArtName + "' names no operator ('op'); shown as '?'",
           StringRef(), DiagClass::Other);
    if (E.Kind == ExportEvent::Program && !Cur.PayloadLines)
      diag(Severity::Warning, Cur.Line,
           "'exported_program' has no payload: the program's text is lost",
           StringRef(), DiagClass::Other);
    // The program's text (and the start's) is shown raw.
    if (Cur.HasPayload && Cur.PayloadLines)
      keepRaw();
    break;
  }
  case HealthKind::TorchVersion: {
    // {"pytorch_version": "2.13.0+cpu", "commit": "cf30...", "oss": true}:
    // the PyTorch of the process that wrote the log.
    if (!V.isObject()) {
      Bad("payload is not a JSON object");
      return;
    }
    json::forEachMember(V, [&](StringRef K, const json::Value &X) {
      if (K == "pytorch_version" && X.isString())
        H.detail().Text = Str(X);
      else if (K == "commit" && X.isString())
        H.detail().Commit = Str(X);
      return true;
    });
    if (H.detail().Text.empty()) {
      Bad("no 'pytorch_version' string");
      return;
    }
    break;
  }
  case HealthKind::Guards: {
    if (!V.isArray()) {
      Bad("payload is not a JSON list");
      return;
    }
    uint64_t N = 0;
    json::forEachElement(V, [&](const json::Value &G) {
      ++N;
      if (G.isObject())
        json::forEachMember(G, [&](StringRef K, const json::Value &X) {
          if (K == "code" && X.isString())
            H.detail().Strings.push_back(Str(X));
          return true;
        });
      return true;
    });
    H.detail().Count = N;
    break;
  }
  case HealthKind::CppGuards:
    // A copy, not a move: Cur.Text grew line by line and may hold up to
    // twice its size; the copy is the text's size. (When Cur.Text was
    // reused from event to event, a moved guard text of 2 KB held the
    // capacity of the largest payload before it: 100 MB on the 356 MB
    // benchmark log. Keeping the buffers across events saved nothing
    // measurable: 839.5 M against 842.5 M instructions on corpus x5.)
    H.detail().Text = Cur.Text;
    sanitizeUTF8(H.detail().Text);
    break;
  case HealthKind::Chromium: {
    if (!V.isObject()) {
      Bad("payload is not a JSON object");
      return;
    }
    Span &S = H.Event;
    S.Line = Cur.Line;
    S.Phase = 0;
    bool HasTs = false;
    // The same raw text decodes to the same text (SpanTexts).
    auto Interned = [&](const json::Value &X) {
      auto It = SpanTexts.find(X.Text);
      if (It != SpanTexts.end())
        return It->second;
      InternedText T = internSpanText(Str(X));
      if (SpanTexts.size() < MaxSpanTexts && X.Text.size() <= MaxSpanText)
        SpanTexts.try_emplace(X.Text, T);
      return T;
    };
    json::forEachMember(V, [&](StringRef K, const json::Value &X) {
      double D;
      int64_t I;
      if (K == "name" && X.isString())
        S.Name = Interned(X);
      else if (K == "cat" && X.isString())
        S.Category = Interned(X);
      else if (K == "ph" && X.isString()) {
        // "B": one ASCII character needs no decoding.
        StringRef Raw = X.Text;
        if (Raw.size() == 3 && Raw[1] != '\\' &&
            static_cast<unsigned char>(Raw[1]) < 0x80) {
          S.Phase = Raw[1];
        } else {
          std::string P = Str(X);
          S.Phase = P.size() == 1 ? P[0] : 0;
        }
      } else if (K == "ts" && json::getDouble(X, D) && std::isfinite(D)) {
        S.Start = static_cast<int64_t>(std::llround(D));
        HasTs = true;
      } else if (K == "dur" && json::getDouble(X, D) && std::isfinite(D) &&
                 D >= 0)
        S.Duration = static_cast<int64_t>(std::llround(D));
      else if (K == "tid" && json::getInt(X, I))
        S.Tid = I;
      return true;
    });
    if (!HasTs || !StringRef("BEXiI").contains(S.Phase) || !S.Phase) {
      Bad("not a trace event with 'ts' and a phase B, E, X or i");
      return;
    }
    if (S.Phase == 'I')
      S.Phase = 'i';
    break;
  }
  case HealthKind::Schedule:
    // ["torch.ops._c10d_functional.all_reduce_.default", ...]; a kernel
    // without a name is null.
    if (!V.isArray()) {
      Bad("payload is not a JSON list");
      return;
    }
    json::forEachElement(V, [&](const json::Value &X) {
      H.detail().Strings.push_back(X.isString() ? Str(X) : std::string("?"));
      return true;
    });
    break;
  case HealthKind::Execution: {
    // {"graph_execution_order": [{"compile_id": "0/0"}, ...]}
    bool Found = forEachOfList(V, "graph_execution_order",
                               [&](const json::Value &E) {
      std::string Id = "?";
      if (E.isObject())
        json::forEachMember(E, [&](StringRef EK, const json::Value &X) {
          if (EK == "compile_id" && X.isString())
            Id = Str(X);
          return true;
        });
      H.detail().Strings.push_back(std::move(Id));
    });
    if (!Found) {
      Bad("payload has no 'graph_execution_order' list");
      return;
    }
    break;
  }
  case HealthKind::Runtime: {
    // {"ops": [{"name", "type", "estimated_runtime_ns", "outputs":
    // [{"shape", "stride", "dtype"}]}]}
    auto List = [&](const json::Value &X) {
      std::string S;
      json::forEachElement(X, [&](const json::Value &Y) {
        if (!S.empty())
          S += ", ";
        S += Y.isString() ? Str(Y) : Y.Text.str();
        return true;
      });
      return S;
    };
    bool Found = forEachOfList(V, "ops", [&](const json::Value &E) {
      RuntimeOp Op;
      if (E.isObject())
        json::forEachMember(E, [&](StringRef OK, const json::Value &X) {
          double D;
          if (OK == "name" && X.isString())
            Op.Name = Str(X);
          else if (OK == "type" && X.isString())
            Op.Type = Str(X);
          else if (OK == "estimated_runtime_ns" && json::getDouble(X, D) &&
                   std::isfinite(D))
            Op.EstimatedNs = D;
          else if (OK == "outputs" && X.isArray())
            json::forEachElement(X, [&](const json::Value &O) {
              std::string Dtype = "?", Shape, Stride;
              if (O.isObject())
                json::forEachMember(O, [&](StringRef F,
                                           const json::Value &Y) {
                  if (F == "dtype" && Y.isString())
                    Dtype = Str(Y);
                  else if (F == "shape" && Y.isArray())
                    Shape = List(Y);
                  else if (F == "stride" && Y.isArray())
                    Stride = List(Y);
                  return true;
                });
              if (!Op.Outputs.empty())
                Op.Outputs += " + ";
              // A collective's outputs have no layout: "-".
              Op.Outputs += Dtype == "?" && Shape.empty() && Stride.empty()
                                ? std::string("-")
                                : Dtype + "[" + Shape + "] [" + Stride +
                                      "]";
              return true;
            });
          return true;
        });
      H.detail().Ops.push_back(std::move(Op));
    });
    if (!Found) {
      Bad("payload has no 'ops' list");
      return;
    }
    break;
  }
  case HealthKind::RecompileReasons:
    if (!IsJson) {
      std::vector<StringRef> Lines;
      splitLines(Cur.Text, Lines);
      // One reason a line, but a reason may go on over the lines after
      // it: its "User stack trace:" and the indented frames under it
      // (torch 2.13) belong to the guard line above them.
      std::vector<std::string> &Out = H.detail().Strings;
      for (StringRef L : Lines) {
        if (trimWS(L).empty())
          continue;
        bool GoesOn = L.front() == ' ' || L.front() == '\t' ||
                      trimWS(L) == "User stack trace:";
        std::string S = GoesOn ? L.rtrim().str() : trimWS(L).str();
        sanitizeUTF8(S);
        if (GoesOn && !Out.empty())
          Out.back() += "\n" + S;
        else
          Out.push_back(std::move(S));
      }
      break;
    }
    if (!V.isArray()) {
      Bad("payload is not a JSON list");
      return;
    }
    json::forEachElement(V, [&](const json::Value &X) {
      if (X.isString())
        H.detail().Strings.push_back(Str(X));
      return true;
    });
    break;
  case HealthKind::DynamoError: {
    std::string T = Cur.Text;
    sanitizeUTF8(T);
    std::vector<StringRef> Lines;
    splitLines(T, Lines);
    StringRef Last;
    for (StringRef L : Lines)
      if (!trimWS(L).empty() && !L.startswith(" "))
        Last = trimWS(L);
    if (!Last.empty())
      splitException(Last, H.detail().FailType, H.detail().FailReason);
    // The user frame: the innermost frame in the user's own files (not
    // torch's, the standard library's or the code Inductor generated;
    // isUserFile), of the traceback and its "from user code:" part.
    H.detail().Where = innermostUserFrame(parseStackTrace(T));
    H.detail().UserFrame = H.detail().Where;
    H.detail().Traceback = StringRef(T).rtrim().str();
    break;
  }
  case HealthKind::GraphBreak: {
    std::string T = Cur.Text;
    sanitizeUTF8(T);
    StringRef Text = T;
    StringRef First = Text.split('\n').first;
    size_t At = First.rfind(" at ");
    if (At != StringRef::npos)
      H.detail().Where = findUserLocation(First.substr(At + 4));
    if (!H.detail().Where)
      H.detail().Where = findUserLocation(Text);
    size_t R0 = Text.find("Graph Break Reason:");
    StringRef Reason = R0 == StringRef::npos
                           ? Text
                           : Text.substr(R0 + strlen("Graph Break Reason:"));
    size_t Tb = Reason.find("User code traceback:");
    if (Tb != StringRef::npos) {
      // The user code traceback ends where Dynamo's own begins.
      StringRef User = Reason.substr(Tb + strlen("User code traceback:"));
      size_t Own = User.find("Traceback (most recent call last):");
      User = User.take_front(Own);
      H.detail().UserFrame = innermostUserFrame(
          parseStackTrace(User), torchRootOf(parseStackTrace(Text)));
      H.detail().Traceback = User.trim("\r\n").rtrim().str();
      Reason = Reason.substr(0, Tb);
    }
    H.detail().Text = Reason.trim().str();
    break;
  }
  case HealthKind::Cache: {
    if (!V.isObject()) {
      Bad("payload is not a JSON object");
      return;
    }
    CacheLookup &C = H.detail().Cache;
    C.Line = Cur.Line;
    C.Subgraph = Cur.Subgraph;
    C.Cache = Cur.Flags & FXGraphCache ? CacheLookup::FXGraph
                                       : CacheLookup::AOTAutograd;
    bool Known = true;
    if (Cur.Flags & CacheHit)
      C.Result = CacheLookup::Hit;
    else if (Cur.Flags & CacheMiss)
      C.Result = CacheLookup::Miss;
    else if (Cur.Flags & CacheBypass)
      C.Result = CacheLookup::Bypass;
    else
      Known = false; // *_cache_hash: the result is in "cache_state"
    std::string Detail, State;
    json::forEachMember(V, [&](StringRef K, const json::Value &X) {
      double D;
      if (K == "key" && X.isString())
        C.Key = Str(X);
      else if (K == "components" && X.isArray()) {
        // The merge renumbers the list and keeps it once (ModuleInterner).
        std::vector<uint32_t> &Ids = H.detail().Components;
        json::forEachElement(X, [&](const json::Value &E) {
          if (!E.isString())
            return true;
          Ids.push_back(R.internComponent(E));
          return true;
        });
      }
      else if ((K == "cache_bypass_reason" || K == "reason") && X.isString())
        C.Reason = Str(X);
      else if (K == "cache_status_detailed" && X.isString())
        Detail = Str(X);
      else if (K == "cache_state" && X.isString())
        State = Str(X);
      else if (K == "time_saved_ms" && json::getDouble(X, D) &&
               std::isfinite(D))
        C.TimeSavedMs = D;
      return true;
    });
    if (!Known) {
      CacheLookup::ResultKind RK;
      if (!parseCacheResult(State, RK)) {
        // A key computation without a result: not read.
        notRead();
        return;
      }
      C.Result = RK;
    }
    if (C.Reason.empty() && !Detail.empty() &&
        Detail != cacheResultName(C.Result))
      C.Reason = Detail;
    break;
  }
  }
  // A failure names its compile by the envelope's id keys; with them
  // damaged it cannot be put on any compile (the events outside every
  // compile have no status, so no failure either).
  if (!Cur.Id && (H.Kind == HealthKind::DynamoError ||
                (H.Detail && !H.Detail->FailType.empty()))) {
    std::string Type = H.Detail && !H.Detail->FailType.empty()
                           ? H.Detail->FailType
                           : std::string("dynamo_error");
    diag(Severity::Warning, Cur.Line,
         "'" + Cur.ArtName + "': a failure (" + Type +
             ") with no compile id; not put on any compile",
         StringRef(), DiagClass::Other);
    if (H.Kind == HealthKind::DynamoError)
      return;
    H.Detail->FailType.clear();
    H.Detail->FailReason.clear();
    H.Detail->Where.reset();
  }
  R.Health.push_back(std::move(H), Cur.Rank, Cur.Id);
}

} // namespace reader
} // namespace tlp
