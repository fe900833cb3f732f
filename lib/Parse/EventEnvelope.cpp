//===- EventEnvelope.cpp - Event envelopes and what they become -----------===//
//
// Part of tlp. An event's JSON envelope: its kind, compile id, rank,
// subgraph and payload md5, and what it becomes by its row in
// include/tlp/Parse/LogEvents.def. The events whose payload is not parsed
// in the scan are finished here: `str` entries, compile events and
// artifacts (the place of their payload, loaded later).
//
//===----------------------------------------------------------------------===//

#include "ReaderInternals.h"
#include "tlp/IR/InductorNames.h"

#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace tlp {
namespace reader {

Optional<SourceLoc> parseFrame(const json::Value &X, int64_t &FileIndex) {
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

void ChunkScanner::startEvent(StringRef L, uint32_t LineNo) {
  Cur = Event();
  Cur.Active = true;
  Cur.Line = LineNo;
  Cur.LineOffset = static_cast<uint64_t>(L.data() - Log.data());
  Cur.LineSize = L.size();
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
  // The kind as the log spells it, invalid bytes and all: a damaged byte
  // is one edit from the name it was (its printable form is three).
  std::string RawKind;
  bool SaidNull = false;
  Optional<int64_t> Frame, FrameCompile, Attempt, CA, Rank;
  std::string BadKey, BadText;
  json::forEachMemberRaw(V, [&](StringRef Key, const json::Value &X) {
    if (First) {
      Cur.Kind = Key.contains('\\') ? json::decodeRawString(Key) : Key.str();
      // Like every envelope string: valid UTF-8, and no control character
      // (the kind is shown in every output, and in diagnostics).
      if (!isPrintable(Cur.Kind)) {
        RawKind = Cur.Kind;
        Cur.Kind = printable(Cur.Kind);
      }
      Cur.Meta = X;
      First = false;
      return true;
    }
    auto Int = [&](Optional<int64_t> &Slot) {
      int64_t I;
      if (X.isNull()) {
        // PyTorch leaves out a field it has no value for; only the
        // compiled autograd id was written null (December 2024). A null
        // compile-id field or rank moves the event to another compile.
        if (Key != "compiled_autograd_id") {
          SaidNull = true;
          diag(Severity::Warning, LineNo,
               "'" + Key + "' is null, not an integer; read as if absent", L,
               DiagClass::Line);
        }
        return;
      }
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
      if (X.isString()) {
        Cur.Md5 = X.Text.substr(1, X.Text.size() - 2);
        // Kept in the IR with its artifact: valid UTF-8 and no control
        // character, like every envelope string (a damaged digest then
        // mismatches, as it would).
        if (!isPrintable(Cur.Md5)) {
          Cur.Md5Text = printable(Cur.Md5);
          Cur.Md5 = Cur.Md5Text;
        }
      }
    } else {
      // A key one or two edits from one that places the event ("attumpt"):
      // a damaged line, whose event would land in another compile or lose
      // its payload without a word.
      for (StringRef Known : {"frame_id", "frame_compile_id", "attempt",
                              "compiled_autograd_id", "rank", "has_payload",
                              "subgraph_name"})
        if (Key.size() + 2 >= Known.size() && Known.size() + 2 >= Key.size() &&
            Key.edit_distance(Known, /*AllowReplacements=*/true,
                              /*MaxEditDistance=*/2) <= 2 &&
            (Known.size() > 4 || Key.size() == Known.size())) {
          diag(Severity::Warning, LineNo,
               "envelope key '" + printable(Key) +
                   "' is not one PyTorch writes: a damaged '" + Known +
                   "'? read without it",
               L, DiagClass::Line);
          break;
        }
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
  // PyTorch writes "frame_compile_id" only after a "frame_id" (or with a
  // compiled autograd id): one without the other is a damaged envelope
  // ("frame_id": null), whose event would leave its compile without a word.
  if (FrameCompile && !Frame && !CA && !SaidNull)
    diag(Severity::Warning, LineNo,
         "'frame_compile_id' without a 'frame_id': the event's compile is "
         "unknown; read as outside any compile",
         L, DiagClass::Line);
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
  // A name PyTorch does not write but one it does is an edit or two from:
  // a damaged line (its event, a graph or the output code, say, is lost),
  // not a kind a newer PyTorch added (those get a note, once).
  auto Near = [&](EventForm Form, StringRef What, StringRef Name) {
    StringRef Known = nearName(Form, Name);
    if (!Known.empty())
      lineProblem(LineNo,
                  What + " '" + printable(Name) +
                      "' is not one PyTorch writes: a damaged '" + Known +
                      "'? not read",
                  L);
  };
  if (!Info) {
    Cur.Class = EventClass::Unknown;
    Near(EventForm::Envelope, "event kind",
         RawKind.empty() ? StringRef(Cur.Kind) : StringRef(RawKind));
  } else if (Info->Class != EventClass::Named) {
    Take(*Info);
  } else {
    Cur.Named = true;
    Cur.Class = EventClass::Ignored;
    std::string ArtName, RawName;
    if (Cur.Meta.isObject())
      json::forEachMember(Cur.Meta, [&](StringRef K, const json::Value &X) {
        if (K == "name" && X.isString()) {
          RawName = json::decodeString(X);
          ArtName = printable(RawName);
        } else if (K == "encoding" && X.isString())
          Cur.Encoding = printable(json::decodeString(X));
        return true;
      });
    if (const LogEventInfo *Named = lookupLogEvent(Info->Names, ArtName))
      Take(*Named);
    else
      Near(Info->Names, "'" + Cur.Kind + "' name", RawName);
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

StringRef ChunkScanner::nearName(EventForm Form, StringRef Name) {
  StringMap<StringRef> &Seen = NearNames[static_cast<unsigned>(Form)];
  auto It = Seen.find(Name);
  if (It != Seen.end())
    return It->second;
  StringRef Known = nearLogEvent(Form, Name);
  if (Seen.size() < MaxNearNames && Name.size() <= MaxSpanText)
    Seen.try_emplace(Name, Known);
  return Known;
}

/// How Stats.UnknownKinds names an event tlp does not read: its envelope
/// kind, or `artifact:NAME` / `graph_dump:NAME` for the artifact names of
/// those generic kinds.
std::string ChunkScanner::notReadKey() const {
  if (Cur.Named && Cur.ArtName != Cur.Kind)
    return Cur.Kind + ":" + Cur.ArtName;
  return Cur.Kind;
}

/// An event tlp does not interpret: counted by its kind (notReadKey) and
/// kept by reference, with its compile, so that it can be shown raw.
void ChunkScanner::notRead() {
  ++R.NotRead[notReadKey()];
  keepRaw();
}

/// Keep the event by reference (RawEvent) in its compile, to be shown raw:
/// an event tlp does not interpret, or one it reads but whose payload it
/// does not keep (the AOT graphs of the compile events).
void ChunkScanner::keepRaw() {
  RawEvent E;
  E.Name = internSpanText(notReadKey());
  E.Encoding = internSpanText(Cur.Encoding);
  E.Log = LogIndex;
  E.Line = Cur.Line;
  E.Rank = Cur.Rank;
  E.LineOffset = Cur.LineOffset;
  E.LineSize = static_cast<uint32_t>(
      std::min<uint64_t>(Cur.LineSize, UINT32_MAX));
  E.LineHash = xxHash64(Log.substr(E.LineOffset, E.LineSize));
  if (Cur.HasPayload && Cur.PayloadLines) {
    E.PayloadOffset = Cur.PayloadBegin;
    E.PayloadSize = Cur.PayloadEnd - Cur.PayloadBegin;
    E.PayloadLines = Cur.PayloadLines;
  }
  R.Raw.push_back(std::move(E));
  R.RawIds.push_back(Cur.Id);
}

/// A `str` event: an entry of the intern table of file names.
void ChunkScanner::finishStrings() {
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
}

/// dynamo_start, aot_*_graph: a CompileEvent.
void ChunkScanner::finishCompileEvent() {
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
    R.Health.push_back(std::move(H), Cur.Rank, Cur.Id);
  }
  if (Cur.EnvelopeRank)
    R.Ranks.emplace_back(Cur.Line, *Cur.Rank);
  R.Events.push_back(std::move(E));
  R.EventFileIndex.push_back(FileIndex);
  // The AOT graphs: read for grouping, shown raw.
  if (Cur.HasPayload && Cur.PayloadLines)
    keepRaw();
}

void ChunkScanner::finishArtifact() {
  if (!Cur.HasPayload) {
    // PyTorch 2.13 logs the provenance artifacts with no payload when the
    // FX graph cache hits in a run without INDUCTOR_PROVENANCE: a log as
    // designed, so a note. Any other artifact without its payload is lost.
    bool Provenance = Cur.AK == Artifact::AK_NodeMappings ||
                      Cur.AK == Artifact::AK_KernelStackTraces;
    diag(Provenance ? Severity::Note : Severity::Warning, Cur.Line,
         "'" + Cur.ArtName + "' has no payload" +
             (Provenance ? " (PyTorch logs it so on an FX graph cache hit "
                           "without INDUCTOR_PROVENANCE); no provenance "
                           "mapping from it"
                         : "; ignored"),
         StringRef(), DiagClass::Other);
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
    Optional<std::string> Id = aotIdOfLine(Cur.FirstLine);
    if (!Id)
      Id = aotIdOfLine(Cur.AotIdLine);
    if (Id)
      C->AotId = std::move(*Id);
    // How a TORCH_COMPILE_DEBUG folder finds its unit (docs/inputs.md).
    if (Cur.Md5.size() == 32)
      C->Md5 = Cur.Md5.lower();
  }
  if (Cur.EnvelopeRank)
    R.Ranks.emplace_back(Cur.Line, *Cur.Rank);
  R.Artifacts.push_back(std::move(A));
}

} // namespace reader
} // namespace tlp
