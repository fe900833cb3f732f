//===- IRCompactIO.h - The compact binary form of the IR --------*- C++ -*-===//
//
// Part of tlp. The compact form is the same IR as the text form (IRYAML.h)
// written by the same YAML traits through two other subclasses of
// llvm::yaml::IO: CompactOutput writes a document as a length-prefixed
// binary stream, CompactInput reads one back without building YAML node
// trees. It exists for the pipe `tlp-opt --compact | tlp-emit`, where
// writing and parsing YAML were a quarter and over half of each side; the
// text form stays the default. See docs/IR.md, "The compact form".
//
// A stream is the preamble (CompactMagic, the IR version and the
// encoding's revision, little-endian 32-bit each) and then one frame per
// document: a 64-bit little-endian body length, and the body: the
// document's tag, its key table and its root value.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_IRCOMPACTIO_H
#define TLP_IR_IRCOMPACTIO_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/YAMLTraits.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tlp {

/// The first bytes of a compact IR stream. Not text: a high first byte, and
/// a CR LF that a text-mode copy would change.
constexpr char CompactMagic[] = "\x89tlpIR\r\n";
constexpr size_t CompactMagicSize = 8;
/// The revision of the encoding (the IR version counts the keys).
constexpr uint32_t CompactRevision = 1;
/// Magic, IR version, revision.
constexpr size_t CompactPreambleSize = CompactMagicSize + 8;
/// A frame's length field.
constexpr size_t CompactFrameHeaderSize = 8;

/// True if \p Prefix starts like compact IR: the first 4 bytes of
/// CompactMagic (the reader checks the rest).
bool looksLikeCompactIR(llvm::StringRef Prefix);

/// The preamble of a stream of this tlp's IR version.
std::string compactPreamble();

/// The bytes of one value type in a document body.
enum class CompactTag : uint8_t {
  Scalar = 1,
  BlockScalar = 2,
  Mapping = 3,
  TaggedMapping = 4,
  Sequence = 5,
};

/// Little-endian and LEB128 helpers of the encoding; the readers return
/// false when the bytes at \p Pos (advanced past them) run past \p End.
void writeU64(std::string &Out, uint64_t V);
void writeVarint(std::string &Out, uint64_t V);
bool readU32(llvm::StringRef Bytes, size_t &Pos, uint32_t &V);
bool readU64(llvm::StringRef Bytes, size_t &Pos, uint64_t &V);
bool readVarint(llvm::StringRef Bytes, size_t &Pos, size_t End, uint64_t &V);

/// The tag of the document body \p Body (`!tlp.unit`), or "" if its first
/// bytes are not a tag.
llvm::StringRef compactDocumentTag(llvm::StringRef Body);

/// The yaml::IO methods both CompactOutput and CompactInput override (the
/// one derives from yaml::IO, the other from yaml::Input, so they share no
/// base of their own).
#define TLP_COMPACT_IO_OVERRIDES                                               \
  bool outputting() const override;                                            \
  unsigned beginSequence() override;                                           \
  bool preflightElement(unsigned, void *&) override;                           \
  void postflightElement(void *) override;                                     \
  void endSequence() override;                                                 \
  bool canElideEmptySequence() override;                                       \
  unsigned beginFlowSequence() override;                                       \
  bool preflightFlowElement(unsigned, void *&) override;                       \
  void postflightFlowElement(void *) override;                                 \
  void endFlowSequence() override;                                             \
  bool mapTag(llvm::StringRef Tag, bool Default) override;                     \
  void beginMapping() override;                                                \
  void endMapping() override;                                                  \
  bool preflightKey(const char *Key, bool Required, bool SameAsDefault,        \
                    bool &UseDefault, void *&) override;                       \
  void postflightKey(void *) override;                                         \
  std::vector<llvm::StringRef> keys() override;                                \
  void beginFlowMapping() override;                                            \
  void endFlowMapping() override;                                              \
  void beginEnumScalar() override;                                             \
  bool matchEnumScalar(const char *Str, bool) override;                        \
  bool matchEnumFallback() override;                                           \
  void endEnumScalar() override;                                               \
  bool beginBitSetScalar(bool &DoClear) override;                              \
  bool bitSetMatch(const char *Str, bool) override;                            \
  void endBitSetScalar() override;                                             \
  void scalarString(llvm::StringRef &S, llvm::yaml::QuotingType) override;     \
  void blockScalarString(llvm::StringRef &S) override;                         \
  void scalarTag(std::string &) override;                                      \
  llvm::yaml::NodeKind getNodeKind() override;                                 \
  void setError(const llvm::Twine &Message) override;

/// Writes one document: `yamlize` a value through it, then frame() it.
/// Keys go to the document's key table, so a key is written once per
/// document and referenced by number after.
class CompactOutput : public llvm::yaml::IO {
public:
  explicit CompactOutput(void *Ctxt = nullptr);
  ~CompactOutput() override;

  /// Append the frame of the document written to \p Out: length, tag, key
  /// table, value. Resets this writer.
  void frame(std::string &Out);
  /// The first error the traits set while writing, or "".
  const std::string &error() const { return Error; }

  TLP_COMPACT_IO_OVERRIDES

private:
  struct Open {
    size_t TagAt;   ///< Where the container's type byte is.
    size_t LengthAt; ///< Where its length field is.
    bool Entries = false;
  };
  void open(CompactTag T);
  void close();
  void scalar(CompactTag T, llvm::StringRef S);

  std::string Body;
  llvm::SmallVector<Open, 16> Stack;
  llvm::StringMap<uint32_t> KeyIds;
  std::vector<llvm::StringRef> Keys;
  std::string RootTag;
  bool EnumWritten = false;
  std::string Error;
};

/// Reads one document body (CompactOutput::frame, less its length) when
/// the traits `yamlize` a value through it, with each container's extent
/// checked before it is read. The first problem (bytes that are not a
/// value, a container longer than what holds it, an unknown or missing
/// key, a key reference past the table) stops the reading; error() and
/// errorOffset() say what and where.
///
/// It derives from llvm::yaml::Input only because YAML I/O's reading of
/// an Optional<T> casts its IO to an Input and asks for the current node:
/// the base is given an empty mapping, which is never a `<none>` scalar.
/// Every method of reading is overridden; no YAML is parsed.
class CompactInput : public llvm::yaml::Input {
public:
  /// \p Body: a document's body; \p Base: its offset in the stream, for
  /// errorOffset().
  CompactInput(llvm::StringRef Body, uint64_t Base, void *Ctxt = nullptr);
  ~CompactInput() override;

  /// Read the body's tag and key table; false (with an error) if they are
  /// not well-formed. Then `yamlize` the root value.
  bool start();
  /// The document's tag (after start()).
  llvm::StringRef tag() const { return Tag; }
  /// After the root value: an error if bytes follow it.
  void finish();

  bool failed() const { return Failed; }
  const std::string &error() const { return Error; }
  /// The offset in the stream of the value the error is about.
  uint64_t errorOffset() const { return ErrorOffset; }

  TLP_COMPACT_IO_OVERRIDES

private:
  struct Entry {
    uint32_t Key;
    size_t Value;
    bool Used = false;
  };
  struct Frame {
    bool IsMap = false;
    size_t End = 0;
    /// A mapping: its tag (a tagged mapping) and entries.
    llvm::StringRef Tag;
    llvm::SmallVector<Entry, 12> Entries;
    /// A sequence: where the next element starts.
    size_t Next = 0;
  };
  /// The end of the innermost container (the body's end at the root).
  size_t limit() const;
  /// The end of the value at \p Pos (checked against \p End), or 0 with an
  /// error set.
  size_t skipValue(size_t Pos, size_t End);
  /// The scalar at Cur into \p S; false (error set) if there is none.
  bool readScalar(llvm::StringRef &S);
  void setErrorAt(size_t Pos, const llvm::Twine &Message);
  void pushMapping();
  unsigned pushSequence();

  llvm::StringRef Body;
  uint64_t Base;
  llvm::StringRef Tag;
  std::vector<llvm::StringRef> Keys;
  size_t Cur = 0;
  std::vector<Frame> Stack;
  llvm::StringRef EnumValue;
  bool EnumMatched = false;
  std::vector<llvm::StringRef> Bits;
  std::vector<bool> BitsUsed;
  bool Failed = false;
  std::string Error;
  uint64_t ErrorOffset = 0;
};

} // namespace tlp

#endif // TLP_IR_IRCOMPACTIO_H
