//===- IRCompactIO.cpp - The compact binary form of the IR ----------------===//
//
// Part of tlp. The two llvm::yaml::IO subclasses of the compact form. A
// document body is its tag, its key table and one value:
//
//   value   := 0x01 varint-length bytes           scalar
//            | 0x02 varint-length bytes           block scalar
//            | 0x03 u64-length entry*             mapping
//            | 0x04 varint-length tag u64-length entry*   tagged mapping
//            | 0x05 u64-length value*             sequence
//   entry   := varint-key-number value
//
// A container's length counts the bytes after its length field, so a
// reader finds any value's end without reading into it.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/IRCompactIO.h"

#include "tlp/IR/Module.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstring>

using namespace llvm;

namespace tlp {

bool looksLikeCompactIR(StringRef Prefix) {
  // The first half: a stream whose magic was damaged (a copy in text mode
  // turns CR LF into LF) is still told as compact IR, and refused as such.
  return Prefix.startswith(StringRef(CompactMagic, 4));
}

static void writeU32(std::string &Out, uint32_t V) {
  for (int I = 0; I < 4; ++I)
    Out += static_cast<char>((V >> (8 * I)) & 0xFF);
}

void writeU64(std::string &Out, uint64_t V) {
  for (int I = 0; I < 8; ++I)
    Out += static_cast<char>((V >> (8 * I)) & 0xFF);
}

static void patchU64(std::string &Out, size_t At, uint64_t V) {
  for (int I = 0; I < 8; ++I)
    Out[At + I] = static_cast<char>((V >> (8 * I)) & 0xFF);
}

void writeVarint(std::string &Out, uint64_t V) {
  while (V >= 0x80) {
    Out += static_cast<char>((V & 0x7F) | 0x80);
    V >>= 7;
  }
  Out += static_cast<char>(V);
}

bool readU32(StringRef Bytes, size_t &Pos, uint32_t &V) {
  if (Pos > Bytes.size() || Bytes.size() - Pos < 4)
    return false;
  V = 0;
  for (int I = 0; I < 4; ++I)
    V |= uint32_t(static_cast<unsigned char>(Bytes[Pos + I])) << (8 * I);
  Pos += 4;
  return true;
}

bool readU64(StringRef Bytes, size_t &Pos, uint64_t &V) {
  if (Pos > Bytes.size() || Bytes.size() - Pos < 8)
    return false;
  V = 0;
  for (int I = 0; I < 8; ++I)
    V |= uint64_t(static_cast<unsigned char>(Bytes[Pos + I])) << (8 * I);
  Pos += 8;
  return true;
}

bool readVarint(StringRef Bytes, size_t &Pos, size_t End, uint64_t &V) {
  V = 0;
  End = std::min(End, Bytes.size());
  for (unsigned Shift = 0; Shift < 64; Shift += 7) {
    if (Pos >= End)
      return false;
    unsigned char B = static_cast<unsigned char>(Bytes[Pos++]);
    if (Shift == 63 && (B & 0x7E))
      return false; // past 64 bits
    V |= uint64_t(B & 0x7F) << Shift;
    if (!(B & 0x80))
      return true;
  }
  return false;
}

std::string compactPreamble() {
  std::string P(CompactMagic, CompactMagicSize);
  writeU32(P, IRVersion);
  writeU32(P, CompactRevision);
  return P;
}

/// A document's tag: short, and printable.
static constexpr uint64_t MaxTagSize = 64;

StringRef compactDocumentTag(StringRef Body) {
  size_t Pos = 0;
  uint64_t N;
  if (!readVarint(Body, Pos, Body.size(), N) || N > MaxTagSize ||
      N > Body.size() - Pos)
    return "";
  return Body.substr(Pos, N);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

CompactOutput::CompactOutput(void *Ctxt) : IO(Ctxt) {}
CompactOutput::~CompactOutput() = default;

bool CompactOutput::outputting() const { return true; }

void CompactOutput::open(CompactTag T) {
  Open O;
  O.TagAt = Body.size();
  Body += static_cast<char>(T);
  O.LengthAt = Body.size();
  writeU64(Body, 0);
  Stack.push_back(O);
}

void CompactOutput::close() {
  assert(!Stack.empty() && "close without open");
  Open O = Stack.pop_back_val();
  patchU64(Body, O.LengthAt, Body.size() - O.LengthAt - 8);
}

void CompactOutput::scalar(CompactTag T, StringRef S) {
  Body += static_cast<char>(T);
  writeVarint(Body, S.size());
  Body.append(S.data(), S.size());
}

void CompactOutput::frame(std::string &Out) {
  assert(Stack.empty() && "a container is still open");
  std::string Head;
  writeVarint(Head, RootTag.size());
  Head += RootTag;
  writeVarint(Head, Keys.size());
  for (StringRef K : Keys) {
    writeVarint(Head, K.size());
    Head.append(K.data(), K.size());
  }
  writeU64(Out, Head.size() + Body.size());
  Out += Head;
  Out += Body;
  Body.clear();
  KeyIds.clear();
  Keys.clear();
  RootTag.clear();
}

unsigned CompactOutput::beginSequence() {
  open(CompactTag::Sequence);
  return 0;
}
bool CompactOutput::preflightElement(unsigned, void *&) { return true; }
void CompactOutput::postflightElement(void *) {}
void CompactOutput::endSequence() { close(); }
// An optional key whose sequence is empty is left out: read back, the
// sequence is empty as well.
bool CompactOutput::canElideEmptySequence() { return true; }
unsigned CompactOutput::beginFlowSequence() { return beginSequence(); }
bool CompactOutput::preflightFlowElement(unsigned I, void *&S) {
  return preflightElement(I, S);
}
void CompactOutput::postflightFlowElement(void *S) { postflightElement(S); }
void CompactOutput::endFlowSequence() { endSequence(); }

bool CompactOutput::mapTag(StringRef Tag, bool Default) {
  if (!Default)
    return false;
  if (Stack.empty() || Stack.back().Entries ||
      Body[Stack.back().TagAt] != static_cast<char>(CompactTag::Mapping)) {
    setError("a tag after the keys of its mapping");
    return Default;
  }
  // Mapping -> tagged mapping: the tag goes between the type byte and the
  // length, which is all the mapping holds yet.
  Open &O = Stack.back();
  Body[O.TagAt] = static_cast<char>(CompactTag::TaggedMapping);
  std::string T;
  writeVarint(T, Tag.size());
  T += Tag.str();
  Body.insert(O.TagAt + 1, T);
  O.LengthAt += T.size();
  if (Stack.size() == 1)
    RootTag = Tag.str();
  return Default;
}

void CompactOutput::beginMapping() { open(CompactTag::Mapping); }
void CompactOutput::endMapping() { close(); }
void CompactOutput::beginFlowMapping() { beginMapping(); }
void CompactOutput::endFlowMapping() { endMapping(); }

bool CompactOutput::preflightKey(const char *Key, bool Required,
                                 bool SameAsDefault, bool &UseDefault,
                                 void *&) {
  UseDefault = false;
  // As yaml::Output: a value equal to its default is not written.
  if (!Required && SameAsDefault)
    return false;
  auto [It, New] = KeyIds.try_emplace(Key, static_cast<uint32_t>(Keys.size()));
  if (New)
    Keys.push_back(It->getKey());
  writeVarint(Body, It->second);
  if (!Stack.empty())
    Stack.back().Entries = true;
  return true;
}
void CompactOutput::postflightKey(void *) {}
std::vector<StringRef> CompactOutput::keys() { return {}; }

void CompactOutput::beginEnumScalar() { EnumWritten = false; }
bool CompactOutput::matchEnumScalar(const char *Str, bool Match) {
  if (Match && !EnumWritten) {
    scalar(CompactTag::Scalar, Str);
    EnumWritten = true;
  }
  return false;
}
bool CompactOutput::matchEnumFallback() {
  if (EnumWritten)
    return false;
  EnumWritten = true;
  return true;
}
void CompactOutput::endEnumScalar() {
  if (EnumWritten)
    return;
  // The value stays a scalar, so that the document stays well-formed.
  scalar(CompactTag::Scalar, "");
  setError("an enumeration value with no name");
}

bool CompactOutput::beginBitSetScalar(bool &DoClear) {
  DoClear = false;
  beginFlowSequence();
  return true;
}
bool CompactOutput::bitSetMatch(const char *Str, bool Match) {
  if (Match)
    scalar(CompactTag::Scalar, Str);
  return false;
}
void CompactOutput::endBitSetScalar() { endFlowSequence(); }

void CompactOutput::scalarString(StringRef &S, yaml::QuotingType) {
  scalar(CompactTag::Scalar, S);
}
void CompactOutput::blockScalarString(StringRef &S) {
  scalar(CompactTag::BlockScalar, S);
}
void CompactOutput::scalarTag(std::string &) {}

yaml::NodeKind CompactOutput::getNodeKind() {
  report_fatal_error("getNodeKind() while writing compact IR");
}

void CompactOutput::setError(const Twine &Message) {
  if (Error.empty())
    Error = Message.str();
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

/// More entries than any mapping of the IR has: refused before the keys
/// are checked (which compares entries pairwise).
static constexpr size_t MaxMappingEntries = 256;
/// The most keys a document's key table may hold: the IR's traits name a
/// few hundred keys in all; a larger count is damage, refused before
/// anything is reserved for it.
static constexpr uint64_t MaxTableKeys = 4096;

CompactInput::CompactInput(StringRef Body, uint64_t Base, void *Ctxt)
    : Input("{}", Ctxt), Body(Body), Base(Base) {
  // The node YAML I/O asks for when it reads an Optional<T>: a mapping.
  setCurrentDocument();
}

CompactInput::~CompactInput() = default;

bool CompactInput::outputting() const { return false; }

void CompactInput::setErrorAt(size_t Pos, const Twine &Message) {
  if (Failed)
    return;
  Failed = true;
  Error = Message.str();
  ErrorOffset = Base + Pos;
}

void CompactInput::setError(const Twine &Message) { setErrorAt(Cur, Message); }

size_t CompactInput::limit() const {
  return Stack.empty() ? Body.size() : Stack.back().End;
}

static const char *tagName(unsigned char T) {
  switch (static_cast<CompactTag>(T)) {
  case CompactTag::Scalar:
  case CompactTag::BlockScalar:
    return "a scalar";
  case CompactTag::Mapping:
  case CompactTag::TaggedMapping:
    return "a mapping";
  case CompactTag::Sequence:
    return "a sequence";
  }
  return "no value";
}

size_t CompactInput::skipValue(size_t Pos, size_t End) {
  if (Failed)
    return 0;
  if (Pos >= End) {
    setErrorAt(Pos, "expected a value, found the end of its container");
    return 0;
  }
  unsigned char T = static_cast<unsigned char>(Body[Pos]);
  size_t P = Pos + 1;
  uint64_t N;
  switch (static_cast<CompactTag>(T)) {
  case CompactTag::Scalar:
  case CompactTag::BlockScalar:
    if (!readVarint(Body, P, End, N)) {
      setErrorAt(Pos, "a scalar's length runs past the end of its container");
      return 0;
    }
    break;
  case CompactTag::TaggedMapping:
    if (!readVarint(Body, P, End, N) || N > MaxTagSize || N > End - P) {
      setErrorAt(Pos, "a mapping's tag runs past the end of its container");
      return 0;
    }
    P += N;
    LLVM_FALLTHROUGH;
  case CompactTag::Mapping:
  case CompactTag::Sequence:
    if (End - P < 8 || !readU64(Body, P, N)) {
      setErrorAt(Pos, Twine("the length of ") + tagName(T) +
                          " runs past the end of its container");
      return 0;
    }
    break;
  default:
    setErrorAt(Pos, "byte 0x" + utohexstr(T, /*LowerCase=*/true) +
                        " starts no value (a scalar, mapping or sequence)");
    return 0;
  }
  if (N > End - P) {
    setErrorAt(Pos, Twine(tagName(T)) + " of " + Twine(N) +
                        " bytes runs past the end of its container (" +
                        Twine(End - P) + " bytes left)");
    return 0;
  }
  return P + N;
}

bool CompactInput::start() {
  size_t Pos = 0;
  uint64_t N;
  if (!readVarint(Body, Pos, Body.size(), N) || N > MaxTagSize ||
      N > Body.size() - Pos) {
    setErrorAt(0, "the document does not start with its tag");
    return false;
  }
  Tag = Body.substr(Pos, N);
  Pos += N;
  size_t TableAt = Pos;
  if (!readVarint(Body, Pos, Body.size(), N) || N > Body.size() - Pos) {
    setErrorAt(TableAt, "the document's key table is cut short");
    return false;
  }
  if (N > MaxTableKeys) {
    setErrorAt(TableAt, "the document's key table has " + Twine(N) +
                            " keys (at most " + Twine(MaxTableKeys) + ")");
    return false;
  }
  Keys.reserve(N);
  for (uint64_t I = 0; I < N; ++I) {
    size_t At = Pos;
    uint64_t Len;
    if (!readVarint(Body, Pos, Body.size(), Len) || Len > Body.size() - Pos) {
      setErrorAt(At, "key " + Twine(I) + " of the key table runs past the "
                                        "end of the document");
      return false;
    }
    StringRef Key = Body.substr(Pos, Len);
    // Keys reach diagnostics ("key 'K' is repeated"), which hold UTF-8.
    if (firstInvalidUTF8(Key) != StringRef::npos) {
      setErrorAt(At, "key " + Twine(I) + " of the key table is not UTF-8");
      return false;
    }
    Keys.push_back(Key);
    Pos += Len;
  }
  Cur = Pos;
  size_t End = skipValue(Cur, Body.size());
  if (!End)
    return false;
  if (End != Body.size()) {
    setErrorAt(End, Twine(Body.size() - End) +
                        " bytes follow the document's value");
    return false;
  }
  return true;
}

void CompactInput::finish() { assert(Stack.empty() && "unbalanced reading"); }

void CompactInput::pushMapping() {
  size_t Lim = limit();
  Stack.emplace_back();
  Frame &F = Stack.back();
  F.IsMap = true;
  if (Failed)
    return;
  size_t End = skipValue(Cur, Lim);
  if (!End)
    return;
  unsigned char T = static_cast<unsigned char>(Body[Cur]);
  size_t P = Cur + 1;
  if (T == static_cast<unsigned char>(CompactTag::TaggedMapping)) {
    uint64_t N;
    readVarint(Body, P, End, N); // checked by skipValue
    F.Tag = Body.substr(P, N);
    P += N;
  } else if (T != static_cast<unsigned char>(CompactTag::Mapping)) {
    setErrorAt(Cur, Twine("expected a mapping, found ") + tagName(T));
    return;
  }
  P += 8;
  F.End = End;
  while (P < End) {
    size_t At = P;
    uint64_t K;
    if (!readVarint(Body, P, End, K)) {
      setErrorAt(At, "a key runs past the end of its mapping");
      return;
    }
    if (K >= Keys.size()) {
      setErrorAt(At, "key " + Twine(K) + " is not in the document's key "
                                        "table (" +
                         Twine(Keys.size()) + " keys)");
      return;
    }
    if (F.Entries.size() == MaxMappingEntries) {
      setErrorAt(At, "a mapping with more than " + Twine(MaxMappingEntries) +
                         " keys");
      return;
    }
    for (const Entry &E : F.Entries)
      if (E.Key == K) {
        setErrorAt(At, "key '" + Keys[K] + "' is repeated in its mapping");
        return;
      }
    size_t ValueEnd = skipValue(P, End);
    if (!ValueEnd)
      return;
    F.Entries.push_back(Entry{static_cast<uint32_t>(K), P});
    P = ValueEnd;
  }
}

void CompactInput::beginMapping() { pushMapping(); }
void CompactInput::beginFlowMapping() { pushMapping(); }

void CompactInput::endMapping() {
  assert(!Stack.empty() && Stack.back().IsMap && "unbalanced mapping");
  Frame &F = Stack.back();
  for (const Entry &E : F.Entries)
    if (!E.Used) {
      setErrorAt(E.Value, "unknown key '" + Keys[E.Key] + "'");
      break;
    }
  Stack.pop_back();
}
void CompactInput::endFlowMapping() { endMapping(); }

bool CompactInput::mapTag(StringRef T, bool Default) {
  if (Stack.empty() || !Stack.back().IsMap || Stack.back().Tag.empty())
    return Default;
  return Stack.back().Tag == T;
}

bool CompactInput::preflightKey(const char *Key, bool Required, bool,
                                bool &UseDefault, void *&Save) {
  UseDefault = false;
  if (Failed)
    return false;
  if (Stack.empty() || !Stack.back().IsMap) {
    setError("expected a mapping");
    return false;
  }
  StringRef K(Key);
  for (Entry &E : Stack.back().Entries) {
    if (Keys[E.Key] != K)
      continue;
    E.Used = true;
    Save = reinterpret_cast<void *>(Cur);
    Cur = E.Value;
    return true;
  }
  if (Required)
    setError("missing required key '" + K + "'");
  else
    UseDefault = true;
  return false;
}

void CompactInput::postflightKey(void *Save) {
  Cur = reinterpret_cast<size_t>(Save);
}

std::vector<StringRef> CompactInput::keys() {
  std::vector<StringRef> Out;
  if (!Stack.empty() && Stack.back().IsMap)
    for (const Entry &E : Stack.back().Entries)
      Out.push_back(Keys[E.Key]);
  return Out;
}

unsigned CompactInput::pushSequence() {
  size_t Lim = limit();
  Stack.emplace_back();
  Frame &F = Stack.back();
  if (Failed)
    return 0;
  size_t End = skipValue(Cur, Lim);
  if (!End)
    return 0;
  unsigned char T = static_cast<unsigned char>(Body[Cur]);
  if (T != static_cast<unsigned char>(CompactTag::Sequence)) {
    setErrorAt(Cur, Twine("expected a sequence, found ") + tagName(T));
    return 0;
  }
  size_t P = Cur + 9;
  F.End = End;
  F.Next = P;
  unsigned Count = 0;
  while (P < End) {
    P = skipValue(P, End);
    if (!P)
      return 0;
    ++Count;
  }
  return Count;
}

unsigned CompactInput::beginSequence() { return pushSequence(); }
unsigned CompactInput::beginFlowSequence() { return pushSequence(); }

bool CompactInput::preflightElement(unsigned, void *&Save) {
  if (Failed || Stack.empty() || Stack.back().IsMap)
    return false;
  Frame &F = Stack.back();
  if (F.Next >= F.End)
    return false;
  Save = reinterpret_cast<void *>(Cur);
  Cur = F.Next;
  F.Next = skipValue(F.Next, F.End); // checked by pushSequence
  return true;
}
bool CompactInput::preflightFlowElement(unsigned I, void *&Save) {
  return preflightElement(I, Save);
}

void CompactInput::postflightElement(void *Save) {
  Cur = reinterpret_cast<size_t>(Save);
}
void CompactInput::postflightFlowElement(void *Save) {
  postflightElement(Save);
}

void CompactInput::endSequence() {
  assert(!Stack.empty() && !Stack.back().IsMap && "unbalanced sequence");
  Stack.pop_back();
}
void CompactInput::endFlowSequence() { endSequence(); }
bool CompactInput::canElideEmptySequence() { return false; }

bool CompactInput::readScalar(StringRef &S) {
  S = StringRef();
  if (Failed)
    return false;
  size_t End = skipValue(Cur, limit());
  if (!End)
    return false;
  unsigned char T = static_cast<unsigned char>(Body[Cur]);
  if (T != static_cast<unsigned char>(CompactTag::Scalar) &&
      T != static_cast<unsigned char>(CompactTag::BlockScalar)) {
    setErrorAt(Cur, Twine("expected a scalar, found ") + tagName(T));
    return false;
  }
  size_t P = Cur + 1;
  uint64_t N;
  readVarint(Body, P, End, N); // checked by skipValue
  S = Body.slice(P, End);
  // The text form holds only UTF-8 (the log reader repairs what is not),
  // and a string it cannot hold would not print back the same.
  size_t Bad = firstInvalidUTF8(S);
  if (Bad != StringRef::npos) {
    setErrorAt(Cur, "a scalar that is not UTF-8 (at its byte " + Twine(Bad) +
                        ")");
    S = StringRef();
    return false;
  }
  return true;
}

void CompactInput::scalarString(StringRef &S, yaml::QuotingType) {
  readScalar(S);
}
void CompactInput::blockScalarString(StringRef &S) { readScalar(S); }
void CompactInput::scalarTag(std::string &T) { T.clear(); }

void CompactInput::beginEnumScalar() {
  EnumMatched = false;
  readScalar(EnumValue);
}
bool CompactInput::matchEnumScalar(const char *Str, bool) {
  if (EnumMatched || Failed || EnumValue != Str)
    return false;
  EnumMatched = true;
  return true;
}
bool CompactInput::matchEnumFallback() {
  if (EnumMatched || Failed)
    return false;
  EnumMatched = true;
  return true;
}
void CompactInput::endEnumScalar() {
  if (!EnumMatched)
    setError("unknown enumerated scalar '" + EnumValue + "'");
}

bool CompactInput::beginBitSetScalar(bool &DoClear) {
  DoClear = true;
  Bits.clear();
  BitsUsed.clear();
  unsigned N = pushSequence();
  for (unsigned I = 0; I < N && !Failed; ++I) {
    void *Save;
    if (!preflightElement(I, Save))
      break;
    StringRef S;
    if (readScalar(S))
      Bits.push_back(S);
    postflightElement(Save);
  }
  endSequence();
  BitsUsed.assign(Bits.size(), false);
  return !Failed;
}
bool CompactInput::bitSetMatch(const char *Str, bool) {
  for (size_t I = 0; I < Bits.size(); ++I)
    if (Bits[I] == Str) {
      BitsUsed[I] = true;
      return true;
    }
  return false;
}
void CompactInput::endBitSetScalar() {
  for (size_t I = 0; I < Bits.size(); ++I)
    if (!BitsUsed[I]) {
      setError("unknown bit value '" + Bits[I] + "'");
      return;
    }
}

yaml::NodeKind CompactInput::getNodeKind() {
  if (Cur >= Body.size())
    return yaml::NodeKind::Scalar;
  switch (static_cast<CompactTag>(Body[Cur])) {
  case CompactTag::Mapping:
  case CompactTag::TaggedMapping:
    return yaml::NodeKind::Map;
  case CompactTag::Sequence:
    return yaml::NodeKind::Sequence;
  default:
    return yaml::NodeKind::Scalar;
  }
}

} // namespace tlp
