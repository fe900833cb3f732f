//===- TraceReader.cpp - Reading TORCH_TRACE logs into the IR -------------===//
//
// Line grammar (FORMAT.md section 1):
//   event   ::= [ "[rankN]:" ] LEVEL MMDD " " hh:mm:ss.uuuuuu " " PID " "
//               PATH ":" LINE "] " JSON
//   payload ::= ( "\t" TEXT "\n" )*        only after an envelope with
//                                          "has_payload"; the payload is the
//                                          lines joined with "\n"
// Truly empty lines inside a payload are accepted as empty payload lines
// (some tools strip the lone tabs); at the end of a payload the md5 decides.
//
//===----------------------------------------------------------------------===//

#include "tlp/Parse/TraceReader.h"
#include "tlp/IR/IRYAML.h"
#include "tlp/Parse/JSONScan.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <cstring>
#include <map>

using namespace llvm;

namespace tlp {

bool splitEventLine(StringRef L, StringRef &Json) {
  if (L.startswith("[rank")) {
    size_t P = L.find("]:");
    if (P == StringRef::npos)
      return false;
    L = L.substr(P + 2);
  }
  if (L.size() < 16 || !std::strchr("VIWEC", L[0]) || L[0] == '\0')
    return false;
  size_t I = 1;
  auto IsDigit = [&](size_t K) {
    return K < L.size() && L[K] >= '0' && L[K] <= '9';
  };
  for (unsigned K = 0; K < 4; ++K, ++I)
    if (!IsDigit(I))
      return false;
  if (I >= L.size() || L[I] != ' ')
    return false;
  ++I;
  size_t T = I;
  while (I < L.size() && (IsDigit(I) || L[I] == ':' || L[I] == '.'))
    ++I;
  if (I == T || I >= L.size() || L[I] != ' ')
    return false;
  ++I;
  size_t Pid = I;
  while (IsDigit(I))
    ++I;
  if (I == Pid || I >= L.size() || L[I] != ' ')
    return false;
  ++I;
  // The path may contain ':' and ']'; the envelope starts after the first
  // ":<digits>] {".
  size_t From = I;
  while (true) {
    size_t B = L.find("] {", From);
    if (B == StringRef::npos)
      return false;
    size_t D = B;
    while (D > I && IsDigit(D - 1))
      --D;
    if (D < B && D > I && L[D - 1] == ':') {
      Json = L.substr(B + 2);
      return true;
    }
    From = B + 1;
  }
}

bool looksLikeTrace(StringRef Text) {
  Text = Text.take_front(1 << 16);
  while (!Text.empty()) {
    StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    Line = Line.rtrim("\r");
    if (trimWS(Line).empty())
      continue;
    StringRef Json;
    return splitEventLine(Line, Json);
  }
  return false;
}

Optional<int64_t> rankFromFileName(StringRef Path) {
  StringRef Name = sys::path::filename(Path);
  static const char Marker[] = "dedicated_log_torch_trace_rank_";
  size_t P = Name.find(Marker);
  if (P == StringRef::npos)
    return None;
  StringRef Digits = Name.substr(P + sizeof(Marker) - 1).take_while([](char C) {
    return C >= '0' && C <= '9';
  });
  uint64_t R;
  if (!parseUnsigned(Digits, R) || R > INT32_MAX)
    return None;
  return static_cast<int64_t>(R);
}

namespace {

enum class EventClass {
  Unknown,
  Ignored,
  Str,
  DynamoStart,
  AotForward,
  AotBackward,
  AotInference,
  Artifact
};

/// Envelope keys tlp knows and does not use (FORMAT.md 3, TLPARSE.md 2.2).
const char *const IgnoredKinds[] = {
    "chromium_event",
    "describe_storage",
    "describe_tensor",
    "describe_source",
    "dynamo_output_graph",
    "dynamo_guards",
    "dynamo_cpp_guards_str",
    "compilation_metrics",
    "compilation_metrics_runtime",
    "bwd_compilation_metrics",
    "aot_autograd_backward_compilation_metrics",
    "aot_joint_graph",
    "optimize_ddp_split_graph",
    "optimize_ddp_split_child",
    "compiled_autograd_graph",
    "link",
    "symbolic_shape_specialization",
    "propagate_real_tensors_provenance",
    "guard_added",
    "guard_added_fast",
    "create_unbacked_symbol",
    "expression_created",
    "missing_fake_kernel",
    "mismatched_fake_kernel",
    "dump_file",
    "exported_program",
    "artifact",
    "graph_dump",
    "dynamo_error",
};

struct ArtifactName {
  const char *Name;
  Artifact::ArtifactKind Kind;
};

/// Form B (`{"artifact": {"name": ...}}`) names tlp lowers.
const ArtifactName ArtifactNames[] = {
    {"before_pre_grad_graph", Artifact::AK_PreGradGraph},
    {"inductor_pre_grad_graph", Artifact::AK_PreGradGraph},
    {"before_recompile_pre_grad", Artifact::AK_PreGradGraph},
    {"after_post_grad_graph", Artifact::AK_PostGradGraph},
    {"inductor_post_grad_graph", Artifact::AK_PostGradGraph},
    {"after_recompile_post_grad", Artifact::AK_PostGradGraph},
    {"inductor_provenance_tracking_node_mappings", Artifact::AK_NodeMappings},
    {"inductor_provenance_tracking_kernel_stack_traces",
     Artifact::AK_KernelStackTraces},
    {"triton_kernel_info", Artifact::AK_TritonKernelInfo},
    {"inductor_post_to_pre_grad_nodes", Artifact::AK_PostToPreGradNodes},
    {"inductor_triton_kernel_to_post_grad_nodes",
     Artifact::AK_KernelToPostGradNodes},
    {"inductor_generated_kernel_to_post_grad_nodes",
     Artifact::AK_KernelToPostGradNodes},
};

struct KindTables {
  StringMap<EventClass> Events;
  StringMap<Artifact::ArtifactKind> Artifacts;
  KindTables() {
    for (const char *K : IgnoredKinds)
      Events[K] = EventClass::Ignored;
    Events["str"] = EventClass::Str;
    Events["dynamo_start"] = EventClass::DynamoStart;
    Events["aot_forward_graph"] = EventClass::AotForward;
    Events["aot_backward_graph"] = EventClass::AotBackward;
    Events["aot_inference_graph"] = EventClass::AotInference;
    for (const ArtifactName &A : ArtifactNames)
      Artifacts[A.Name] = A.Kind;
  }
};

const KindTables &tables() {
  static const KindTables T;
  return T;
}

/// An artifact whose payload has been collected but not parsed.
struct PendingArtifact {
  Artifact::ArtifactKind Kind;
  std::string Name;
  uint32_t Line = 0;
  Optional<int64_t> Rank;
  Optional<CompileId> Id;
  std::string Text;
};

class LogReader {
public:
  LogReader(StringRef Buf, StringRef Name, uint32_t LogIndex,
            Optional<int64_t> FileRank, Module &M, DiagnosticEngine &Diags,
            const ReadOptions &Opts)
      : Buf(Buf), Name(Name.str()), LogIndex(LogIndex), FileRank(FileRank),
        M(M), Diags(Diags), Opts(Opts) {}

  void run();

private:
  StringRef Buf;
  std::string Name;
  uint32_t LogIndex;
  Optional<int64_t> FileRank;
  Module &M;
  DiagnosticEngine &Diags;
  const ReadOptions &Opts;

  struct Event {
    bool Active = false;
    bool Skip = false;
    uint32_t Line = 0;
    EventClass Class = EventClass::Ignored;
    Artifact::ArtifactKind AK = Artifact::AK_PreGradGraph;
    std::string Kind;
    std::string ArtName;
    Optional<int64_t> Rank;
    Optional<CompileId> Id;
    bool HasPayload = false;
    StringRef Md5;
    MD5 Hash;
    unsigned PayloadLines = 0;
    unsigned PendingBlanks = 0;
    bool Collect = false;
    std::vector<StringRef> Lines;
    json::Value Meta;
    json::Value Stack;
    bool ExtraReported = false;
  };
  Event Cur;

  std::vector<PendingArtifact> Pending;
  std::vector<std::string> Strings;
  std::map<std::string, uint64_t> Unknown;
  uint64_t Lines = 0, CRLines = 0;
  unsigned LineReports = 0, LineSuppressed = 0;
  unsigned Md5Reports = 0, Md5Suppressed = 0;
  bool InOrphanRun = false;
  bool RankConflictReported = false;

  void lineProblem(uint32_t Line, const Twine &Msg, StringRef Text) {
    ++M.Stats.MalformedLines;
    if (LineReports >= Opts.MaxLineReports) {
      ++LineSuppressed;
      return;
    }
    ++LineReports;
    Diags.report(Severity::Warning, Name, Line, Msg, excerpt(Text));
  }

  void payloadLine(StringRef Content, uint32_t Line, StringRef Raw) {
    if (!Cur.Active) {
      if (!InOrphanRun)
        lineProblem(Line, "payload line without an event before it", Raw);
      InOrphanRun = true;
      return;
    }
    if (Cur.Skip)
      return;
    if (!Cur.HasPayload) {
      if (!Cur.ExtraReported)
        lineProblem(Line, "payload line after an event without 'has_payload'",
                    Raw);
      Cur.ExtraReported = true;
      return;
    }
    flushBlanks();
    addPayloadLine(Content);
  }

  void addPayloadLine(StringRef Content) {
    if (Cur.PayloadLines)
      Cur.Hash.update("\n");
    Cur.Hash.update(Content);
    ++Cur.PayloadLines;
    if (Cur.Collect)
      Cur.Lines.push_back(Content);
  }

  void flushBlanks() {
    for (; Cur.PendingBlanks; --Cur.PendingBlanks)
      addPayloadLine(StringRef());
  }

  void blankLine() {
    if (Cur.Active && !Cur.Skip && Cur.HasPayload)
      ++Cur.PendingBlanks;
  }

  static std::string hexOf(MD5 &H) {
    MD5::MD5Result R;
    H.final(R);
    return R.digest().str().str();
  }

  void startEvent(StringRef L, uint32_t LineNo);
  void finishEvent();
  void finishArtifact();
  void materialize(PendingArtifact &P, DiagnosticEngine &Local,
                   std::unique_ptr<Artifact> &Out);
};

void LogReader::run() {
  const char *P = Buf.begin(), *E = Buf.end();
  uint32_t LineNo = 0;
  while (P < E) {
    const char *NL = static_cast<const char *>(std::memchr(P, '\n', E - P));
    const char *LE = NL ? NL : E;
    StringRef L(P, LE - P);
    P = NL ? NL + 1 : E;
    ++LineNo;
    if (!L.empty() && L.back() == '\r') {
      L = L.drop_back();
      ++CRLines;
    }
    if (!L.empty() && L[0] == '\t') {
      payloadLine(L.drop_front(), LineNo, L);
      continue;
    }
    if (trimWS(L).empty()) {
      blankLine();
      continue;
    }
    InOrphanRun = false;
    finishEvent();
    startEvent(L, LineNo);
  }
  finishEvent();
  Lines = LineNo;
  M.Stats.Lines += Lines;

  if (CRLines)
    Diags.note(Name, 0,
               Twine(CRLines) + " lines end in CR LF; the CR was dropped");
  if (LineSuppressed)
    Diags.warning(Name, 0,
                  Twine(LineSuppressed) + " more malformed lines not shown");
  if (Md5Suppressed)
    Diags.warning(Name, 0,
                  Twine(Md5Suppressed) + " more md5 mismatches not shown");
  for (auto &KV : Unknown) {
    auto It = llvm::find_if(M.Stats.UnknownKinds,
                            [&](const std::pair<std::string, uint64_t> &P) {
                              return P.first == KV.first;
                            });
    if (It == M.Stats.UnknownKinds.end())
      M.Stats.UnknownKinds.emplace_back(KV.first, KV.second);
    else
      It->second += KV.second;
  }
  llvm::sort(M.Stats.UnknownKinds);
  if (!Unknown.empty()) {
    std::string List;
    uint64_t Total = 0;
    for (auto &KV : Unknown) {
      if (!List.empty())
        List += ", ";
      List += KV.first + " (" + std::to_string(KV.second) + ")";
      Total += KV.second;
    }
    Diags.note(Name, 0,
               Twine(Total) + " events of kinds tlp does not know: " + List);
  }

  // Parse the payloads, in parallel; results and diagnostics keep log order.
  std::vector<std::unique_ptr<Artifact>> Out(Pending.size());
  std::vector<std::unique_ptr<DiagnosticEngine>> Local(Pending.size());
  for (auto &L : Local)
    L = std::make_unique<DiagnosticEngine>();
  auto Work = [&](size_t I) { materialize(Pending[I], *Local[I], Out[I]); };
  unsigned Threads = Opts.Threads
                         ? Opts.Threads
                         : llvm::hardware_concurrency().compute_thread_count();
  if (Threads <= 1 || Pending.size() < 2) {
    for (size_t I = 0; I < Pending.size(); ++I)
      Work(I);
  } else {
    ThreadPool Pool(llvm::hardware_concurrency(Threads));
    for (size_t I = 0; I < Pending.size(); ++I)
      Pool.async(Work, I);
    Pool.wait();
  }
  for (size_t I = 0; I < Pending.size(); ++I) {
    Diags.append(*Local[I]);
    if (Out[I])
      M.Artifacts.push_back(std::move(Out[I]));
  }
}

void LogReader::startEvent(StringRef L, uint32_t LineNo) {
  Cur = Event();
  Cur.Active = true;
  Cur.Line = LineNo;
  StringRef Json;
  if (!splitEventLine(L, Json)) {
    lineProblem(LineNo, "expected a trace event line", L);
    Cur.Skip = true;
    return;
  }
  json::Value V;
  json::ParseError Err;
  if (!json::parse(Json, V, Err) || !V.isObject()) {
    size_t Col = static_cast<size_t>(Json.begin() - L.begin()) + Err.Offset + 1;
    lineProblem(LineNo,
                V.isObject() || !Err.Message.empty()
                    ? "invalid JSON in event envelope: " + Err.Message +
                          " at column " + Twine(Col)
                    : Twine("event envelope is not a JSON object"),
                L);
    Cur.Skip = true;
    return;
  }
  bool First = true;
  Optional<int64_t> Frame, FrameCompile, Attempt, CA, Rank;
  json::forEachMemberRaw(V, [&](StringRef Key, const json::Value &X) {
    if (First) {
      Cur.Kind = Key.contains('\\') ? json::decodeRawString(Key) : Key.str();
      Cur.Meta = X;
      First = false;
      return true;
    }
    int64_t I;
    auto Int = [&](Optional<int64_t> &Slot) {
      if (json::getInt(X, I))
        Slot = I;
    };
    if (Key == "frame_id")
      Int(Frame);
    else if (Key == "frame_compile_id")
      Int(FrameCompile);
    else if (Key == "attempt")
      Int(Attempt);
    else if (Key == "compiled_autograd_id")
      Int(CA);
    else if (Key == "rank")
      Int(Rank);
    else if (Key == "has_payload") {
      Cur.HasPayload = true;
      if (X.isString())
        Cur.Md5 = X.Text.substr(1, X.Text.size() - 2);
    } else if (Key == "stack")
      Cur.Stack = X;
    return true;
  });
  if (First) {
    lineProblem(LineNo, "event envelope has no event key", L);
    Cur.Skip = true;
    return;
  }
  ++M.Stats.Events;
  if (Frame || CA) {
    CompileId Id;
    Id.FrameId = Frame;
    Id.FrameCompileId = FrameCompile;
    Id.CompiledAutogradId = CA;
    Id.Attempt = Attempt.getValueOr(0);
    if (Frame && !FrameCompile)
      Id.FrameCompileId = 0;
    Cur.Id = Id;
  }
  Cur.Rank = Rank ? Rank : FileRank;
  if (Rank) {
    LogFile &LF = M.Logs[LogIndex];
    if (!LF.Rank)
      LF.Rank = Rank;
    else if (*LF.Rank != *Rank && !RankConflictReported) {
      Diags.warning(Name, LineNo,
                    "event rank " + Twine(*Rank) +
                        " differs from the log's rank " + Twine(*LF.Rank));
      RankConflictReported = true;
    }
  }

  const KindTables &T = tables();
  auto It = T.Events.find(Cur.Kind);
  Cur.Class = It == T.Events.end() ? EventClass::Unknown : It->second;
  if (Cur.Kind == "artifact" || Cur.Kind == "graph_dump") {
    std::string ArtName;
    if (Cur.Meta.isObject())
      json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
        if (K == "name" && X.isString())
          ArtName = json::decodeString(X);
        return true;
      });
    if (Cur.Kind == "artifact") {
      auto A = T.Artifacts.find(ArtName);
      if (A != T.Artifacts.end()) {
        Cur.Class = EventClass::Artifact;
        Cur.AK = A->second;
      }
    } else if (ArtName == "inductor_aot_wrapper_code" ||
               ArtName == "inductor_aot_code") {
      Cur.Class = EventClass::Artifact;
      Cur.AK = Artifact::AK_AOTWrapperCode;
    } else if (ArtName == "inductor_aot_kernel_code") {
      Cur.Class = EventClass::Artifact;
      Cur.AK = Artifact::AK_AOTKernelCode;
    }
    Cur.ArtName = ArtName;
  } else if (Cur.Kind == "inductor_pre_grad_graph") {
    Cur.Class = EventClass::Artifact;
    Cur.AK = Artifact::AK_PreGradGraph;
  } else if (Cur.Kind == "inductor_post_grad_graph") {
    Cur.Class = EventClass::Artifact;
    Cur.AK = Artifact::AK_PostGradGraph;
  } else if (Cur.Kind == "inductor_output_code") {
    Cur.Class = EventClass::Artifact;
    Cur.AK = Artifact::AK_OutputCode;
  }
  if (Cur.ArtName.empty())
    Cur.ArtName = Cur.Kind;
  Cur.Collect = Cur.Class == EventClass::Artifact;
}

void LogReader::finishEvent() {
  if (!Cur.Active)
    return;
  Cur.Active = false;
  if (Cur.Skip)
    return;
  if (Cur.HasPayload && Cur.PayloadLines == 0 && Cur.PendingBlanks == 0 &&
      Cur.Md5 != "d41d8cd98f00b204e9800998ecf8427e") {
    // Not even the lone tab of an empty payload: the payload is missing.
    lineProblem(Cur.Line,
                "'" + Cur.ArtName +
                    "' announces a payload but no payload lines follow; "
                    "event ignored",
                StringRef());
    return;
  }
  if (Cur.HasPayload) {
    ++M.Stats.Payloads;
    bool Checked = Opts.VerifyMd5 && Cur.Md5.size() == 32;
    if (Cur.PendingBlanks) {
      // Trailing blank lines belong to the payload only if the md5 says so.
      MD5 With = Cur.Hash;
      for (unsigned I = 0; I < Cur.PendingBlanks; ++I)
        With.update(I == 0 && Cur.PayloadLines == 0 ? "" : "\n");
      MD5 Without = Cur.Hash;
      if (Checked && hexOf(With) == Cur.Md5.lower() &&
          hexOf(Without) != Cur.Md5.lower())
        flushBlanks();
      Cur.PendingBlanks = 0;
    }
    if (Opts.VerifyMd5) {
      if (Cur.Md5.size() != 32) {
        Diags.warning(Name, Cur.Line,
                      "'has_payload' of '" + Cur.ArtName +
                          "' is not an md5 digest");
      } else {
        std::string Got = hexOf(Cur.Hash);
        if (Got != Cur.Md5.lower()) {
          ++M.Stats.Md5Mismatches;
          if (Md5Reports < Opts.MaxLineReports) {
            ++Md5Reports;
            Diags.warning(Name, Cur.Line,
                          "payload md5 mismatch for '" + Cur.ArtName + "' (" +
                              Twine(Cur.PayloadLines) + " lines): expected " +
                              Cur.Md5 + ", got " + Got +
                              "; using the payload as is");
          } else {
            ++Md5Suppressed;
          }
        }
      }
    }
  }

  switch (Cur.Class) {
  case EventClass::Unknown:
    ++Unknown[Cur.Kind];
    return;
  case EventClass::Ignored:
    return;
  case EventClass::Str: {
    std::string S;
    int64_t Index = -1;
    unsigned K = 0;
    json::forEachElement(Cur.Meta, [&](const json::Value &X) {
      if (K == 0 && X.isString())
        S = json::decodeString(X);
      else if (K == 1)
        json::getInt(X, Index);
      ++K;
      return true;
    });
    if (Index < 0 || Index > (1 << 24)) {
      Diags.warning(Name, Cur.Line, "malformed 'str' intern table entry");
      return;
    }
    if (static_cast<size_t>(Index) >= Strings.size())
      Strings.resize(Index + 1);
    Strings[Index] = std::move(S);
    return;
  }
  case EventClass::DynamoStart:
  case EventClass::AotForward:
  case EventClass::AotBackward:
  case EventClass::AotInference: {
    CompileEvent E;
    E.Kind = Cur.Class == EventClass::DynamoStart  ? CompileEvent::DynamoStart
             : Cur.Class == EventClass::AotForward ? CompileEvent::AotForward
             : Cur.Class == EventClass::AotBackward
                 ? CompileEvent::AotBackward
                 : CompileEvent::AotInference;
    E.Log = LogIndex;
    E.Line = Cur.Line;
    E.Rank = Cur.Rank;
    E.Id = Cur.Id;
    json::Value Stack;
    if (Cur.Class == EventClass::DynamoStart && Cur.Meta.isObject())
      json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
        if (K == "stack")
          Stack = X;
        return true;
      });
    if (Stack.isArray()) {
      json::Value Last;
      json::forEachElement(Stack, [&](const json::Value &X) {
        Last = X;
        return true;
      });
      if (Last.isObject()) {
        SourceLoc F;
        json::forEachMember(Last, [&](StringRef K, const json::Value &X) {
          int64_t I;
          if (K == "line" && json::getInt(X, I) && I > 0 && I < INT32_MAX)
            F.Line = static_cast<uint32_t>(I);
          else if (K == "name" && X.isString())
            F.Function = json::decodeString(X);
          else if (K == "loc" && X.isString())
            F.Code = json::decodeString(X);
          else if (K == "filename") {
            if (X.isString())
              F.File = json::decodeString(X);
            else if (json::getInt(X, I) && I >= 0 &&
                     static_cast<size_t>(I) < Strings.size())
              F.File = Strings[I];
          }
          return true;
        });
        sanitizeUTF8(F.File);
        sanitizeUTF8(F.Function);
        sanitizeUTF8(F.Code);
        if (F.Line)
          E.Frame = F;
      }
    }
    M.Events.push_back(std::move(E));
    return;
  }
  case EventClass::Artifact:
    finishArtifact();
    return;
  }
}

void LogReader::finishArtifact() {
  if (!Cur.HasPayload) {
    Diags.warning(Name, Cur.Line,
                  "'" + Cur.ArtName + "' has no payload; ignored");
    return;
  }
  PendingArtifact P;
  P.Kind = Cur.AK;
  P.Name = Cur.ArtName;
  P.Line = Cur.Line;
  P.Rank = Cur.Rank;
  P.Id = Cur.Id;
  size_t Size = Cur.Lines.size();
  for (StringRef L : Cur.Lines)
    Size += L.size();
  P.Text.reserve(Size);
  for (size_t I = 0; I < Cur.Lines.size(); ++I) {
    if (I)
      P.Text += '\n';
    P.Text += Cur.Lines[I];
  }
  Cur.Lines.clear();
  Pending.push_back(std::move(P));
}

void LogReader::materialize(PendingArtifact &P, DiagnosticEngine &Local,
                            std::unique_ptr<Artifact> &Out) {
  if (sanitizeUTF8(P.Text))
    Local.warning(Name, P.Line,
                  "payload of '" + P.Name +
                      "' is not valid UTF-8; invalid bytes were replaced");
  PayloadContext Ctx(Local, Name, P.Line, P.Name);
  std::unique_ptr<Artifact> A;
  switch (P.Kind) {
  case Artifact::AK_PreGradGraph:
  case Artifact::AK_PostGradGraph: {
    auto G = std::make_unique<GraphArtifact>(P.Kind);
    G->Text = std::move(P.Text);
    parseFXGraph(*G, Ctx);
    A = std::move(G);
    break;
  }
  case Artifact::AK_OutputCode:
  case Artifact::AK_AOTWrapperCode:
  case Artifact::AK_AOTKernelCode: {
    auto C = std::make_unique<CodeArtifact>(P.Kind);
    C->Text = std::move(P.Text);
    if (P.Kind == Artifact::AK_OutputCode)
      parsePythonWrapper(*C, Ctx);
    else
      parseCppCode(*C, Ctx);
    A = std::move(C);
    break;
  }
  case Artifact::AK_NodeMappings: {
    auto Map = std::make_unique<MappingArtifact>();
    if (parseNodeMappings(P.Text, *Map, Ctx))
      A = std::move(Map);
    break;
  }
  case Artifact::AK_KernelStackTraces: {
    auto S = std::make_unique<StackTraceArtifact>();
    if (parseKernelStackTraces(P.Text, *S, Ctx))
      A = std::move(S);
    break;
  }
  case Artifact::AK_TritonKernelInfo: {
    auto K = std::make_unique<KernelInfoArtifact>();
    if (parseKernelInfo(P.Text, *K, Ctx))
      A = std::move(K);
    break;
  }
  case Artifact::AK_PostToPreGradNodes: {
    auto T = std::make_unique<NodeTreeArtifact>();
    if (parseNodeTree(P.Text, *T, Ctx))
      A = std::move(T);
    break;
  }
  case Artifact::AK_KernelToPostGradNodes: {
    auto K = std::make_unique<KernelNodesArtifact>();
    if (parseKernelNodes(P.Text, *K, Ctx))
      A = std::move(K);
    break;
  }
  }
  Ctx.finish();
  P.Text.clear();
  P.Text.shrink_to_fit();
  if (!A)
    return;
  A->Name = P.Name;
  A->Log = LogIndex;
  A->Line = P.Line;
  A->Rank = P.Rank;
  A->Id = P.Id;
  Out = std::move(A);
}

} // namespace

void readTraceBuffer(StringRef Buffer, StringRef Name,
                     Optional<int64_t> FileRank, Module &M,
                     DiagnosticEngine &Diags, const ReadOptions &Opts) {
  uint32_t Index = static_cast<uint32_t>(M.Logs.size());
  M.Logs.push_back(LogFile{Name.str(), FileRank});
  LogReader(Buffer, Name, Index, FileRank, M, Diags, Opts).run();
}

static Error readOneFile(StringRef Path, StringRef Display, Module &M,
                         DiagnosticEngine &Diags, const ReadOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = openInputFile(Path);
  if (!Buf)
    return Buf.takeError();
  readTraceBuffer((*Buf)->getBuffer(), Display, rankFromFileName(Path), M,
                  Diags, Opts);
  return Error::success();
}

Error readTrace(StringRef Path, Module &M, DiagnosticEngine &Diags,
                const ReadOptions &Opts) {
  if (Path == "-" || !sys::fs::is_directory(Path))
    return readOneFile(Path, displayName(Path), M, Diags, Opts);

  std::error_code EC;
  std::vector<std::string> Files;
  for (sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef FileName = sys::path::filename(It->path());
    if (FileName.startswith("."))
      continue;
    if (sys::fs::is_regular_file(It->path()))
      Files.push_back(It->path());
  }
  if (EC)
    return createStringError(EC, "cannot read directory '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  llvm::sort(Files);
  unsigned Read = 0;
  for (const std::string &F : Files) {
    StringRef FileName = sys::path::filename(F);
    Expected<std::unique_ptr<MemoryBuffer>> Buf = openInputFile(F);
    if (!Buf) {
      Diags.warning(F, 0, toString(Buf.takeError()));
      continue;
    }
    if (!FileName.startswith("dedicated_log_torch_trace") &&
        !looksLikeTrace((*Buf)->getBuffer())) {
      Diags.note(F, 0, "skipped: not a TORCH_TRACE log");
      continue;
    }
    readTraceBuffer((*Buf)->getBuffer(), F, rankFromFileName(F), M, Diags,
                    Opts);
    ++Read;
  }
  if (!Read)
    return createStringError(std::errc::no_such_file_or_directory,
                             "no TORCH_TRACE logs in directory '%s'",
                             Path.str().c_str());
  return Error::success();
}

Expected<std::unique_ptr<Module>> loadInput(StringRef Path,
                                            DiagnosticEngine &Diags, bool &IsIR,
                                            const ReadOptions &Opts) {
  IsIR = false;
  auto M = std::make_unique<Module>();
  if (Path != "-" && sys::fs::is_directory(Path)) {
    if (Error E = readTrace(Path, *M, Diags, Opts))
      return E;
    return M;
  }
  Expected<std::unique_ptr<MemoryBuffer>> Buf = openInputFile(Path);
  if (!Buf)
    return Buf.takeError();
  StringRef Text = (*Buf)->getBuffer();
  if (looksLikeIR(Text)) {
    IsIR = true;
    std::string Name = displayName(Path);
    MemoryBufferRef Ref(Text, Name);
    return parseModule(Ref, Diags);
  }
  readTraceBuffer(Text, displayName(Path), rankFromFileName(Path), *M, Diags,
                  Opts);
  if (trimWS(Text).empty())
    Diags.warning(displayName(Path), 0, "input is empty");
  else if (M->Stats.Events == 0)
    Diags.warning(displayName(Path), 0,
                  "no trace events found; is this a TORCH_TRACE log?");
  return M;
}

} // namespace tlp
