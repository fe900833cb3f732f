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
#include "ReaderInternals.h"
#include "tlp/IR/IRYAML.h"
#include "tlp/IR/SourceInfo.h"
#include "tlp/Parse/JSONScan.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Parallel.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <deque>
#include <cmath>
#include <cstring>
#include <map>

using namespace llvm;

namespace tlp {

using namespace reader;

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

namespace reader {

/// A stack frame `{"line", "name", "filename", "loc"}`; \p FileIndex gets
/// an interned file name's index (-1 if the name is inline or absent).
static Optional<SourceLoc> parseFrame(const json::Value &X, int64_t &FileIndex) {
  if (!X.isObject())
    return None;
  SourceLoc F;
  FileIndex = -1;
  json::forEachMember(X, [&](StringRef K, const json::Value &V) {
    int64_t I;
    if (K == "line" && json::getInt(V, I) && I > 0 && I < INT32_MAX)
      F.Line = static_cast<uint32_t>(I);
    else if (K == "name" && V.isString())
      F.Function = json::decodeString(V);
    else if (K == "loc" && V.isString())
      F.Code = json::decodeString(V);
    else if (K == "filename") {
      if (V.isString())
        F.File = json::decodeString(V);
      else if (json::getInt(V, I) && I >= 0)
        FileIndex = I;
      else
        FileIndex = BadFileIndex;
    }
    return true;
  });
  sanitizeUTF8(F.File);
  sanitizeUTF8(F.Function);
  sanitizeUTF8(F.Code);
  if (!F.Line)
    return None;
  return F;
}

void ChunkScanner::run() {
  const char *Base = Log.data();
  const char *P = Base + Begin, *E = Base + End;
  uint32_t LineNo = 0;
  uint64_t Released = Begin;
  constexpr uint64_t ReleaseStep = 8u << 20;
  while (P < E) {
    const char *NL = static_cast<const char *>(std::memchr(P, '\n', E - P));
    const char *LE = NL ? NL : E;
    uint64_t LineBegin = P - Base, LineEnd = LE - Base;
    StringRef L(P, LE - P);
    P = NL ? NL + 1 : E;
    ++LineNo;
    if (!L.empty() && L.back() == '\r') {
      L = L.drop_back();
      ++R.CRLines;
    }
    if (!L.empty() && L[0] == '\t') {
      payloadLine(L.drop_front(), LineNo, L, LineBegin, LineEnd);
    } else if (trimWS(L).empty()) {
      if (Cur.Active && !Cur.Skip && Cur.HasPayload) {
        if (!Cur.PayloadLines && !Cur.PendingBlanks)
          Cur.PayloadBegin = LineBegin;
        ++Cur.PendingBlanks;
        Cur.BlankEnd = LineEnd;
      }
    } else {
      InOrphanRun = false;
      finishEvent();
      AtLogEnd = !NL && End == Log.size();
      startEvent(L, LineNo);
      AtLogEnd = false;
    }
    // Drop what we are done with from memory (mapped files only). Pointers
    // into released pages stay valid: the pages come back from the page
    // cache if the current event still reads them.
    uint64_t Done = static_cast<uint64_t>(P - Base);
    if (Done - Released >= ReleaseStep) {
      Sources.release(LogIndex, Released, Done - Released);
      Released = Done;
    }
  }
  AtLogEnd = End == Log.size();
  finishEvent();
  AtLogEnd = false;
  R.Lines = LineNo;
  if (End > Released)
    Sources.release(LogIndex, Released, End - Released);
}

void ChunkScanner::payloadLine(StringRef Content, uint32_t Line, StringRef Raw,
                               uint64_t LineBegin, uint64_t LineEnd) {
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
  if (!Cur.PayloadLines && !Cur.PendingBlanks)
    Cur.PayloadBegin = LineBegin;
  checkJsonPayloadLine(Content, Line, Raw);
  if (!Cur.Hashing)
    checkFxPayloadLine(Content, Line, Raw);
  flushBlanks();
  addPayloadLine(Content);
  Cur.PayloadEnd = LineEnd;
}

/// A lost event line glues the next event's payload onto this one's. When
/// this payload is not one tlp parses (a chromium event, say), nothing else
/// would notice: the next artifact (a provenance mapping, say) would vanish
/// without a word. A JSON object payload cannot go on after it closed, so a
/// line after that is reported. Python's `json.dumps(..., indent=N)` puts
/// every `{` that opens an object at the end of a line and every `}` that
/// closes one at the start of a line (after the indent), and `indent=0`
/// (inductor_runtime_and_tensor_meta) indents nothing, so nesting is
/// counted by those two, not told by the indent. No parsing.
void ChunkScanner::checkJsonPayloadLine(StringRef Content, uint32_t Line,
                                        StringRef Raw) {
  switch (Cur.Json) {
  case Event::JsonNo:
    if (Cur.PayloadLines == 0 && Content.startswith("{")) {
      bool OneLine = Content.size() > 1 && Content.endswith("}");
      Cur.Json = OneLine ? Event::JsonClosed : Event::JsonOpen;
      Cur.JsonDepth = OneLine ? 0 : 1;
      Cur.JsonEndLine = Line;
    }
    return;
  case Event::JsonOpen: {
    StringRef T = Content.ltrim(" \t");
    if (T.startswith("}") && !--Cur.JsonDepth) {
      Cur.Json = Event::JsonClosed;
      Cur.JsonEndLine = Line;
      return;
    }
    if (T.endswith("{"))
      ++Cur.JsonDepth;
    return;
  }
  case Event::JsonClosed:
    lineProblem(Line,
                "the JSON payload of '" + Cur.ArtName + "' ended on line " +
                    Twine(Cur.JsonEndLine) +
                    " but payload lines go on: is an event line missing "
                    "before this one? (they are read as part of '" +
                    Cur.ArtName + "')",
                Raw);
    Cur.Json = Event::JsonReported;
    return;
  case Event::JsonReported:
    return;
  }
}

/// The md5 says when a hashed payload got another one's lines; an unhashed
/// one (an aot_*_graph or dynamo_output_graph event, say) that is a printed
/// FX graph module says it by a line at column 0: a lost event line glued
/// the next artifact (a post-grad graph) onto it. One comparison a line.
void ChunkScanner::checkFxPayloadLine(StringRef Content, uint32_t Line,
                                      StringRef Raw) {
  if (Cur.PayloadLines == 0) {
    if (Content.startswith("class ") && Content.endswith("(torch.nn.Module):"))
      Cur.Fx = Event::FxOpen;
    return;
  }
  if (Cur.Fx != Event::FxOpen && !Cur.GraphLine &&
      Content.startswith("class ") && Content.endswith("(torch.nn.Module):"))
    Cur.GraphLine = Line;
  if (Cur.Fx != Event::FxOpen || Content.empty() || Content[0] == ' ' ||
      Content[0] == '\t' || trimWS(Content).empty())
    return;
  lineProblem(Line,
              "the FX graph payload of '" + Cur.ArtName + "' (line " +
                  Twine(Cur.Line) +
                  ") goes on with a line that is not indented: is an event "
                  "line missing before this one? (it is read as part of '" +
                  Cur.ArtName + "')",
              Raw);
  Cur.Fx = Event::FxReported;
}

/// Hash a payload that was not hashed as it was read (its lines are still
/// in the log) and compare with its md5; \p Got is the digest without the
/// \p Blanks trailing blank lines, which may belong to the payload.
bool ChunkScanner::unhashedPayloadMatches(unsigned Blanks, std::string &Got) {
  MD5 H;
  unsigned N = 0;
  if (Cur.PayloadLines) {
    StringRef Text = Log.slice(Cur.PayloadBegin, Cur.PayloadEnd);
    while (true) {
      StringRef L;
      std::tie(L, Text) = Text.split('\n');
      if (!L.empty() && L.back() == '\r')
        L = L.drop_back();
      if (!L.empty() && L[0] == '\t')
        L = L.drop_front();
      else if (trimWS(L).empty())
        L = StringRef();
      if (N++)
        H.update("\n");
      H.update(L);
      if (Text.empty())
        break;
    }
  }
  MD5 With = H;
  for (unsigned I = 0; I < Blanks; ++I)
    With.update(I == 0 && N == 0 ? "" : "\n");
  std::string Want = Cur.Md5.lower();
  Got = hexOf(H);
  return Got == Want || (Blanks && hexOf(With) == Want);
}

/// The last event of a log ends where the log ends, so a cut log loses the
/// end of its payload and every event after it. A hashed payload's md5
/// says so; for the others (tlp does not hash the payloads it does not
/// read), this one payload is hashed here, or, without an md5, a last line
/// with no line break (PyTorch ends every line with one) says so; so does
/// it after a last event with no payload.
void ChunkScanner::checkLastPayload(unsigned Blanks) {
  bool NoBreak = !Log.empty() && Log.back() != '\n';
  if (!Cur.HasPayload) {
    // A whole envelope with no payload may still be where the log was cut:
    // every event after it is lost, and only the missing break tells.
    if (NoBreak)
      diag(Severity::Warning, Cur.Line,
           "the log ends on this event line with no line break (truncated?)",
           StringRef(), DiagClass::Md5);
    return;
  }
  if (Cur.Hashing)
    return;
  if (Cur.Md5.size() == 32 && Opts.Md5 != ReadOptions::Md5Check::None) {
    std::string Got;
    if (unhashedPayloadMatches(Blanks, Got))
      return;
    ++R.Md5Mismatches;
    diag(Severity::Warning, Cur.Line,
         "payload md5 mismatch for '" + Cur.ArtName + "' (" +
             Twine(Cur.PayloadLines) + " lines), the last event of the log: "
             "expected " + Cur.Md5 + ", got " + Got +
             "; the log ends inside this payload (truncated?)",
         StringRef(), DiagClass::Md5);
    return;
  }
  if (NoBreak && Cur.PayloadLines &&
      (Cur.PayloadEnd == Log.size() || Cur.BlankEnd == Log.size()))
    diag(Severity::Warning, Cur.Line,
         "the log ends inside the payload of '" + Cur.ArtName +
             "' with no line break (truncated?)",
         StringRef(), DiagClass::Md5);
}

void ChunkScanner::startEvent(StringRef L, uint32_t LineNo) {
  Cur = Event();
  Cur.Active = true;
  Cur.Line = LineNo;
  StringRef Json;
  if (!splitEventLine(L, Json)) {
    lineProblem(LineNo,
                AtLogEnd ? Twine("expected a trace event line; the log ends "
                                 "on this line (truncated?)")
                         : Twine("expected a trace event line"),
                L);
    Cur.Skip = true;
    return;
  }
  json::Value V;
  json::ParseError Err;
  if (!json::parse(Json, V, Err) || !V.isObject()) {
    size_t Col = static_cast<size_t>(Json.begin() - L.begin()) + Err.Offset + 1;
    // A cut-off last line is what a truncated log looks like.
    const char *Truncated = AtLogEnd && Err.Offset >= Json.size()
                                ? "; the log ends on this line "
                                  "(truncated?)"
                                : "";
    lineProblem(LineNo,
                !Err.Message.empty()
                    ? "invalid JSON in event envelope: " + Err.Message +
                          " at column " + Twine(Col) + Truncated
                    : Twine("event envelope is not a JSON object"),
                L);
    Cur.Skip = true;
    return;
  }
  bool First = true;
  Optional<int64_t> Frame, FrameCompile, Attempt, CA, Rank;
  std::string BadKey, BadText;
  json::forEachMemberRaw(V, [&](StringRef Key, const json::Value &X) {
    if (First) {
      Cur.Kind = Key.contains('\\') ? json::decodeRawString(Key) : Key.str();
      // Like every envelope string: valid UTF-8, and no control character
      // (the kind is shown in every output, and in diagnostics).
      if (!isPrintable(Cur.Kind))
        Cur.Kind = printable(Cur.Kind);
      Cur.Meta = X;
      First = false;
      return true;
    }
    auto Int = [&](Optional<int64_t> &Slot) {
      int64_t I;
      if (X.isNull())
        return;
      if (json::getInt(X, I) && I >= 0) {
        Slot = I;
        return;
      }
      // "3" or 3.0: the number is clear, the type is not; say so.
      Optional<int64_t> Lenient;
      double D;
      if (X.isString()) {
        std::string S = json::decodeString(X);
        if (!StringRef(S).getAsInteger(10, I) && I >= 0)
          Lenient = I;
      } else if (json::getDouble(X, D) && D >= 0 && D < 9.0e18 &&
                 D == static_cast<double>(static_cast<int64_t>(D))) {
        Lenient = static_cast<int64_t>(D);
      }
      if (Lenient) {
        Slot = *Lenient;
        diag(Severity::Warning, LineNo,
             "'" + Key + "' is " + X.Text.take_front(40) +
                 ", not an integer; read as " + Twine(*Lenient),
             L, DiagClass::Line);
        return;
      }
      if (BadKey.empty()) {
        BadKey = Key.str();
        BadText = X.Text.take_front(40).str();
      }
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
    else if (Key == "subgraph_name") {
      // Regional inductor names the region it compiles (PyTorch 2.10 and
      // later: torch/_logging/_internal.py, trace_structured).
      if (X.isString()) {
        Cur.Subgraph = json::decodeString(X);
        if (!isPrintable(Cur.Subgraph))
          Cur.Subgraph = printable(Cur.Subgraph);
      } else if (!X.isNull()) {
        diag(Severity::Warning, LineNo,
             "'subgraph_name' is " + X.Text.take_front(40) +
                 ", not a string; ignored",
             L, DiagClass::Line);
      }
    } else if (Key == "has_payload") {
      Cur.HasPayload = true;
      if (X.isString())
        Cur.Md5 = X.Text.substr(1, X.Text.size() - 2);
    }
    return true;
  });
  if (First) {
    lineProblem(LineNo, "event envelope has no event key", L);
    Cur.Skip = true;
    return;
  }
  if (!BadKey.empty()) {
    // A compile id or rank that is negative, too large or not a number:
    // grouping the event anywhere would be a guess.
    lineProblem(LineNo,
                "'" + BadKey + "' is " + BadText +
                    ", not a non-negative integer; event ignored",
                L);
    Cur.Skip = true;
    return;
  }
  ++R.Events_;
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
  Cur.EnvelopeRank = Rank.hasValue();

  // What the event becomes: its row in LogEvents.def, or for a generic
  // event the row of the "name" in its metadata.
  auto Take = [&](const LogEventInfo &Info) {
    Cur.Class = Info.Class;
    Cur.AK = Info.AK;
    Cur.CE = Info.CE;
    Cur.HK = Info.HK;
    Cur.Flags = Info.Flags;
  };
  const LogEventInfo *Info = lookupLogEvent(EventForm::Envelope, Cur.Kind);
  if (!Info) {
    Cur.Class = EventClass::Unknown;
  } else if (Info->Class != EventClass::Named) {
    Take(*Info);
  } else {
    Cur.Named = true;
    Cur.Class = EventClass::Ignored;
    std::string ArtName;
    if (Cur.Meta.isObject())
      json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
        if (K == "name" && X.isString())
          ArtName = printable(json::decodeString(X));
        return true;
      });
    if (const LogEventInfo *Named = lookupLogEvent(Info->Names, ArtName))
      Take(*Named);
    // A damaged "name" key makes any artifact (a pre-grad graph, say) an
    // unnamed one, counted as not read and otherwise silently gone.
    if (ArtName.empty())
      lineProblem(LineNo,
                  "'" + Cur.Kind + "' event without a 'name'; not read", L);
    Cur.ArtName = ArtName;
  }
  if (Cur.ArtName.empty())
    Cur.ArtName = Cur.Kind;
  Cur.Hashing = Cur.HasPayload && (Opts.Md5 == ReadOptions::Md5Check::All ||
                                   (Opts.Md5 == ReadOptions::Md5Check::Used &&
                                    Cur.Class == EventClass::Artifact));
}

void ChunkScanner::finishEvent() {
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
    ++R.Payloads;
    bool Checked = Cur.Hashing && Cur.Md5.size() == 32;
    unsigned Blanks = Cur.PendingBlanks;
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
    if (Cur.Hashing) {
      if (Cur.Md5.size() != 32) {
        diag(Severity::Warning, Cur.Line,
             "'has_payload' of '" + Cur.ArtName + "' is not an md5 digest",
             StringRef(), DiagClass::Other);
      } else {
        std::string Got = hexOf(Cur.Hash);
        if (Got != Cur.Md5.lower()) {
          ++R.Md5Mismatches;
          diag(Severity::Warning, Cur.Line,
               "payload md5 mismatch for '" + Cur.ArtName + "' (" +
                   Twine(Cur.PayloadLines) + " lines): expected " + Cur.Md5 +
                   ", got " + Got +
                   (AtLogEnd ? "; the log ends inside this payload "
                               "(truncated?)"
                             : "") +
                   "; using the payload as is",
               StringRef(), DiagClass::Md5);
        }
      }
    }
    if (AtLogEnd) {
      checkLastPayload(Blanks);
    } else if (!Cur.Hashing && Cur.GraphLine && Cur.Md5.size() == 32 &&
               Opts.Md5 != ReadOptions::Md5Check::None) {
      std::string Got;
      if (!unhashedPayloadMatches(Blanks, Got)) {
        ++R.Md5Mismatches;
        diag(Severity::Warning, Cur.Line,
             "payload md5 mismatch for '" + Cur.ArtName + "' (" +
                 Twine(Cur.PayloadLines) + " lines): expected " + Cur.Md5 +
                 ", got " + Got + "; its line " + Twine(Cur.GraphLine) +
                 " begins an FX graph module: is an event line missing "
                 "before it? (read as part of '" + Cur.ArtName + "')",
             StringRef(), DiagClass::Md5);
      }
    }
  } else if (AtLogEnd) {
    checkLastPayload(0);
  }

  switch (Cur.Class) {
  case EventClass::Unknown:
    ++R.Unknown[Cur.Kind];
    ++R.NotRead[notReadKey()];
    return;
  case EventClass::Named: // taken by its name in startEvent
  case EventClass::Ignored:
    ++R.NotRead[notReadKey()];
    return;
  case EventClass::Strings: {
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
      diag(Severity::Warning, Cur.Line, "malformed 'str' intern table entry",
           StringRef(), DiagClass::Other);
      return;
    }
    sanitizeUTF8(S);
    R.Strings.emplace_back(Index, std::move(S));
    return;
  }
  case EventClass::Compile: {
    CompileEvent E;
    E.Kind = Cur.CE;
    E.Log = LogIndex;
    E.Line = Cur.Line;
    E.Rank = Cur.Rank;
    E.Id = Cur.Id;
    E.Subgraph = Cur.Subgraph;
    int64_t FileIndex = -1;
    json::Value Stack;
    if (Cur.CE == CompileEvent::DynamoStart && Cur.Meta.isObject())
      json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
        if (K == "stack")
          Stack = X;
        return true;
      });
    // dynamo_start also begins a compile record (HealthKind::None).
    std::vector<std::pair<int64_t, SourceLoc>> Frames;
    bool LastOk = false;
    if (Stack.isArray())
      json::forEachElement(Stack, [&](const json::Value &X) {
        int64_t Index = -1;
        Optional<SourceLoc> F = parseFrame(X, Index);
        LastOk = F.hasValue();
        if (F)
          Frames.emplace_back(Index, std::move(*F));
        return true;
      });
    if (LastOk) {
      E.Frame = Frames.back().second;
      FileIndex = Frames.back().first;
    }
    if (Cur.CE == CompileEvent::DynamoStart) {
      HealthEvent H;
      H.detail().Stack = std::move(Frames);
      H.Line = Cur.Line;
      H.Rank = Cur.Rank;
      H.Id = Cur.Id;
      R.Health.push_back(std::move(H));
    }
    if (Cur.EnvelopeRank)
      R.Ranks.emplace_back(Cur.Line, *Cur.Rank);
    R.Events.push_back(std::move(E));
    R.EventFileIndex.push_back(FileIndex);
    return;
  }
  case EventClass::Artifact:
    finishArtifact();
    return;
  case EventClass::Health:
    finishHealth();
    return;
  }
}

/// How Stats.UnknownKinds names an event tlp does not read: its envelope
/// kind, or `artifact:NAME` / `graph_dump:NAME` for the artifact names of
/// those generic kinds.
std::string ChunkScanner::notReadKey() const {
  if (Cur.Named && Cur.ArtName != Cur.Kind)
    return Cur.Kind + ":" + Cur.ArtName;
  return Cur.Kind;
}

void ChunkScanner::finishArtifact() {
  if (!Cur.HasPayload) {
    diag(Severity::Warning, Cur.Line,
         "'" + Cur.ArtName + "' has no payload; ignored", StringRef(),
         DiagClass::Other);
    return;
  }
  std::unique_ptr<Artifact> A = createArtifact(Cur.AK);
  A->Name = Cur.ArtName;
  A->Log = LogIndex;
  A->Line = Cur.Line;
  A->Rank = Cur.Rank;
  A->Id = Cur.Id;
  A->Payload.Offset = Cur.PayloadLines ? Cur.PayloadBegin : 0;
  A->Payload.Size = Cur.PayloadLines ? Cur.PayloadEnd - Cur.PayloadBegin : 0;
  A->Payload.Lines = Cur.PayloadLines;
  A->Payload.Loaded = false;
  // Grouping needs to know forward from backward before the code is read.
  A->Subgraph = Cur.Subgraph;
  if (auto *C = dyn_cast<CodeArtifact>(A.get())) {
    StringRef T = trimWS(Cur.FirstLine);
    if (!T.startswith("# AOT ID:") && !Cur.AotIdLine.empty())
      T = trimWS(Cur.AotIdLine);
    if (T.consume_front("# AOT ID:"))
      C->AotId = trimWS(T).trim("[]").trim("'\"").str();
  }
  if (Cur.EnvelopeRank)
    R.Ranks.emplace_back(Cur.Line, *Cur.Rank);
  R.Artifacts.push_back(std::move(A));
}

/// Chunk boundaries: at most one chunk per few MB, each starting at a line
/// that begins an event (no TAB, not blank), so that chunks are
/// independent.
std::vector<uint64_t> chunkStarts(StringRef Log, unsigned Threads) {
  std::vector<uint64_t> Starts{0};
  constexpr uint64_t MinChunk = 4u << 20;
  if (Threads <= 1 || Log.size() < 2 * MinChunk)
    return Starts;
  uint64_t N = std::min<uint64_t>(Threads * 4, Log.size() / MinChunk);
  for (uint64_t I = 1; I < N; ++I) {
    uint64_t Pos = Log.size() * I / N;
    while (true) {
      size_t NL = Log.find('\n', Pos);
      if (NL == StringRef::npos || NL + 1 >= Log.size()) {
        Pos = Log.size();
        break;
      }
      char C = Log[NL + 1];
      Pos = NL + 1;
      if (C != '\t' && C != '\n' && C != '\r' && C != ' ')
        break;
    }
    if (Pos > Starts.back() && Pos < Log.size())
      Starts.push_back(Pos);
  }
  return Starts;
}

/// Scan one log (in parallel chunks) and merge the results into \p M.
void scanLog(StringRef Log, StringRef Name, uint32_t LogIndex,
             Optional<int64_t> FileRank, Module &M, const TraceSources &S,
             DiagnosticEngine &Diags, const ReadOptions &Opts,
             bool SortCompiles) {
  unsigned Threads = resolveThreadCount(Opts.Threads);
  std::vector<uint64_t> Starts = chunkStarts(Log, Threads);
  std::vector<ChunkResult> Results(Starts.size());
  auto Work = [&](size_t I) {
    uint64_t B = Starts[I];
    uint64_t E = I + 1 < Starts.size() ? Starts[I + 1] : Log.size();
    ChunkScanner(Log, B, E, LogIndex, FileRank, Name, S, Opts, Results[I])
        .run();
  };
  parallelFor(Starts.size(), Threads, Work);

  // Merge in log order, renumbering lines.
  uint32_t LineBase = 0;
  unsigned LineReports = 0, LineSuppressed = 0;
  unsigned Md5Reports = 0, Md5Suppressed = 0;
  uint64_t CRLines = 0;
  std::map<std::string, uint64_t> Unknown, NotRead;
  std::vector<std::string> Strings;
  std::vector<bool> HasString;
  size_t FirstEvent = M.Events.size();
  size_t FirstArtifact = M.Artifacts.size();
  std::vector<HealthList> Health;
  StringMap<uint32_t> ComponentIndex;
  for (size_t I = 0; I < M.KeyComponents.size(); ++I)
    ComponentIndex.try_emplace(M.KeyComponents[I], static_cast<uint32_t>(I));
  auto internComponent = [&](std::string &S) {
    auto Ins = ComponentIndex.try_emplace(
        S, static_cast<uint32_t>(M.KeyComponents.size()));
    if (Ins.second)
      M.KeyComponents.push_back(std::move(S));
    return Ins.first->second;
  };
  std::vector<int64_t> FileIndex;
  LogFile &LF = M.Logs[LogIndex];
  bool RankConflictReported = false;
  for (ChunkResult &R : Results) {
    for (ChunkDiag &D : R.Diags) {
      if (D.D.Line)
        D.D.Line += LineBase;
      if (D.Class == DiagClass::Line && LineReports++ >= Opts.MaxLineReports) {
        ++LineSuppressed;
        continue;
      }
      if (D.Class == DiagClass::Md5 && Md5Reports++ >= Opts.MaxLineReports) {
        ++Md5Suppressed;
        continue;
      }
      Diags.add(std::move(D.D));
    }
    for (auto &RL : R.Ranks) {
      if (!LF.Rank) {
        LF.Rank = RL.second;
      } else if (*LF.Rank != RL.second && !RankConflictReported) {
        // Once per log: the units take the event rank, and their ids name
        // the log (unitIdNeedsLog), so the reader can tell them apart.
        if (FileRank) {
          LF.EventRank = RL.second;
          Diags.warning(Name, RL.first + LineBase,
                        "event rank " + Twine(RL.second) +
                            " differs from rank " + Twine(*FileRank) +
                            " in the file name; the units take rank " +
                            Twine(RL.second) + " and their ids name the log");
        } else {
          Diags.warning(Name, RL.first + LineBase,
                        "event rank " + Twine(RL.second) +
                            " differs from the log's rank " + Twine(*LF.Rank));
        }
        RankConflictReported = true;
      }
    }
    for (std::unique_ptr<Artifact> &A : R.Artifacts) {
      A->Line += LineBase;
      M.Artifacts.push_back(std::move(A));
    }
    std::vector<uint32_t> ComponentMap;
    ComponentMap.reserve(R.Components.size());
    for (std::string &C : R.Components)
      ComponentMap.push_back(internComponent(C));
    R.Components.clear();
    for (HealthEvent &H : R.Health) {
      H.Line += LineBase;
      H.Event.Line += LineBase;
      if (H.Detail) {
        H.Detail->Cache.Line += LineBase;
        for (uint32_t &C : H.Detail->Cache.Components)
          C = ComponentMap[C];
      }
    }
    Health.push_back(std::move(R.Health));
    for (size_t I = 0; I < R.Events.size(); ++I) {
      R.Events[I].Line += LineBase;
      M.Events.push_back(std::move(R.Events[I]));
      FileIndex.push_back(R.EventFileIndex[I]);
    }
    for (auto &SE : R.Strings) {
      if (static_cast<size_t>(SE.first) >= Strings.size()) {
        Strings.resize(SE.first + 1);
        HasString.resize(SE.first + 1);
      }
      Strings[SE.first] = std::move(SE.second);
      HasString[SE.first] = true;
    }
    for (auto &KV : R.Unknown)
      Unknown[KV.first] += KV.second;
    for (auto &KV : R.NotRead)
      NotRead[KV.first] += KV.second;
    M.Stats.Events += R.Events_;
    M.Stats.Payloads += R.Payloads;
    M.Stats.Md5Mismatches += R.Md5Mismatches;
    M.Stats.MalformedLines += R.Malformed;
    CRLines += R.CRLines;
    LineBase += R.Lines;
  }
  M.Stats.Lines += LineBase;
  // Interned file names of stack frames.
  for (size_t I = 0; I < FileIndex.size(); ++I) {
    CompileEvent &E = M.Events[FirstEvent + I];
    if (!E.Frame || FileIndex[I] == -1)
      continue;
    if (FileIndex[I] >= 0 &&
        static_cast<size_t>(FileIndex[I]) < Strings.size() &&
        HasString[FileIndex[I]]) {
      E.Frame->File = Strings[FileIndex[I]];
      continue;
    }
    // A file the frame names by an index no 'str' event defined: say so
    // rather than show a frame without a file.
    Diags.warning(Name, E.Line,
                  FileIndex[I] == BadFileIndex
                      ? Twine("the user frame's 'filename' is neither a "
                              "string nor a string-table index; its file "
                              "is unknown")
                      : "the user frame's file is string-table entry " +
                            Twine(FileIndex[I]) +
                            ", which no 'str' event defines; its file is "
                            "unknown");
  }

  mergeHealth(M, LogIndex, FirstEvent, FirstArtifact, Health, Strings,
              SortCompiles);

  if (CRLines)
    Diags.note(Name, 0,
               Twine(CRLines) + " lines end in CR LF; the CR was dropped");
  if (LineSuppressed)
    Diags.warning(Name, 0,
                  Twine(LineSuppressed) + " more malformed lines not shown");
  if (Md5Suppressed)
    Diags.warning(Name, 0,
                  Twine(Md5Suppressed) + " more md5 mismatches not shown");
  for (auto &KV : NotRead) {
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
}

} // namespace reader

TraceSources::~TraceSources() = default;

uint32_t TraceSources::add(std::unique_ptr<MemoryBuffer> Buffer,
                           StringRef Path) {
  Logs.push_back(std::make_unique<MappedFile>(std::move(Buffer), Path));
  return static_cast<uint32_t>(Logs.size() - 1);
}

StringRef TraceSources::bytes(uint32_t Log) const {
  return Log < Logs.size() ? Logs[Log]->bytes() : StringRef();
}

bool TraceSources::read(uint32_t Log, uint64_t Offset, uint64_t Size,
                        std::string &Out) const {
  return Log < Logs.size() && Logs[Log]->read(Offset, Size, Out);
}

void TraceSources::release(uint32_t Log, uint64_t Offset, uint64_t Size) const {
  if (Log < Logs.size())
    Logs[Log]->release(Offset, Size);
}

static bool readLog(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name,
                    StringRef Path, Optional<int64_t> FileRank, Module &M,
                    TraceSources &Sources, DiagnosticEngine &Diags,
                    const ReadOptions &Opts, bool SortCompiles = true);

void readTraceBuffer(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name,
                     Optional<int64_t> FileRank, Module &M,
                     TraceSources &Sources, DiagnosticEngine &Diags,
                     const ReadOptions &Opts) {
  readLog(std::move(Buffer), Name, "", FileRank, M, Sources, Diags, Opts);
}

/// Why \p Bytes cannot be a log at all (compressed or binary), with the
/// line to report; None if it may be one.
static Optional<std::pair<uint32_t, std::string>> notATextLog(StringRef Bytes) {
  if (Bytes.startswith("\x1f\x8b"))
    return std::make_pair(1u, std::string("this is a gzip-compressed file; "
                                          "decompress it first (gunzip)"));
  if (Bytes.startswith("\x28\xb5\x2f\xfd"))
    return std::make_pair(1u, std::string("this is a zstd-compressed file; "
                                          "decompress it first (unzstd)"));
  StringRef Head = Bytes.take_front(64 * 1024);
  // Event lines in the head: then it is a log, damaged or not.
  auto HasEventLine = [](StringRef Text) {
    while (!Text.empty()) {
      auto [Line, Rest] = Text.split('\n');
      StringRef Json;
      if (splitEventLine(Line.rtrim('\r'), Json))
        return true;
      Text = Rest;
    }
    return false;
  };
  size_t Nul = Head.find('\0');
  if (Nul != StringRef::npos && !HasEventLine(Head)) {
    uint32_t Line = 1 + static_cast<uint32_t>(Head.take_front(Nul).count('\n'));
    return std::make_pair(Line, std::string("binary data (a NUL byte), not a "
                                            "TORCH_TRACE log; file skipped"));
  }
  if (Head.size() > 256 && Head.find('\n') == StringRef::npos &&
      Head.count('\r') > 1)
    return std::make_pair(
        1u, std::string("lines end in CR alone; tlp reads logs whose lines "
                        "end in LF or CR LF (convert with: tr '\\r' '\\n')"));
  return None;
}

static bool readLog(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name,
                    StringRef Path, Optional<int64_t> FileRank, Module &M,
                    TraceSources &Sources, DiagnosticEngine &Diags,
                    const ReadOptions &Opts, bool SortCompiles) {
  uint32_t Index = static_cast<uint32_t>(M.Logs.size());
  M.Logs.push_back(LogFile{Name.str(), FileRank, None});
  // Module::Logs and the sources stay in step.
  while (Sources.size() < Index)
    Sources.add(nullptr);
  uint32_t SI = Sources.add(std::move(Buffer), Path);
  (void)SI;
  if (auto Why = notATextLog(Sources.bytes(Index))) {
    Diags.error(Name, Why->first, Why->second);
    return false;
  }
  size_t FirstArtifact = M.Artifacts.size();
  scanLog(Sources.bytes(Index), Name, Index, FileRank, M, Sources, Diags, Opts,
          SortCompiles);
  if (Opts.Lazy)
    return true;
  // Load this log's artifacts now, in parallel; diagnostics in log order.
  size_t N = M.Artifacts.size() - FirstArtifact;
  parallelForOrdered(N, Opts.Threads, Diags,
                     [&](size_t I, DiagnosticEngine &D) {
                       loadArtifact(*M.Artifacts[FirstArtifact + I], M,
                                    Sources, D);
                     });
  return true;
}

void readTraceText(StringRef Text, StringRef Name, Module &M,
                   DiagnosticEngine &Diags, const ReadOptions &Opts) {
  TraceSources S;
  ReadOptions O = Opts;
  O.Lazy = false;
  readTraceBuffer(MemoryBuffer::getMemBufferCopy(Text, Name), Name, None, M, S,
                  Diags, O);
}

static Error readOneFile(StringRef Path, StringRef Display, Module &M,
                         TraceSources &Sources, DiagnosticEngine &Diags,
                         const ReadOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = openInputFile(Path);
  if (!Buf)
    return Buf.takeError();
  readLog(std::move(*Buf), Display, Path, rankFromFileName(Path), M, Sources,
          Diags, Opts);
  return Error::success();
}

Error readTrace(StringRef Path, Module &M, TraceSources &Sources,
                DiagnosticEngine &Diags, const ReadOptions &Opts) {
  if (Path == "-" || !sys::fs::is_directory(Path))
    return readOneFile(Path, displayName(Path), M, Sources, Diags, Opts);

  std::error_code EC;
  std::vector<std::string> Files;
  std::vector<std::pair<std::string, std::string>> Skipped;
  unsigned Subdirs = 0;
  for (sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef FileName = sys::path::filename(It->path());
    if (FileName.startswith("."))
      continue;
    bool LogName = FileName.startswith("dedicated_log_torch_trace");
    sys::fs::file_status St;
    if (std::error_code SEC = sys::fs::status(It->path(), St)) {
      // A link to nothing, or an entry that vanished: never silent.
      std::string Why = "skipped: " + SEC.message();
      if (Optional<std::string> Target = readSymbolicLink(It->path()))
        Why = "skipped: a symbolic link to '" + *Target +
              "', which cannot be read (" + SEC.message() + ")";
      Skipped.emplace_back(It->path(), Why);
      continue;
    }
    switch (St.type()) {
    case sys::fs::file_type::regular_file:
      Files.push_back(It->path());
      break;
    case sys::fs::file_type::directory_file:
      ++Subdirs;
      if (LogName)
        Skipped.emplace_back(It->path(),
                             "skipped: a directory named like a rank log "
                             "(subdirectories are not searched)");
      break;
    default:
      Skipped.emplace_back(
          It->path(), "skipped: not a regular file (a FIFO, socket or "
                      "device is not read from a directory)");
    }
  }
  if (EC)
    return createStringError(EC, "cannot read directory '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  llvm::sort(Skipped);
  for (auto &S : Skipped)
    Diags.warning(S.first, 0, S.second);
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
    readLog(std::move(*Buf), F, F, rankFromFileName(F), M, Sources, Diags,
            Opts, /*SortCompiles=*/false);
    ++Read;
  }
  // Two logs with the same compile ids (two runs of one program): the
  // records name their log, as the units do.
  for (CompileRecord &R : M.Compiles)
    R.LogInId = unitIdNeedsLog(M.Logs, R.Log, R.Rank);
  llvm::sort(M.Compiles);
  if (!Read && Subdirs)
    return createStringError(
        std::errc::no_such_file_or_directory,
        "no TORCH_TRACE logs in directory '%s' (subdirectories are not "
        "searched; it has %u: name one instead)",
        Path.str().c_str(), Subdirs);
  if (!Read)
    return createStringError(std::errc::no_such_file_or_directory,
                             "no TORCH_TRACE logs in directory '%s'",
                             Path.str().c_str());
  return Error::success();
}


/// Append up to \p Want bytes of \p FD to \p Data; 0 at the end.
static Expected<size_t> readSome(sys::fs::file_t FD, std::string &Data,
                                 size_t Want) {
  size_t Old = Data.size();
  Data.resize(Old + Want);
  Expected<size_t> Got =
      sys::fs::readNativeFile(FD, MutableArrayRef<char>(&Data[Old], Want));
  Data.resize(Old + (Got ? *Got : 0));
  return Got;
}

/// True once \p Prefix has enough of its first line that is neither blank
/// nor a comment to tell IR from a log.
static bool canTellIR(StringRef Prefix) {
  while (true) {
    Prefix = Prefix.ltrim(" \t\r\n");
    if (!Prefix.startswith("#"))
      return Prefix.size() >= 9;
    size_t NL = Prefix.find('\n');
    if (NL == StringRef::npos)
      return false;
    Prefix = Prefix.drop_front(NL);
  }
}

Expected<std::unique_ptr<Module>>
loadInput(StringRef Path, TraceSources &Sources, DiagnosticEngine &Diags,
          bool &IsIR, const ReadOptions &Opts,
          std::unique_ptr<IRDocumentReader> *IRStream) {
  IsIR = false;
  auto M = std::make_unique<Module>();
  if (Path != "-" && sys::fs::is_directory(Path)) {
    if (Error E = readTrace(Path, *M, Sources, Diags, Opts))
      return E;
    return M;
  }
  std::string Name = displayName(Path);
  std::unique_ptr<MemoryBuffer> Buf;
  if (Path == "-" && IRStream) {
    // Read stdin in pieces: IR is then parsed while it still arrives.
    std::string Data;
    sys::fs::file_t In = sys::fs::getStdinHandle();
    // (At most 1 MiB of blank and comment lines: canTellIR rescans.)
    while (Data.size() < (1u << 20) && !canTellIR(Data)) {
      Expected<size_t> Got = readSome(In, Data, 64 * 1024);
      if (!Got)
        return createStringError(errorToErrorCode(Got.takeError()),
                                 "cannot read '%s'", Name.c_str());
      if (*Got == 0)
        break;
    }
    if (looksLikeIR(Data)) {
      IsIR = true;
      *IRStream = std::make_unique<IRDocumentReader>(0, std::move(Data), Name);
      if (Error E = parseIRHeader(**IRStream, *M, Diags))
        return E;
      return M;
    }
    // The rest within bounds (no endless line, a log within the first
    // 64 MiB), spooled to a temporary file when large.
    Expected<std::unique_ptr<MemoryBuffer>> B =
        readStream(0, Name, std::move(Data));
    if (!B)
      return B.takeError();
    Buf = std::move(*B);
  } else {
    Expected<std::unique_ptr<MemoryBuffer>> B = openInputFile(Path);
    if (!B)
      return B.takeError();
    Buf = std::move(*B);
  }
  StringRef Text = Buf->getBuffer();
  if (looksLikeIR(Text)) {
    IsIR = true;
    if (!IRStream) {
      MemoryBufferRef Ref(Text, Name);
      return parseModule(Ref, Diags);
    }
    *IRStream = std::make_unique<IRDocumentReader>(std::move(Buf), Name);
    if (Error E = parseIRHeader(**IRStream, *M, Diags))
      return E;
    return M;
  }
  bool Empty = trimWS(Text).empty();
  if (!readLog(std::move(Buf), Name, Path, rankFromFileName(Path), *M, Sources,
               Diags, Opts))
    return M;
  if (Empty)
    Diags.warning(Name, 0, "input is empty");
  else if (M->Stats.Events == 0)
    Diags.warning(Name, 0, "no trace events found; is this a TORCH_TRACE log?");
  return M;
}

} // namespace tlp
