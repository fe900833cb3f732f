//===- LogFraming.cpp - Event lines, chunks, payloads and md5s ------------===//
//
// Part of tlp. The framing of a TORCH_TRACE log: event lines, the chunks a
// log is scanned in, payload lines and their md5s, and the checks for a
// lost event line or a cut log.
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

#include "ReaderInternals.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

/// The md5 a log names, as a diagnostic quotes it: a byte that is not
/// printable ASCII as \xNN, so that a damaged md5 (any bytes the log
/// holds) makes a message of valid UTF-8 (the IR's text and compact forms
/// both keep it).
static std::string quotedMd5(StringRef S) {
  std::string Out;
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    if (U >= 0x20 && U < 0x7f) {
      Out += C;
    } else {
      Out += "\\x";
      Out += hexdigit(U >> 4, true);
      Out += hexdigit(U & 15, true);
    }
  }
  return Out;
}

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

namespace reader {

/// "3 lines before this one": where line \p Earlier is, told from line
/// \p Line of the same chunk. Messages never hold a line number of their
/// own: a chunk's lines are numbered from its start until the chunks are
/// merged, and only a diagnostic's location is fixed up then.
static std::string linesBefore(uint32_t Line, uint32_t Earlier) {
  uint32_t N = Line > Earlier ? Line - Earlier : 0;
  return std::to_string(N) + (N == 1 ? " line" : " lines") +
         " before this one";
}

/// Chunk boundaries (ReaderInternals.h).
std::vector<uint64_t> chunkStarts(StringRef Log, unsigned Threads,
                                  uint64_t ChunkBytes) {
  std::vector<uint64_t> Starts{0};
  ChunkBytes = std::max<uint64_t>(ChunkBytes, 1);
  const uint64_t MinChunk = std::min<uint64_t>(4u << 20, ChunkBytes);
  uint64_t N = Log.size() / ChunkBytes;
  if (Threads > 1)
    N = std::max<uint64_t>(N, std::min<uint64_t>(Threads * 4,
                                                 Log.size() / MinChunk));
  // Log.size() * I below stays within 64 bits for logs up to 16 TB.
  N = std::min<uint64_t>(N, 1u << 20);
  if (N < 2)
    return Starts;
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
                "the JSON payload of '" + Cur.ArtName + "' ended " +
                    linesBefore(Line, Cur.JsonEndLine) +
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
              "the FX graph payload of '" + Cur.ArtName + "' (its event " +
                  linesBefore(Line, Cur.Line) +
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
             "expected " + quotedMd5(Cur.Md5) + ", got " + Got +
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
                   Twine(Cur.PayloadLines) + " lines): expected " +
                   quotedMd5(Cur.Md5) +
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
                 Twine(Cur.PayloadLines) + " lines): expected " +
                   quotedMd5(Cur.Md5) +
                 ", got " + Got + "; its payload line " +
                 Twine(Cur.GraphLine - Cur.Line) +
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
    notRead();
    return;
  case EventClass::Named: // taken by its name in startEvent
  case EventClass::Ignored:
    notRead();
    return;
  case EventClass::Strings:
    finishStrings();
    return;
  case EventClass::Compile:
    finishCompileEvent();
    return;
  case EventClass::Artifact:
    finishArtifact();
    return;
  case EventClass::Health:
    finishHealth();
    return;
  }
}

} // namespace reader
} // namespace tlp
