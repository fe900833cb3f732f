//===- IRDocumentReader.cpp - IR text read document by document ----------===//
//
// Part of tlp. Splits IR into its documents (text at its markers, the
// compact form at its frames), from memory or from a descriptor read piece
// by piece, and reads a whole stream in order: the module header, the
// compile records, the units, the diagnostics and the end document. Each
// document is parsed by the codec (IRYAML.cpp).
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/IRDocumentReader.h"

#include "IRTextSupport.h"

#include "tlp/IR/IRCompactIO.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>

using namespace llvm;

namespace tlp {

//===----------------------------------------------------------------------===//
// Splitting into documents
//===----------------------------------------------------------------------===//

IRDocumentReader::IRDocumentReader(std::unique_ptr<MemoryBuffer> Buffer,
                                   StringRef Name)
    : Buffer(std::move(Buffer)), AtEOF(true),
      Name(Name.empty() ? this->Buffer->getBufferIdentifier().str()
                        : Name.str()),
      Compact(looksLikeCompactIR(this->Buffer->getBuffer())) {}

IRDocumentReader::IRDocumentReader(int FD, std::string Prefix, StringRef Name)
    : FD(FD), Pending(std::move(Prefix)), Name(Name.str()),
      Compact(looksLikeCompactIR(Pending)) {}

/// The tag of the document that starts \p Text (`!tlp.unit`), or "".
static StringRef documentTag(StringRef Text) {
  while (!Text.empty() && !isDocumentMarker(Text, 0))
    Text = Text.drop_until([](char C) { return C == '\n'; }).drop_front();
  StringRef Marker = Text.take_until([](char C) { return C == '\n'; });
  if (Marker.empty())
    return "";
  return trimWS(Marker.drop_front(3)).take_until([](char C) {
    return C == ' ' || C == '\t';
  });
}

size_t IRDocumentReader::documentLength(StringRef Text, bool AtEnd) {
  // A document runs to the next line that starts with a marker. Inside a
  // document no line can start with `---`: block scalars are indented and
  // YAML ends a document at a marker even inside a flow scalar. Blank lines
  // before the first marker belong to the first document.
  size_t From = Text.find('\n');
  bool SeenContent = !trimWS(Text.take_front(From)).empty();
  while (From != StringRef::npos) {
    size_t Start = From + 1;
    if (Start >= Text.size())
      return StringRef::npos; // the next line is not here yet
    if (SeenContent && isDocumentMarker(Text, Start)) {
      if (Start + 3 == Text.size() && !AtEnd)
        return StringRef::npos; // `---` and perhaps more of that line
      return Start;
    }
    From = Text.find('\n', Start);
    if (!SeenContent)
      SeenContent = !trimWS(Text.slice(Start, From)).empty();
  }
  return StringRef::npos;
}

static bool isBlankDocument(StringRef Text) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Line = trimWS(Line);
    if (!Line.empty() && !Line.startswith("#") && Line != "...")
      return false;
    Text = Rest;
  }
  return true;
}

Error IRDocumentReader::readMore() {
  // Read on in large pieces; a document is rarely more than a few MB.
  size_t Old = Pending.size();
  size_t Want = std::max<size_t>(1 << 20, Old);
  Pending.resize(Old + Want);
  Expected<size_t> Got =
      sys::fs::readNativeFile(sys::fs::convertFDToNativeFile(FD),
                              MutableArrayRef<char>(&Pending[Old], Want));
  if (!Got) {
    Pending.resize(Old);
    return createStringError(errorToErrorCode(Got.takeError()),
                             "cannot read '%s'", Name.c_str());
  }
  Pending.resize(Old + *Got);
  if (*Got == 0)
    AtEOF = true;
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Splitting the compact form into frames
//===----------------------------------------------------------------------===//

/// No document is this large; a frame that says so is corrupt (and is not
/// waited for on a pipe).
static constexpr uint64_t MaxFrameSize = 1ull << 40;

Expected<StringRef> IRDocumentReader::available(size_t Want) {
  if (Buffer)
    return Buffer->getBuffer().substr(Pos);
  while (!AtEOF && Pending.size() < Want)
    if (Error E = readMore())
      return E;
  return StringRef(Pending);
}

void IRDocumentReader::consume(size_t N) {
  if (Buffer)
    Pos += N;
  else
    Pending.erase(0, N);
  Consumed += N;
}

static std::string bytesText(uint64_t N) {
  return std::to_string(N) + (N == 1 ? " byte" : " bytes");
}

Expected<bool> IRDocumentReader::nextFrame(IRDocumentText &D) {
  D.Compact = true;
  D.Line = 0;
  D.Problem.clear();
  D.Storage.clear();
  D.Text = StringRef();
  if (Stopped)
    return false;
  auto Stop = [&](uint64_t Offset, std::string Problem) {
    D.Offset = Offset;
    D.Problem = std::move(Problem);
    Stopped = true;
    ++Count;
    return true;
  };
  if (!PreambleRead) {
    Expected<StringRef> Avail = available(CompactPreambleSize);
    if (!Avail)
      return Avail.takeError();
    PreambleRead = true;
    StringRef P = *Avail;
    StringRef Magic(CompactMagic, CompactMagicSize);
    if (!Magic.startswith(P.take_front(CompactMagicSize)))
      return Stop(0, "the compact IR's magic bytes are wrong (expected "
                     "89 74 6c 70 49 52 0d 0a; was it copied as text?)");
    if (P.size() < CompactPreambleSize)
      return Stop(0, "the compact IR's preamble is cut short: " +
                         bytesText(P.size()) + " of " +
                         std::to_string(CompactPreambleSize));
    size_t At = CompactMagicSize;
    uint32_t Version = 0, Revision = 0;
    readU32(P, At, Version);
    readU32(P, At, Revision);
    if (Version > IRVersion)
      return Stop(CompactMagicSize,
                  "compact IR of version " + std::to_string(Version) +
                      ", newer than this tlp's (" + std::to_string(IRVersion) +
                      "): read it with the tlp that wrote it, or have that "
                      "tlp-opt write the text form (without --compact)");
    if (Version < IRVersion)
      return Stop(CompactMagicSize,
                  "compact IR of version " + std::to_string(Version) +
                      ", older than this tlp's (" + std::to_string(IRVersion) +
                      "); IR of an older tlp: make it again from the log "
                      "with this tlp-opt");
    if (Revision != CompactRevision)
      return Stop(CompactMagicSize + 4,
                  "compact encoding revision " + std::to_string(Revision) +
                      ", not this tlp's (" + std::to_string(CompactRevision) +
                      ")");
    consume(CompactPreambleSize);
  }
  Expected<StringRef> Avail = available(CompactFrameHeaderSize);
  if (!Avail)
    return Avail.takeError();
  if (Avail->empty())
    return false;
  if (Avail->size() < CompactFrameHeaderSize)
    return Stop(Consumed, "the IR ends inside a frame's length (" +
                              bytesText(Avail->size()) +
                              " of 8): it was cut short (truncated?)");
  size_t At = 0;
  uint64_t Length = 0;
  readU64(*Avail, At, Length);
  if (Length > MaxFrameSize)
    return Stop(Consumed, "a frame of " + std::to_string(Length) +
                              " bytes: its length is corrupt");
  Avail = available(CompactFrameHeaderSize + Length);
  if (!Avail)
    return Avail.takeError();
  uint64_t Have = Avail->size() - CompactFrameHeaderSize;
  if (Have < Length)
    return Stop(Consumed, "the IR ends inside a document: its frame says " +
                              bytesText(Length) + ", " +
                              std::to_string(Have) +
                              " follow: it was cut short (truncated?)");
  D.Offset = Consumed + CompactFrameHeaderSize;
  StringRef Body = Avail->substr(CompactFrameHeaderSize, Length);
  if (Buffer) {
    D.Text = Body;
  } else {
    D.Storage.assign(Body.data(), Body.size());
    D.Text = D.Storage;
  }
  consume(CompactFrameHeaderSize + Length);
  ++Count;
  return true;
}

Expected<std::string> IRDocumentReader::peekFrameTag() {
  if (Stopped || !PreambleRead)
    return std::string();
  // The frame's length, the tag's length and the tag.
  Expected<StringRef> Avail = available(CompactFrameHeaderSize + 1 + 64 + 1);
  if (!Avail)
    return Avail.takeError();
  if (Avail->size() < CompactFrameHeaderSize)
    return std::string();
  return compactDocumentTag(Avail->drop_front(CompactFrameHeaderSize)).str();
}

Expected<std::string> IRDocumentReader::peekTag() {
  if (Compact)
    return peekFrameTag();
  while (true) {
    StringRef Rest = Buffer ? Buffer->getBuffer().substr(Pos)
                            : StringRef(Pending);
    // The first marker line, whole: what comes before it (blank lines,
    // comments) belongs to the same document.
    for (size_t I = 0; I < Rest.size();) {
      size_t NL = Rest.find('\n', I);
      if (isDocumentMarker(Rest, I)) {
        if (NL == StringRef::npos && !AtEOF)
          break; // the rest of the line has not arrived
        return documentTag(Rest.slice(I, NL)).str();
      }
      if (NL == StringRef::npos)
        break;
      I = NL + 1;
    }
    if (AtEOF)
      return std::string();
    if (Error E = readMore())
      return E;
  }
}

Expected<bool> IRDocumentReader::next(IRDocumentText &D) {
  if (Compact)
    return nextFrame(D);
  while (true) {
    StringRef Doc;
    if (Buffer) {
      StringRef Rest = Buffer->getBuffer().substr(Pos);
      if (Rest.empty())
        return false;
      size_t L = documentLength(Rest, /*AtEnd=*/true);
      Doc = L == StringRef::npos ? Rest : Rest.take_front(L);
      Pos += Doc.size();
      D.Storage.clear();
      D.Text = Doc;
    } else {
      size_t L;
      while ((L = documentLength(Pending, AtEOF)) == StringRef::npos &&
             !AtEOF)
        if (Error E = readMore())
          return E;
      if (Pending.empty())
        return false;
      if (L == StringRef::npos)
        L = Pending.size();
      D.Storage.assign(Pending, 0, L);
      Pending.erase(0, L);
      D.Text = D.Storage;
      Doc = D.Text;
    }
    D.Line = NextLine;
    NextLine += static_cast<unsigned>(std::count(Doc.begin(), Doc.end(), '\n'));
    if (isBlankDocument(Doc))
      continue;
    ++Count;
    return true;
  }
}

//===----------------------------------------------------------------------===//
// Reading a stream in order
//===----------------------------------------------------------------------===//

static std::string countsText(const IREndCounts &C) {
  auto N = [](uint64_t V, const char *One, const char *Many) {
    return std::to_string(V) + " " + (V == 1 ? One : Many);
  };
  return N(C.Units, "unit", "units") + ", " +
         N(C.Compiles, "compile record", "compile records") + " and " +
         N(C.Diagnostics, "diagnostic", "diagnostics");
}

/// "at byte N: " for a place in the compact form, else "".
static std::string byteOf(bool Compact, uint64_t Offset) {
  return Compact ? "at byte " + std::to_string(Offset) + ": " : "";
}

bool checkIREnd(const Optional<IREndCounts> &Said, const IRDocumentText &End,
                const IREndCounts &Read, const IRDocumentReader &R,
                DiagnosticEngine &Diags) {
  if (!Said) {
    Diags.error(R.name(), R.lines(),
                byteOf(R.isCompact(), R.offset()) +
                    "the IR ends without its closing '--- !tlp.end' "
                    "document: it was cut short (truncated?); read " +
                    countsText(Read));
    return false;
  }
  if (Said->Units != Read.Units || Said->Compiles != Read.Compiles ||
      Said->Diagnostics != Read.Diagnostics) {
    Diags.error(R.name(), End.Line,
                byteOf(End.Compact, End.Offset) +
                    "the IR's end document counts " + countsText(*Said) +
                    ", but " + countsText(Read) +
                    " were read: documents are missing or were added");
    return false;
  }
  return true;
}

Error outOfOrder(const IRDocumentText &T, unsigned DocNo, StringRef File,
                 DiagnosticEngine &Diags) {
  Diags.error(File, T.Line,
              byteOf(T.Compact, T.Offset) + "document " + Twine(DocNo) +
                  " is out of order: expected the module header first, "
                  "then the compile records, the units, the diagnostics, "
                  "and the end document last");
  return notValidIR(File);
}

Error parseIRHeader(IRDocumentReader &R, Module &M, DiagnosticEngine &Diags) {
  IRDocumentText T;
  Expected<bool> More = R.next(T);
  if (!More)
    return More.takeError();
  if (!*More) {
    if (R.isCompact())
      Diags.error(R.name(), 0,
                  byteOf(true, R.offset()) +
                      "the compact IR holds no document (expected the "
                      "module header)");
    else
      Diags.error(R.name(), 1, "expected a '--- !tlp.' document");
    return notValidIR(R.name());
  }
  Expected<ParsedIRDocument> D = parseIRDocument(T, R.name(), M, Diags);
  if (!D)
    return D.takeError();
  if (D->Kind != IRDocumentKind::Header)
    return outOfOrder(T, 1, R.name(), Diags);
  // The compile records, one document each: only one YAML tree at a time.
  // Only the next document's first line is read to tell whether it is one:
  // a streaming reader starts its output before the first unit has arrived
  // whole.
  while (true) {
    Expected<std::string> Tag = R.peekTag();
    if (!Tag)
      return Tag.takeError();
    if (*Tag != "!tlp.compile")
      return Error::success();
    Expected<bool> More = R.next(T);
    if (!More)
      return More.takeError();
    if (!*More)
      return Error::success();
    Expected<ParsedIRDocument> C = parseIRDocument(T, R.name(), M, Diags);
    if (!C)
      return C.takeError();
    M.Compiles.push_back(std::move(C->Compile));
  }
}

Expected<std::unique_ptr<Module>> parseModule(MemoryBufferRef Buffer,
                                              DiagnosticEngine &Diags) {
  StringRef File = Buffer.getBufferIdentifier();
  if (!looksLikeIR(Buffer.getBuffer()) &&
      !looksLikeCompactIR(Buffer.getBuffer())) {
    Diags.error(File, 1, "expected a '--- !tlp.' document");
    return notValidIR(File);
  }
  auto M = std::make_unique<Module>();
  IRDocumentReader R(MemoryBuffer::getMemBuffer(Buffer, false), File);
  if (Error E = parseIRHeader(R, *M, Diags))
    return E;
  bool SeenDiags = false;
  Optional<IREndCounts> End;
  IRDocumentText EndAt;
  IREndCounts Read;
  IRDocumentText T;
  while (true) {
    Expected<bool> More = R.next(T);
    if (!More)
      return More.takeError();
    if (!*More)
      break;
    Expected<ParsedIRDocument> D = parseIRDocument(T, File, *M, Diags);
    if (!D)
      return D.takeError();
    if (D->Kind == IRDocumentKind::Header ||
        D->Kind == IRDocumentKind::Compile || End ||
        (SeenDiags && D->Kind != IRDocumentKind::End))
      return outOfOrder(T, R.count(), File, Diags);
    if (D->Kind == IRDocumentKind::Unit) {
      M->Units.push_back(std::move(D->Unit));
    } else if (D->Kind == IRDocumentKind::End) {
      End = D->End;
      EndAt.Line = T.Line;
      EndAt.Compact = T.Compact;
      EndAt.Offset = T.Offset;
    } else {
      SeenDiags = true;
      M->Diagnostics = std::move(D->Diagnostics);
    }
  }
  // A stream cut at a document boundary: what was read is kept, with an
  // error (as a cut log is read).
  Read.Units = M->Units.size();
  Read.Compiles = M->Compiles.size();
  Read.Diagnostics = M->Diagnostics.size();
  checkIREnd(End, EndAt, Read, R, Diags);
  return M;
}

} // namespace tlp
