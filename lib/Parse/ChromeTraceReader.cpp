//===- ChromeTraceReader.cpp - Read a torch.profiler Chrome trace ---------===//
//
// The trace is cut into events without building a document: a small
// scanner finds the list of events and the extent of each element (strings
// and brackets matched), and each element is validated and read on its own
// with the JSON scanner (JSONScan.h). Memory is the mapped file and the
// compact events.
//
//===----------------------------------------------------------------------===//

#include "tlp/Parse/ChromeTraceReader.h"
#include "tlp/Parse/JSONScan.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace llvm;

namespace tlp {

namespace {

class TraceScanner {
public:
  TraceScanner(StringRef Path, StringRef Text, ProfileTrace &T,
               DiagnosticEngine &Diags)
      : Path(Path), Text(Text), T(T), Diags(Diags) {}

  bool run();

private:
  /// The 1-based line of offset \p Pos (positions are asked in order).
  uint32_t lineAt(size_t Pos) {
    if (Pos < LinePos) {
      LinePos = 0;
      Line = 1;
    }
    for (; LinePos < Pos && LinePos < Text.size(); ++LinePos)
      if (Text[LinePos] == '\n')
        ++Line;
    return Line;
  }
  void skipSpace(size_t &Pos) const {
    while (Pos < Text.size() && (Text[Pos] == ' ' || Text[Pos] == '\n' ||
                                 Text[Pos] == '\r' || Text[Pos] == '\t'))
      ++Pos;
  }
  /// The end of the value at \p Pos (a string, an object or array with its
  /// brackets matched, or a scalar up to the next ',', '}' or ']'); npos
  /// when the text ends first.
  size_t valueEnd(size_t Pos) const;
  void readEvents(size_t Pos);
  void readEvent(StringRef Elem, uint32_t ElemLine);
  uint32_t intern(StringMap<uint32_t> &Map, std::vector<std::string> &Vec,
                  StringRef S) {
    auto It = Map.try_emplace(S, static_cast<uint32_t>(Vec.size()));
    if (It.second)
      Vec.push_back(S.str());
    return It.first->second;
  }

  StringRef Path, Text;
  ProfileTrace &T;
  DiagnosticEngine &Diags;
  size_t LinePos = 0;
  uint32_t Line = 1;
  StringMap<uint32_t> NameIds, TrackIds;
};

size_t TraceScanner::valueEnd(size_t Pos) const {
  if (Pos >= Text.size())
    return StringRef::npos;
  char C = Text[Pos];
  if (C == '"') {
    for (size_t I = Pos + 1; I < Text.size(); ++I) {
      if (Text[I] == '\\')
        ++I;
      else if (Text[I] == '"')
        return I + 1;
    }
    return StringRef::npos;
  }
  if (C == '{' || C == '[') {
    unsigned Depth = 0;
    for (size_t I = Pos; I < Text.size(); ++I) {
      char D = Text[I];
      if (D == '"') {
        size_t E = valueEnd(I);
        if (E == StringRef::npos)
          return E;
        I = E - 1;
      } else if (D == '{' || D == '[') {
        ++Depth;
      } else if (D == '}' || D == ']') {
        if (--Depth == 0)
          return I + 1;
      }
    }
    return StringRef::npos;
  }
  size_t I = Pos;
  while (I < Text.size() && Text[I] != ',' && Text[I] != '}' &&
         Text[I] != ']')
    ++I;
  return I;
}

bool TraceScanner::run() {
  size_t Pos = 0;
  skipSpace(Pos);
  if (Pos < Text.size() && Text[Pos] == '[') {
    readEvents(Pos);
    return true;
  }
  if (Pos >= Text.size() || Text[Pos] != '{') {
    Diags.error(Path, lineAt(Pos),
                "not a Chrome trace: expected an object with traceEvents or "
                "a list of events");
    return false;
  }
  // The top-level object: find its "traceEvents" member.
  ++Pos;
  while (true) {
    skipSpace(Pos);
    if (Pos < Text.size() && Text[Pos] == '}')
      break;
    size_t KeyEnd = valueEnd(Pos);
    if (Pos >= Text.size() || Text[Pos] != '"' || KeyEnd == StringRef::npos)
      break;
    std::string Key = json::decodeRawString(Text.slice(Pos + 1, KeyEnd - 1));
    Pos = KeyEnd;
    skipSpace(Pos);
    if (Pos >= Text.size() || Text[Pos] != ':')
      break;
    ++Pos;
    skipSpace(Pos);
    if (Key == "traceEvents") {
      if (Pos < Text.size() && Text[Pos] == '[') {
        readEvents(Pos);
        return true;
      }
      Diags.error(Path, lineAt(Pos), "traceEvents is not a list");
      return false;
    }
    size_t End = valueEnd(Pos);
    if (End == StringRef::npos)
      break;
    Pos = End;
    skipSpace(Pos);
    if (Pos < Text.size() && Text[Pos] == ',')
      ++Pos;
  }
  Diags.error(Path, lineAt(Pos), "no traceEvents list in the trace");
  return false;
}

void TraceScanner::readEvents(size_t Pos) {
  ++Pos; // '['
  while (true) {
    skipSpace(Pos);
    if (Pos >= Text.size()) {
      Diags.warning(Path, lineAt(Pos),
                    "the list of events is cut short (no closing ']')");
      return;
    }
    char C = Text[Pos];
    if (C == ']')
      return;
    if (C == ',') {
      ++Pos;
      continue;
    }
    size_t End = valueEnd(Pos);
    uint32_t ElemLine = lineAt(Pos);
    if (End == StringRef::npos) {
      ++T.Damaged;
      Diags.warning(Path, ElemLine,
                    "event cut short (the trace ends inside it); left out");
      return;
    }
    if (End == Pos)
      End = Pos + 1; // a stray character: step over it
    readEvent(Text.slice(Pos, End), ElemLine);
    Pos = End;
  }
}

/// Integer nanoseconds of a number of microseconds written as \p Text.
/// Exact for plain decimals (torch.profiler writes three decimals); other
/// forms go through a double.
bool microsToNanos(StringRef Text, int64_t &Out) {
  StringRef S = Text;
  bool Neg = S.consume_front("-");
  StringRef Int = S.take_while([](char C) { return C >= '0' && C <= '9'; });
  StringRef Rest = S.drop_front(Int.size());
  StringRef Frac;
  if (Rest.consume_front("."))
    Frac = Rest.take_while([](char C) { return C >= '0' && C <= '9'; }),
    Rest = Rest.drop_front(Frac.size());
  if (!Int.empty() && Int.size() <= 15 && Rest.empty()) {
    int64_t V = 0;
    for (char C : Int)
      V = V * 10 + (C - '0');
    int64_t F = 0;
    for (size_t I = 0; I < 3; ++I)
      F = F * 10 + (I < Frac.size() ? Frac[I] - '0' : 0);
    V = V * 1000 + F;
    if (Frac.size() > 3 && Frac[3] >= '5')
      ++V;
    Out = Neg ? -V : V;
    return true;
  }
  json::Value V{json::ValueKind::Number, Text};
  double D;
  if (!json::getDouble(V, D) || !std::isfinite(D) || std::fabs(D) > 9e15)
    return false;
  Out = static_cast<int64_t>(std::llround(D * 1000.0));
  return true;
}

void TraceScanner::readEvent(StringRef Elem, uint32_t ElemLine) {
  json::Value V;
  json::ParseError Err;
  if (!json::parse(Elem, V, Err)) {
    ++T.Damaged;
    Diags.warning(Path, lineAt(Elem.data() - Text.data() + Err.Offset),
                  "event is not valid JSON (" + Err.Message + "); left out");
    return;
  }
  if (!V.isObject()) {
    ++T.Damaged;
    Diags.warning(Path, ElemLine, "event is not an object; left out");
    return;
  }
  std::string Ph, Name, Pid, Tid;
  bool HasName = false;
  json::Value Ts, Dur;
  bool HasTs = false, HasDur = false;
  auto AsText = [](const json::Value &X) {
    return X.isString() ? json::decodeString(X) : X.Text.str();
  };
  json::forEachMember(V, [&](StringRef Key, const json::Value &M) {
    if (Key == "ph")
      Ph = AsText(M);
    else if (Key == "name" && M.isString())
      Name = json::decodeString(M), HasName = true;
    else if (Key == "pid")
      Pid = AsText(M);
    else if (Key == "tid")
      Tid = AsText(M);
    else if (Key == "ts")
      Ts = M, HasTs = true;
    else if (Key == "dur")
      Dur = M, HasDur = true;
    return true;
  });
  if (Ph != "X") {
    ++T.Untimed;
    return;
  }
  int64_t Start, Duration;
  StringRef Problem;
  if (!HasName)
    Problem = "no name";
  else if (!HasTs || !Ts.isNumber() || !microsToNanos(Ts.Text, Start))
    Problem = "no numeric ts";
  else if (!HasDur || !Dur.isNumber() || !microsToNanos(Dur.Text, Duration))
    Problem = "no numeric dur";
  else if (Duration < 0)
    Problem = "a negative dur";
  if (!Problem.empty()) {
    ++T.Damaged;
    Diags.warning(Path, ElemLine,
                  "complete event ('X') with " + Problem + "; left out");
    return;
  }
  ProfileEvent E;
  E.Name = intern(NameIds, T.Names, Name);
  E.Track = intern(TrackIds, T.Tracks, Pid + "/" + Tid);
  E.Line = ElemLine;
  E.Start = Start;
  E.Duration = Duration;
  T.Events.push_back(E);
}

} // namespace

bool readChromeTrace(StringRef Path, StringRef Text, ProfileTrace &T,
                     DiagnosticEngine &Diags) {
  T.Path = Path.str();
  return TraceScanner(Path, Text, T, Diags).run();
}

bool readChromeTraceFile(StringRef Path, ProfileTrace &T,
                         DiagnosticEngine &Diags) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFileOrSTDIN(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf) {
    Diags.error(Path, 0,
                "cannot read the profile: " + Buf.getError().message());
    return false;
  }
  return readChromeTrace(Path, (*Buf)->getBuffer(), T, Diags);
}

} // namespace tlp
