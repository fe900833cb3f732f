//===- IRYAML.cpp - Textual form of the provenance IR ---------------------===//
//
// The codec of the IR text: YAML traits for every IR type, the printers,
// and the parser of one document. Strings that come from logs go through
// SafeString/TextLine so that any byte sequence (after UTF-8 repair by the
// reader) survives a print/parse round trip: LLVM's default quoting would
// single-quote strings with line breaks, which YAML then folds. Splitting a
// stream into documents and reading them in order is IRDocumentReader.cpp.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/IRYAML.h"

#include "IRTextSupport.h"

#include "tlp/IR/Enums.h"
#include "tlp/IR/IRCompactIO.h"
#include "tlp/Support/StringUtils.h"
#include "tlp/Support/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/YAMLTraits.h"

#include <map>

using namespace llvm;
using namespace llvm::yaml;
using namespace tlp;

namespace {

/// A std::string field seen through a pointer, quoted safely on output.
struct SafeString {
  std::string *S = nullptr;
};

/// What the YAML diagnostics of one document need; also the context of
/// YAML I/O, so that a mapping can point an error at a node of its own.
struct DiagContext {
  DiagnosticEngine *Diags = nullptr;
  std::string File;
  unsigned LineOffset = 0;
  bool Failed = false;
  /// The document's text, and where the next error is, when a mapping
  /// knows better than YAML I/O (which reports at the current node).
  StringRef Doc;
  const char *ErrorAt = nullptr;
  /// Reading the compact form (CompactInput): no YAML nodes.
  bool Compact = false;
};

/// One line of an artifact's text.
struct TextLine {
  StringRef V;
};

/// A string of a block sequence (one per line).
struct BlockString {
  std::string V;
};

/// Set while this thread writes a document in the compact form, which
/// quotes nothing: quotingFor() then skips its scans of each string (a
/// quarter of tlp-opt --compact's instructions on the GPT-sized log).
thread_local bool WritingCompact = false;

static QuotingType quotingFor(StringRef S) {
  if (WritingCompact)
    return QuotingType::None;
  QuotingType Q = needsQuotes(S);
  if (Q == QuotingType::Double)
    return Q;
  if (S.find_first_of("\r\n") != StringRef::npos)
    return QuotingType::Double;
  // LLVM leaves flow indicators unquoted, but most IR scalars sit in flow
  // mappings and sequences, where `,[]{}` end a plain scalar.
  if (Q == QuotingType::None && S.find_first_of(",[]{}") != StringRef::npos)
    return QuotingType::Single;
  return Q;
}

/// A cell of a table line: `\\`, `\n`, `\r`, `\t` and `\xHH` for the
/// other control bytes; with \p Space (every cell but the last of a line)
/// also `\x20`. The empty cell is `-`, the cell "-" is `\-`.
/// The length of the UTF-8 sequence at \p S[I] and its code point in
/// \p CP; 0 if the bytes there are not UTF-8.
static unsigned utf8At(StringRef S, size_t I, uint32_t &CP) {
  unsigned char B = static_cast<unsigned char>(S[I]);
  unsigned N = B >= 0xF0 ? 4 : B >= 0xE0 ? 3 : B >= 0xC2 ? 2 : 0;
  if (!N || B > 0xF4 || I + N > S.size())
    return 0;
  CP = B & (0x7F >> N);
  for (unsigned K = 1; K < N; ++K) {
    unsigned char C = static_cast<unsigned char>(S[I + K]);
    if ((C & 0xC0) != 0x80)
      return 0;
    CP = CP << 6 | (C & 0x3F);
  }
  if ((N == 3 && CP < 0x800) || (N == 4 && (CP < 0x10000 || CP > 0x10FFFF)) ||
      (CP >= 0xD800 && CP <= 0xDFFF))
    return 0;
  return N;
}

/// Whether a literal block may hold \p CP as it is: YAML's printable
/// characters, less the ones LLVM's reader or YAML 1.1 take for a line
/// break (NEL, U+2028, U+2029) and the byte-order mark.
static bool blockPrintable(uint32_t CP) {
  return (CP >= 0xA0 && CP <= 0xD7FF && CP != 0x2028 && CP != 0x2029) ||
         (CP >= 0xE000 && CP <= 0xFFFD && CP != 0xFEFF) || CP >= 0x10000;
}

static void writeCell(raw_ostream &OS, StringRef S, bool Space) {
  if (S.empty()) {
    OS << '-';
    return;
  }
  if (S == "-") {
    OS << "\\-";
    return;
  }
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    unsigned char U = static_cast<unsigned char>(C);
    // A space ending the line is escaped too: it is easy to lose.
    bool Last = I + 1 == S.size();
    if (C == '\\')
      OS << "\\\\";
    else if (C == '\n')
      OS << "\\n";
    else if (C == '\r')
      OS << "\\r";
    else if (C == '\t')
      OS << "\\t";
    else if (U < 0x20 || U == 0x7f || (C == ' ' && (Space || Last)))
      OS << "\\x" << hexdigit(U >> 4, true) << hexdigit(U & 15, true);
    else if (U < 0x80)
      OS << C;
    else {
      // Not UTF-8: byte by byte; a character a literal block cannot hold:
      // \uXXXX (all of them are in the BMP).
      uint32_t CP;
      unsigned N = utf8At(S, I, CP);
      if (!N)
        OS << "\\x" << hexdigit(U >> 4, true) << hexdigit(U & 15, true);
      else if (!blockPrintable(CP)) {
        OS << "\\u";
        for (int Shift = 12; Shift >= 0; Shift -= 4)
          OS << hexdigit((CP >> Shift) & 15, true);
        I += N - 1;
      } else {
        OS << S.substr(I, N);
        I += N - 1;
      }
    }
  }
}

/// Read a cell written by writeCell; false if an escape is malformed.
static bool readCell(StringRef S, std::string &Out) {
  Out.clear();
  if (S == "-")
    return true;
  if (S == "\\-") {
    Out = "-";
    return true;
  }
  Out.reserve(S.size());
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C != '\\') {
      Out += C;
      continue;
    }
    if (++I == S.size())
      return false;
    switch (S[I]) {
    case '\\':
      Out += '\\';
      break;
    case 'n':
      Out += '\n';
      break;
    case 'r':
      Out += '\r';
      break;
    case 't':
      Out += '\t';
      break;
    case 'x': {
      unsigned V;
      if (I + 2 >= S.size() || S.substr(I + 1, 2).getAsInteger(16, V))
        return false;
      Out += static_cast<char>(V);
      I += 2;
      break;
    }
    case 'u': {
      unsigned V;
      if (I + 4 >= S.size() || S.substr(I + 1, 4).getAsInteger(16, V) ||
          (V >= 0xD800 && V <= 0xDFFF))
        return false;
      char Buf[4];
      char *P = Buf;
      if (!ConvertCodePointToUTF8(V, P))
        return false;
      Out.append(Buf, P);
      I += 4;
      break;
    }
    default:
      return false;
    }
  }
  return true;
}

/// Call \p F with the \p N cells of each non-empty line of a table;
/// stops at the first line that has fewer cells or that \p F refuses.
static bool forEachRow(StringRef Text, unsigned N,
                       function_ref<bool(ArrayRef<StringRef>)> F);

/// Split a table line into \p N cells: the first N - 1 end at a space, the
/// last takes the rest of the line.
static bool splitCells(StringRef Line, unsigned N,
                       SmallVectorImpl<StringRef> &Cells) {
  Cells.clear();
  for (unsigned I = 0; I + 1 < N; ++I) {
    size_t Sp = Line.find(' ');
    if (Sp == StringRef::npos)
      return false;
    Cells.push_back(Line.substr(0, Sp));
    Line = Line.substr(Sp + 1);
  }
  Cells.push_back(Line);
  return true;
}

static bool forEachRow(StringRef Text, unsigned N,
                       function_ref<bool(ArrayRef<StringRef>)> F) {
  SmallVector<StringRef, 8> Cells;
  while (!Text.empty()) {
    StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    if (Line.empty())
      continue;
    if (!splitCells(Line, N, Cells) || !F(Cells))
      return false;
  }
  return true;
}

using KeyValues = std::pair<std::string, std::vector<std::string>>;
using KeyOrigins = std::pair<std::string, std::vector<NodeOrigin>>;
using KeyInfo = KernelInfoArtifact::Entry;
using KindCount = std::pair<std::string, uint64_t>;
/// A compile record's configuration dump: its name and Module::ConfigTexts
/// index ("{ name: inductor_config, text: 0 }").
struct ConfigRef {
  std::string Name;
  uint32_t Text = 0;
};
using StringPair = std::pair<std::string, std::string>;

/// An artifact in a field or list: borrowed on output, owned on input.
struct ArtifactRef {
  Artifact *A = nullptr;
  std::unique_ptr<Artifact> Owned;
};

/// A stage of a unit's pass timeline: borrowed on output, owned on input.
struct StageText {
  tlp::PassStage *S = nullptr;
  tlp::PassStage Own;
};

/// An FX node with its inputs written as names (of its scope): borrowed on
/// output, owned on input.
struct NodeText {
  tlp::Node *N = nullptr;
  tlp::Node Own;
  std::vector<std::string> Inputs;
  /// Input: where the node's mapping starts, for a located error.
  const char *At = nullptr;
  tlp::Node &node() { return N ? *N : Own; }
};

/// An edge with its ends written as names.
struct EdgeText {
  std::string From;
  std::string To;
  EdgeOrigin Origin = EdgeOrigin::Mapping;
  unsigned Confidence = 100;
};

/// A break reason with its location flattened (one flow mapping).
struct BreakText {
  std::string Reason;
  std::string File;
  uint32_t Line = 0;
  uint32_t Count = 1;
  /// The innermost user frame of the break's user code traceback.
  Optional<SourceLoc> UserFrame;
  std::string Traceback;
};

/// A record's spans as a table, one line per span (docs/IR.md):
/// `ph start dur tid line cat name`. A node per span made these most of
/// the YAML nodes of a record.
struct SpanTable {
  std::vector<tlp::Span> *V = nullptr;
};

/// A record's metrics as a table, one line per metric: `name value`, the
/// value its JSON text.
struct MetricTable {
  MetricList *V = nullptr;
};
/// A sequence of them (CompileRecord::MoreBwdMetrics), each the value of a
/// `metrics` key: llvm::yaml indents a block scalar that is itself a
/// sequence element wrongly from the second on. Refs point into V.
struct MetricTableItem {
  MetricTable T;
};
struct MetricTables {
  std::vector<MetricList> *V = nullptr;
  std::vector<MetricTableItem> Refs;
  // For YAMLTraits' test of an empty optional sequence.
  std::vector<MetricList>::iterator begin() const { return V->begin(); }
  std::vector<MetricList>::iterator end() const { return V->end(); }
};

/// A list of key component indices on one line, runs as ranges:
/// `278 396 3-10 12`. A flow sequence made each index a YAML node (a
/// million of them for the 356 MB benchmark log).
struct IndexList {
  std::vector<uint32_t> *V = nullptr;
};

/// One document of the stream.
struct IRDocument {
  enum DocKind { Header, Compile, Unit, Diags, End, Invalid };
  DocKind Kind = Invalid;
  IREndCounts *E = nullptr;
  Module *M = nullptr;
  CompileRecord *C = nullptr;
  CompileUnit *U = nullptr;
  std::vector<Diagnostic> *D = nullptr;
  std::unique_ptr<CompileUnit> OwnedUnit;
};

} // namespace

LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(SafeString)
LLVM_YAML_IS_SEQUENCE_VECTOR(TextLine)
LLVM_YAML_IS_SEQUENCE_VECTOR(BlockString)
LLVM_YAML_IS_SEQUENCE_VECTOR(KeyValues)
LLVM_YAML_IS_SEQUENCE_VECTOR(KeyOrigins)
LLVM_YAML_IS_SEQUENCE_VECTOR(KeyInfo)
LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(NodeOrigin)
LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(KindCount)
LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(ConfigRef)
LLVM_YAML_IS_SEQUENCE_VECTOR(ArtifactRef)
LLVM_YAML_IS_SEQUENCE_VECTOR(StageText)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::UnitFile)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::DynamoGuard)
LLVM_YAML_IS_SEQUENCE_VECTOR(NodeText)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::KernelDef)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::CallSite)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::BufferAssign)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::SchedulerBuffer)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::SchedulerNode)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::Kernel)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::SourceLoc)
LLVM_YAML_IS_SEQUENCE_VECTOR(EdgeText)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::LogFile)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::CompileEvent)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::Diagnostic)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::CompileRecord)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::CacheLookup)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::ShapeEvent)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::RawEvent)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::ExportEvent)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::RuntimeOp)
LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::RuntimeRecord)
LLVM_YAML_IS_SEQUENCE_VECTOR(BreakText)

namespace {

void mapStr(IO &Io, const char *Key, std::string &S) {
  SafeString W{&S};
  Io.mapRequired(Key, W);
}

void mapOptStr(IO &Io, const char *Key, std::string &S) {
  if (Io.outputting() && S.empty())
    return;
  SafeString W{&S};
  Io.mapOptional(Key, W);
}

void mapStrings(IO &Io, const char *Key, std::vector<std::string> &V,
                bool Optional = true) {
  if (Io.outputting()) {
    if (Optional && V.empty())
      return;
    std::vector<SafeString> W;
    W.reserve(V.size());
    for (std::string &S : V)
      W.push_back(SafeString{&S});
    Io.mapRequired(Key, W);
    return;
  }
  if (Optional)
    Io.mapOptional(Key, V);
  else
    Io.mapRequired(Key, V);
}

void mapTextAs(IO &Io, const char *Key, std::string &Text, bool Optional) {
  if (Io.outputting()) {
    std::vector<StringRef> Lines;
    splitLines(Text, Lines);
    std::vector<TextLine> T;
    T.reserve(Lines.size());
    for (StringRef L : Lines)
      T.push_back(TextLine{L});
    Io.mapRequired(Key, T);
    return;
  }
  std::vector<TextLine> T;
  if (Optional)
    Io.mapOptional(Key, T);
  else
    Io.mapRequired(Key, T);
  size_t Size = T.size();
  for (const TextLine &L : T)
    Size += L.V.size();
  Text.clear();
  Text.reserve(Size);
  for (size_t I = 0; I < T.size(); ++I) {
    if (I)
      Text += '\n';
    Text += T[I].V;
  }
}

void mapText(IO &Io, std::string &Text) {
  mapTextAs(Io, "text", Text, /*Optional=*/false);
}

template <typename T> void mapOptVector(IO &Io, const char *Key, T &V) {
  if (Io.outputting() && V.empty())
    return;
  Io.mapOptional(Key, V);
}

/// A kernel parameter as IR text: `-` (a value), its name (the role its
/// prefix says), or `in_out_ptrN (out)` (Scratch).
std::string paramText(const tlp::KernelParam &P) {
  if (P.Role == tlp::ParamRole::Value)
    return "-";
  if (P.Role == tlp::ParamRole::Scratch)
    return P.Name + " (out)";
  return P.Name;
}

bool parseParam(StringRef T, tlp::KernelParam &P) {
  P = tlp::KernelParam();
  if (T == "-")
    return true;
  bool Scratch = T.consume_back(" (out)");
  if (T.empty() || T.find_if_not(isIdentChar) != StringRef::npos)
    return false;
  P.Name = T.str();
  if (T.startswith("in_out_ptr"))
    P.Role = Scratch ? tlp::ParamRole::Scratch : tlp::ParamRole::InOut;
  else if (Scratch)
    return false;
  else if (T.startswith("in_ptr"))
    P.Role = tlp::ParamRole::In;
  else if (T.startswith("out_ptr"))
    P.Role = tlp::ParamRole::Out;
  else
    return false;
  return true;
}

/// A call argument as IR text: `-` (no buffer), `bufN` or `out=bufN`.
std::string argText(const tlp::CallArg &A) {
  if (A.Buffer.empty())
    return "-";
  return A.Out ? "out=" + A.Buffer : A.Buffer;
}

bool parseArg(StringRef T, tlp::CallArg &A) {
  A = tlp::CallArg();
  if (T == "-")
    return true;
  A.Out = T.consume_front("out=");
  if (!T.startswith("buf") || T.find_if_not(isIdentChar) != StringRef::npos)
    return false;
  A.Buffer = T.str();
  return true;
}

/// A list of \p T written as strings, one per element: \p Text writes one,
/// \p Parse reads one back; an element that does not parse is an error
/// saying \p Why (given the element).
template <typename T>
void mapAsStrings(IO &Io, const char *Key, std::vector<T> &V,
                  std::string (*Text)(const T &), bool (*Parse)(StringRef, T &),
                  function_ref<std::string(StringRef)> Why) {
  std::vector<std::string> Strings;
  if (Io.outputting()) {
    for (const T &X : V)
      Strings.push_back(Text(X));
    mapStrings(Io, Key, Strings);
    return;
  }
  mapStrings(Io, Key, Strings);
  V.resize(Strings.size());
  for (size_t I = 0; I < Strings.size(); ++I)
    if (!Parse(Strings[I], V[I]))
      Io.setError(Why(Strings[I]));
}

} // namespace

namespace llvm {
namespace yaml {

template <> struct ScalarTraits<SafeString> {
  static void output(const SafeString &V, void *, raw_ostream &OS) {
    OS << *V.S;
  }
  static StringRef input(StringRef Scalar, void *, SafeString &V) {
    if (V.S)
      *V.S = Scalar.str();
    return StringRef();
  }
  static QuotingType mustQuote(StringRef S) { return quotingFor(S); }
};

template <> struct ScalarTraits<BlockString> {
  static void output(const BlockString &V, void *, raw_ostream &OS) {
    OS << V.V;
  }
  static StringRef input(StringRef Scalar, void *, BlockString &V) {
    V.V = Scalar.str();
    return StringRef();
  }
  static QuotingType mustQuote(StringRef S) { return quotingFor(S); }
};

template <> struct ScalarTraits<TextLine> {
  static void output(const TextLine &V, void *, raw_ostream &OS) { OS << V.V; }
  static StringRef input(StringRef Scalar, void *, TextLine &V) {
    V.V = Scalar;
    return StringRef();
  }
  static QuotingType mustQuote(StringRef S) { return quotingFor(S); }
};

template <> struct BlockScalarTraits<SpanTable> {
  static void output(const SpanTable &T, void *, raw_ostream &OS) {
    for (const tlp::Span &S : *T.V) {
      if (&S != &T.V->front())
        OS << '\n';
      writeCell(OS, StringRef(&S.Phase, 1), true);
      OS << ' ' << S.Start << ' ' << S.Duration << ' ' << S.Tid << ' '
         << S.Line << ' ';
      writeCell(OS, S.Category, true);
      OS << ' ';
      writeCell(OS, S.Name, false);
    }
  }
  static StringRef input(StringRef Text, void *, SpanTable &T) {
    std::string Ph, Category, Name;
    bool OK = forEachRow(Text, 7, [&](ArrayRef<StringRef> Cells) {
      tlp::Span S;
      if (!readCell(Cells[0], Ph) || Ph.size() != 1 ||
          Cells[1].getAsInteger(10, S.Start) ||
          Cells[2].getAsInteger(10, S.Duration) ||
          Cells[3].getAsInteger(10, S.Tid) ||
          Cells[4].getAsInteger(10, S.Line) ||
          !readCell(Cells[5], Category) || !readCell(Cells[6], Name))
        return false;
      S.Category = internSpanText(Category);
      S.Name = internSpanText(Name);
      S.Phase = Ph[0];
      T.V->push_back(std::move(S));
      return true;
    });
    return OK ? StringRef()
              : "expected a span: 'ph start dur tid line cat name'";
  }
};

template <> struct SequenceTraits<MetricTables> {
  static size_t size(IO &, MetricTables &T) { return T.V->size(); }
  static MetricTableItem &element(IO &, MetricTables &T, size_t I) {
    if (I >= T.V->size())
      T.V->resize(I + 1);
    T.Refs.resize(T.V->size());
    for (size_t J = 0; J < T.V->size(); ++J)
      T.Refs[J].T.V = &(*T.V)[J];
    return T.Refs[I];
  }
};
template <> struct MappingTraits<MetricTableItem> {
  static void mapping(IO &Io, MetricTableItem &I) {
    Io.mapRequired("metrics", I.T);
  }
};

template <> struct BlockScalarTraits<MetricTable> {
  static void output(const MetricTable &T, void *, raw_ostream &OS) {
    for (size_t I = 0; I < T.V->size(); ++I) {
      MetricList::value_type KV = (*T.V)[I];
      if (I)
        OS << '\n';
      writeCell(OS, KV.first, true);
      OS << ' ';
      writeCell(OS, KV.second, false);
    }
  }
  static StringRef input(StringRef Text, void *, MetricTable &T) {
    std::string Name, Value;
    bool OK = forEachRow(Text, 2, [&](ArrayRef<StringRef> Cells) {
      if (!readCell(Cells[0], Name) || !readCell(Cells[1], Value))
        return false;
      T.V->emplace_back(Name, Value);
      return true;
    });
    T.V->shrinkToFit();
    return OK ? StringRef() : "expected a metric: 'name value'";
  }
};

template <> struct ScalarTraits<IndexList> {
  static void output(const IndexList &L, void *, raw_ostream &OS) {
    const std::vector<uint32_t> &V = *L.V;
    for (size_t I = 0; I < V.size();) {
      size_t J = I;
      while (J + 1 < V.size() && V[J + 1] == V[J] + 1)
        ++J;
      if (I)
        OS << ' ';
      OS << V[I];
      if (J > I)
        OS << '-' << V[J];
      I = J + 1;
    }
  }
  static StringRef input(StringRef Text, void *, IndexList &L) {
    // A range is bounded: the verifier checks each index against the key
    // components, but "0-4000000000" must not be expanded to find out.
    constexpr uint64_t MaxEntries = 1u << 22;
    while (true) {
      Text = Text.ltrim(' ');
      if (Text.empty())
        return StringRef();
      StringRef Item = Text.take_until([](char C) { return C == ' '; });
      Text = Text.drop_front(Item.size());
      StringRef From, To;
      std::tie(From, To) = Item.split('-');
      uint32_t A, B;
      if (From.getAsInteger(10, A))
        return "expected indices and ranges: '3 5-9 12'";
      B = A;
      if (Item.contains('-') && (To.getAsInteger(10, B) || B < A))
        return "expected indices and ranges: '3 5-9 12'";
      if (L.V->size() + (uint64_t(B) - A) >= MaxEntries)
        return "too many indices";
      for (uint64_t I = A; I <= B; ++I)
        L.V->push_back(static_cast<uint32_t>(I));
    }
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<CompileId> {
  static void output(const CompileId &V, void *, raw_ostream &OS) {
    OS << V.str();
  }
  static StringRef input(StringRef Scalar, void *, CompileId &V) {
    Optional<CompileId> Id = CompileId::parse(Scalar);
    if (!Id)
      return "invalid compile id";
    V = *Id;
    return StringRef();
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::Single; }
};

// The enumerations of Enums.def, and the diagnostic severities.
#define TLP_ENUM(TYPE, NAMEFN, PARSEFN)                                        \
  template <> struct ScalarEnumerationTraits<TYPE> {                           \
    static void enumeration(IO &Io, TYPE &V) {                                 \
      for (TYPE K : tlp::enumValues<TYPE>())                                   \
        Io.enumCase(V, NAMEFN(K).data(), K);                                   \
    }                                                                          \
  };
#include "tlp/IR/Enums.def"
template <> struct ScalarEnumerationTraits<Severity> {
  static void enumeration(IO &Io, Severity &V) {
    for (Severity K : {Severity::Error, Severity::Warning, Severity::Note})
      Io.enumCase(V, severityName(K).data(), K);
  }
};

template <> struct MappingTraits<SourceLoc> {
  static void mapping(IO &Io, SourceLoc &S) {
    mapStr(Io, "file", S.File);
    Io.mapRequired("line", S.Line);
    mapOptStr(Io, "function", S.Function);
    mapOptStr(Io, "code", S.Code);
    // The underlined part of `code`: [begin, end), 0-based offsets into
    // it. Optional, so IR written before spans were kept reads as before.
    std::vector<uint32_t> Span;
    if (Io.outputting() && S.hasSpan())
      Span = {S.SpanBegin, S.SpanEnd};
    mapOptVector(Io, "span", Span);
    if (Io.outputting() || Span.empty())
      return;
    if (Span.size() != 2 || Span[0] >= Span[1] || Span[1] > S.Code.size()) {
      Io.setError("source span must be [begin, end) inside its code (" +
                  Twine(S.Code.size()) + " characters)");
      return;
    }
    S.SpanBegin = Span[0];
    S.SpanEnd = Span[1];
  }
  static const bool flow = true;
};

template <> struct MappingTraits<KeyValues> {
  static void mapping(IO &Io, KeyValues &KV) {
    mapStr(Io, "key", KV.first);
    mapStrings(Io, "values", KV.second, /*Optional=*/false);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<NodeOrigin> {
  static void mapping(IO &Io, NodeOrigin &O) {
    mapStr(Io, "name", O.Name);
    Io.mapRequired("graph_id", O.GraphId);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<KeyOrigins> {
  static void mapping(IO &Io, KeyOrigins &KV) {
    mapStr(Io, "key", KV.first);
    Io.mapRequired("origins", KV.second);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<KeyInfo> {
  static void mapping(IO &Io, KeyInfo &KV) {
    mapStr(Io, "kernel", KV.Kernel);
    mapStr(Io, "info", KV.Info);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<ConfigRef> {
  static void mapping(IO &Io, ConfigRef &C) {
    mapStr(Io, "name", C.Name);
    Io.mapRequired("text", C.Text);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<KindCount> {
  static void mapping(IO &Io, KindCount &KC) {
    mapStr(Io, "kind", KC.first);
    Io.mapRequired("count", KC.second);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<StringPair> {
  static void mapping(IO &Io, StringPair &P) {
    mapStr(Io, "pre", P.first);
    mapStr(Io, "post", P.second);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<NodeText> {
  static void mapping(IO &Io, NodeText &T) {
    tlp::Node &N = T.node();
    mapStr(Io, "name", N.Name);
    Io.mapRequired("op", N.Op);
    mapOptStr(Io, "target", N.Target);
    mapOptStr(Io, "type", N.Type);
    Io.mapRequired("line", N.Line);
    mapOptStr(Io, "scope", N.Scope);
    Io.mapOptional("comment", N.CommentLine, 0u);
    Io.mapOptional("source", N.Source);
    mapStrings(Io, "inputs", T.Inputs);
    auto *C = static_cast<DiagContext *>(Io.getContext());
    if (!Io.outputting() && C && !C->Compact)
      if (const yaml::Node *Here =
              static_cast<yaml::Input &>(Io).getCurrentNode())
        T.At = Here->getSourceRange().Start.getPointer();
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::KernelDef> {
  static void mapping(IO &Io, tlp::KernelDef &D) {
    mapStr(Io, "name", D.Name);
    Io.mapRequired("kind", D.Kind);
    Io.mapRequired("begin", D.Begin);
    Io.mapRequired("end", D.End);
    Io.mapOptional("header", D.HeaderBegin, 0u);
    mapStrings(Io, "topo", D.TopoNames);
    mapOptVector(Io, "source_to_aten", D.SourceToAten);
    mapStrings(Io, "fragment", D.FragmentNodes);
    mapAsStrings<tlp::KernelParam>(
        Io, "params", D.Params, paramText, parseParam, [&](StringRef P) {
          return "parameter '" + P.str() + "' of definition '" + D.Name +
                 "' is not '-', a pointer parameter (in_ptrN, out_ptrN, "
                 "in_out_ptrN) or 'in_out_ptrN (out)'";
        });
  }
};

template <> struct MappingTraits<tlp::BufferAssign> {
  static void mapping(IO &Io, tlp::BufferAssign &A) {
    Io.mapRequired("line", A.Line);
    mapStr(Io, "buffer", A.Buffer);
    mapOptStr(Io, "from", A.From);
  }
  static const bool flow = true;
};

/// A scheduler dependency as IR text: `MemoryDep buf0`, `StarDep buf1
/// unmet`.
static std::string depText(const tlp::SchedulerDep &D) {
  std::string S = tlp::depKindName(D.Kind).str() + " " + D.Buffer;
  if (D.Unmet)
    S += " unmet";
  return S;
}

static bool parseDep(StringRef T, tlp::SchedulerDep &D) {
  D = tlp::SchedulerDep();
  D.Unmet = T.consume_back(" unmet");
  StringRef Kind;
  std::tie(Kind, T) = T.split(' ');
  if (T.empty())
    return false;
  if (!tlp::parseDepKind(Kind, D.Kind))
    return false;
  D.Buffer = T.str();
  return true;
}

static void mapDeps(IO &Io, const char *Key, std::vector<tlp::SchedulerDep> &V) {
  std::vector<std::string> Texts;
  if (Io.outputting()) {
    for (const tlp::SchedulerDep &D : V)
      Texts.push_back(depText(D));
    mapStrings(Io, Key, Texts);
    return;
  }
  mapStrings(Io, Key, Texts);
  V.clear();
  for (const std::string &T : Texts) {
    V.emplace_back();
    if (!parseDep(T, V.back())) {
      Io.setError("'" + T + "' is not a dependency (`MemoryDep buf0`, "
                  "`StarDep buf1 unmet`)");
      return;
    }
  }
}

template <> struct MappingTraits<tlp::SchedulerBuffer> {
  static void mapping(IO &Io, tlp::SchedulerBuffer &B) {
    mapStr(Io, "name", B.Name);
    mapOptStr(Io, "type", B.Type);
    mapOptStr(Io, "layout", B.Layout);
    mapStrings(Io, "users", B.Users);
  }
};

template <> struct MappingTraits<tlp::SchedulerNode> {
  static void mapping(IO &Io, tlp::SchedulerNode &N) {
    mapStr(Io, "name", N.Name);
    mapStr(Io, "class", N.Class);
    mapOptStr(Io, "detail", N.Detail);
    Io.mapRequired("line", N.Line);
    Io.mapOptional("end_line", N.EndLine, 0u);
    Io.mapOptional("parent", N.Parent);
    mapOptVector(Io, "sub_nodes", N.SubNodes);
    mapDeps(Io, "writes", N.Writes);
    mapDeps(Io, "reads", N.Reads);
    mapOptVector(Io, "outputs", N.Outputs);
    mapOptStr(Io, "extern_kernel", N.ExternKernel);
    mapOptStr(Io, "device", N.Device);
    mapOptStr(Io, "iteration", N.Iteration);
    mapOptStr(Io, "sizes", N.Sizes);
    mapStrings(Io, "ops", N.Ops);
    Io.mapOptional("kernel", N.Kernel);
    mapOptStr(Io, "kernel_by", N.KernelBy);
    mapOptVector(Io, "post_nodes", N.PostNodes);
    mapOptStr(Io, "post_nodes_by", N.PostNodesBy);
    Io.mapOptional("post_nodes_confidence", N.PostNodesConfidence,
                   uint8_t(0));
    mapOptStr(Io, "post_nodes_unknown", N.PostNodesUnknown);
    mapOptVector(Io, "pre_fusion_nodes", N.PreFusionNodes);
  }
};

template <> struct MappingTraits<tlp::CallSite> {
  static void mapping(IO &Io, tlp::CallSite &C) {
    mapStr(Io, "kernel", C.Kernel);
    Io.mapRequired("kind", C.Kind);
    Io.mapRequired("line", C.Line);
    Io.mapOptional("handle", C.Handle);
    Io.mapOptional("handle_line", C.HandleLine, 0u);
    Io.mapOptional("topo_line", C.TopoLine, 0u);
    mapStrings(Io, "topo", C.TopoNames);
    mapAsStrings<tlp::CallArg>(
        Io, "args", C.Args, argText, parseArg, [&](StringRef A) {
          return "argument '" + A.str() + "' of the call of '" + C.Kernel +
                 "' is not '-', a buffer (bufN) or 'out=bufN'";
        });
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::Kernel> {
  static void mapping(IO &Io, tlp::Kernel &K) {
    mapStr(Io, "name", K.Name);
    Io.mapOptional("handle", K.Handle);
    Io.mapRequired("kind", K.Kind);
    mapOptVector(Io, "calls", K.CallLines);
    Io.mapOptional("def", K.Def);
    Io.mapOptional("kernel_code_def", K.KernelCodeDef);
    Io.mapOptional("in_mapping", K.InMapping, false);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<EdgeText> {
  static void mapping(IO &Io, EdgeText &E) {
    mapStr(Io, "from", E.From);
    mapStr(Io, "to", E.To);
    Io.mapRequired("origin", E.Origin);
    Io.mapOptional("confidence", E.Confidence, 100u);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::LogFile> {
  static void mapping(IO &Io, tlp::LogFile &L) {
    mapStr(Io, "path", L.Path);
    Io.mapOptional("rank", L.Rank);
    Io.mapOptional("event_rank", L.EventRank);
    mapOptStr(Io, "torch_version", L.TorchVersion);
    mapOptStr(Io, "torch_commit", L.TorchCommit);
    Io.mapOptional("dump_file", L.DumpFile, false);
    Io.mapOptional("debug_folder", L.DebugFolder, false);
    Io.mapOptional("pid", L.Pid);
  }
  static const bool flow = true;
};

/// A HeapOptional or SharedOptional as llvm::yaml maps an Optional.
template <typename Opt>
static void mapOptionalLike(IO &Io, const char *Key, Opt &V) {
  auto O = V.optional();
  Io.mapOptional(Key, O);
  if (!Io.outputting())
    V = O;
}

template <> struct MappingTraits<tlp::CompileEvent> {
  static void mapping(IO &Io, tlp::CompileEvent &E) {
    Io.mapRequired("kind", E.Kind);
    Io.mapRequired("log", E.Log);
    Io.mapRequired("line", E.Line);
    Io.mapOptional("rank", E.Rank);
    Io.mapOptional("compile_id", E.Id);
    mapOptStr(Io, "subgraph", E.Subgraph);
    mapOptionalLike(Io, "frame", E.Frame);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::Diagnostic> {
  static void mapping(IO &Io, tlp::Diagnostic &D) {
    Io.mapRequired("severity", D.Sev);
    mapOptStr(Io, "file", D.File);
    Io.mapOptional("line", D.Line, 0u);
    mapStr(Io, "message", D.Message);
    mapOptStr(Io, "excerpt", D.Excerpt);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<BreakText> {
  static void mapping(IO &Io, BreakText &B) {
    mapStr(Io, "reason", B.Reason);
    mapOptStr(Io, "file", B.File);
    Io.mapOptional("line", B.Line, 0u);
    Io.mapOptional("count", B.Count, 1u);
    Io.mapOptional("user_frame", B.UserFrame);
    mapOptStr(Io, "traceback", B.Traceback);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::CacheLookup> {
  static void mapping(IO &Io, tlp::CacheLookup &C) {
    Io.mapRequired("cache", C.Cache);
    Io.mapRequired("result", C.Result);
    Io.mapRequired("line", C.Line);
    mapOptStr(Io, "subgraph", C.Subgraph);
    mapOptStr(Io, "key", C.Key);
    mapOptStr(Io, "aot_id", C.AotId);
    mapOptStr(Io, "reason", C.Reason);
    Io.mapOptional("time_saved_ms", C.TimeSavedMs);
    if (!Io.outputting() || !C.Components.empty()) {
      std::vector<uint32_t> Components = C.Components.vec();
      IndexList L{&Components};
      Io.mapOptional("components", L);
      if (!Io.outputting())
        C.Components = std::move(Components);
    }
  }
};

template <> struct MappingTraits<tlp::ShapeEvent> {
  static void mapping(IO &Io, tlp::ShapeEvent &E) {
    Io.mapRequired("kind", E.Kind);
    Io.mapRequired("line", E.Line);
    mapOptStr(Io, "symbol", E.Sym);
    mapOptStr(Io, "source", E.Source);
    mapOptStr(Io, "value", E.Value);
    mapOptStr(Io, "range", E.Range);
    mapOptStr(Io, "expr", E.Expr);
    Io.mapOptional("user_frame", E.UserFrame);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::RuntimeOp> {
  static void mapping(IO &Io, tlp::RuntimeOp &O) {
    mapStr(Io, "name", O.Name);
    mapOptStr(Io, "type", O.Type);
    Io.mapOptional("estimated_ns", O.EstimatedNs, 0.0);
    mapOptStr(Io, "outputs", O.Outputs);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::RuntimeRecord> {
  static void mapping(IO &Io, tlp::RuntimeRecord &R) {
    Io.mapRequired("line", R.Line);
    mapStrings(Io, "names", R.Names);
    mapOptVector(Io, "ops", R.Ops);
  }
};

template <> struct MappingTraits<tlp::ExportEvent> {
  static void mapping(IO &Io, tlp::ExportEvent &E) {
    Io.mapRequired("kind", E.Kind);
    Io.mapRequired("line", E.Line);
    mapOptStr(Io, "op", E.Op);
    mapOptStr(Io, "reason", E.Reason);
    Io.mapOptional("lines", E.Lines, 0u);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::RawEvent> {
  static void mapping(IO &Io, tlp::RawEvent &E) {
    std::string Name = E.Name.str(), Encoding = E.Encoding.str();
    mapStr(Io, "name", Name);
    mapOptStr(Io, "encoding", Encoding);
    if (!Io.outputting()) {
      E.Name = internSpanText(Name);
      E.Encoding = internSpanText(Encoding);
    }
    Io.mapRequired("log", E.Log);
    Io.mapRequired("line", E.Line);
    Io.mapOptional("rank", E.Rank);
    Io.mapOptional("payload_lines", E.PayloadLines, 0u);
    if (Io.outputting()) {
      const auto *C =
          static_cast<const tlp::RawWriteContext *>(Io.getContext());
      if (!E.isLoaded() && C && !C->embed(E.Log)) {
        // Where it is in its log: the reader of the IR opens the log.
        std::vector<uint64_t> At = {E.LineOffset, E.LineSize, E.PayloadOffset,
                                    E.PayloadSize};
        Io.mapRequired("at", At);
        std::string Hash = llvm::utohexstr(E.LineHash, /*LowerCase=*/true);
        mapStr(Io, "hash", Hash);
        return;
      }
      // The texts, read from the log when not loaded.
      std::string Line, Text;
      bool Have = rawEventTexts(E, C ? C->Reader : nullptr, Line, Text);
      if (!Have) {
        bool Unavailable = true;
        Io.mapRequired("unavailable", Unavailable);
        return;
      }
      mapStr(Io, "event_line", Line);
      if (!Text.empty() || E.PayloadLines)
        mapTextAs(Io, "text", Text, /*Optional=*/true);
      return;
    }
    std::vector<uint64_t> At;
    Io.mapOptional("at", At);
    if (!At.empty()) {
      if (At.size() != 4) {
        Io.setError("'at' of a raw event needs 4 numbers: line offset, line "
                    "size, payload offset, payload size");
        return;
      }
      E.LineOffset = At[0];
      E.LineSize = static_cast<uint32_t>(std::min<uint64_t>(At[1], UINT32_MAX));
      E.PayloadOffset = At[2];
      E.PayloadSize = At[3];
      std::string Hash;
      mapOptStr(Io, "hash", Hash);
      if (!Hash.empty() && llvm::StringRef(Hash).getAsInteger(16, E.LineHash))
        Io.setError("'hash' of a raw event is not hexadecimal");
      return;
    }
    bool Unavailable = false;
    Io.mapOptional("unavailable", Unavailable, false);
    auto T = std::make_shared<tlp::RawEvent::Texts>();
    mapOptStr(Io, "event_line", T->EventLine);
    mapTextAs(Io, "text", T->Text, /*Optional=*/true);
    if (!Unavailable)
      E.Loaded = std::move(T);
  }
};

template <> struct MappingTraits<tlp::CompileRecord> {
  static void mapping(IO &Io, tlp::CompileRecord &R) {
    Io.mapOptional("compile_id", R.Id);
    Io.mapOptional("ordinal", R.Ordinal, 0u);
    Io.mapOptional("log_in_id", R.LogInId, false);
    Io.mapRequired("log", R.Log);
    Io.mapOptional("rank", R.Rank);
    Io.mapRequired("status", R.Status);
    Io.mapRequired("line", R.Line);
    mapOptStr(Io, "fail_type", R.FailType);
    mapOptStr(Io, "fail_reason", R.FailReason);
    mapOptionalLike(Io, "fail_frame", R.FailFrame);
    mapOptionalLike(Io, "fail_user_frame", R.FailUserFrame);
    if (!Io.outputting() || !R.FailTraceback.empty())
      mapTextAs(Io, "fail_traceback", R.FailTraceback, /*Optional=*/true);
    {
      std::vector<SourceLoc> Stack = R.Stack.vec();
      mapOptVector(Io, "stack", Stack);
      if (!Io.outputting())
        R.Stack = std::move(Stack);
    }
    std::vector<BreakText> Breaks;
    if (Io.outputting())
      for (const BreakReason &B : R.Breaks)
        Breaks.push_back(BreakText{
            B.Reason, B.Where ? B.Where->File : "", B.Where ? B.Where->Line : 0u,
            B.Count, B.UserFrame, B.Traceback});
    mapOptVector(Io, "breaks", Breaks);
    if (!Io.outputting())
      for (BreakText &T : Breaks) {
        BreakReason B;
        B.Reason = std::move(T.Reason);
        if (T.Line) {
          SourceLoc L;
          L.File = std::move(T.File);
          L.Line = T.Line;
          B.Where = std::move(L);
        }
        B.Count = T.Count;
        B.UserFrame = std::move(T.UserFrame);
        B.Traceback = std::move(T.Traceback);
        R.Breaks.push_back(std::move(B));
      }
    mapStrings(Io, "recompile_reasons", R.RecompileReasons);
    mapStrings(Io, "ddp_submodules", R.DdpSubmodules);
    Io.mapOptional("guard_count", R.GuardCount);
    if (!Io.outputting() || !R.Guards.empty()) {
      std::string Guards = R.Guards.str();
      mapTextAs(Io, "guards", Guards, /*Optional=*/true);
      if (!Io.outputting())
        R.Guards = std::move(Guards);
    }
    if (!Io.outputting() || !R.Metrics.empty()) {
      MetricTable T{&R.Metrics};
      Io.mapOptional("metrics", T);
    }
    std::vector<ConfigRef> Configs;
    if (Io.outputting())
      for (const auto &C : R.Configs)
        Configs.push_back({C.first, C.second});
    mapOptVector(Io, "configs", Configs);
    Io.mapOptional("config_line", R.ConfigLine, 0u);
    if (!Io.outputting())
      for (ConfigRef &C : Configs)
        R.Configs.emplace_back(std::move(C.Name), C.Text);
    if (!Io.outputting() || !R.BwdMetrics.empty()) {
      MetricTable T{&R.BwdMetrics};
      Io.mapOptional("bwd_metrics", T);
    }
    if (!Io.outputting() || !R.MoreBwdMetrics.empty()) {
      MetricTables T{&R.MoreBwdMetrics, {}};
      Io.mapOptional("more_bwd_metrics", T);
    }
    if (!Io.outputting() || !R.RuntimeMetrics.empty()) {
      MetricTable T{&R.RuntimeMetrics};
      Io.mapOptional("runtime_metrics", T);
    }
    if (!Io.outputting() || !R.BwdRuntimeMetrics.empty()) {
      MetricTable T{&R.BwdRuntimeMetrics};
      Io.mapOptional("bwd_runtime_metrics", T);
    }
    mapOptVector(Io, "caches", R.Caches);
    mapOptVector(Io, "shapes", R.Shapes);
    mapOptVector(Io, "schedules", R.Schedules);
    mapOptVector(Io, "runtimes", R.Runtimes);
    mapOptVector(Io, "executions", R.Executions);
    mapOptVector(Io, "exports", R.Exports);
    mapOptVector(Io, "raw", R.Raw);
    if (!Io.outputting() || !R.Spans.empty()) {
      SpanTable T{&R.Spans};
      Io.mapOptional("spans", T);
    }
  }
};

template <> struct MappingTraits<tlp::UnitKey> {
  static void mapping(IO &Io, tlp::UnitKey &K) {
    Io.mapRequired("log", K.Log);
    Io.mapOptional("rank", K.Rank);
    Io.mapOptional("compile_id", K.Id);
    Io.mapRequired("graph", K.Graph);
    mapOptStr(Io, "fn", K.Fn);
    mapOptStr(Io, "subgraph", K.Subgraph);
    mapOptStr(Io, "folder", K.Folder);
    Io.mapOptional("ordinal", K.Ordinal, 0u);
    Io.mapOptional("log_in_id", K.LogInId, false);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::LogStats> {
  static void mapping(IO &Io, tlp::LogStats &S) {
    Io.mapRequired("lines", S.Lines);
    Io.mapRequired("events", S.Events);
    Io.mapRequired("payloads", S.Payloads);
    Io.mapOptional("md5_mismatches", S.Md5Mismatches, uint64_t(0));
    Io.mapOptional("malformed_lines", S.MalformedLines, uint64_t(0));
    mapOptVector(Io, "unknown_kinds", S.UnknownKinds);
  }
};

/// The nodes of a graph, each input written as the name of a node of the
/// node's scope (the first node of that name there).
static void mapGraphNodes(IO &Io, GraphArtifact &G) {
  std::vector<NodeText> Nodes;
  if (Io.outputting()) {
    Nodes.resize(G.Nodes.size());
    for (size_t I = 0; I < G.Nodes.size(); ++I) {
      Nodes[I].N = &G.Nodes[I];
      for (uint32_t J : G.Nodes[I].Inputs)
        Nodes[I].Inputs.push_back(J < G.Nodes.size() ? G.Nodes[J].Name
                                                     : "#" + std::to_string(J));
    }
    mapOptVector(Io, "nodes", Nodes);
    return;
  }
  mapOptVector(Io, "nodes", Nodes);
  G.Nodes.clear();
  G.Nodes.reserve(Nodes.size());
  for (NodeText &T : Nodes)
    G.Nodes.push_back(std::move(T.Own));
  std::map<std::string, StringMap<uint32_t>> ByScope;
  for (uint32_t I = 0; I < G.Nodes.size(); ++I)
    ByScope[G.Nodes[I].Scope].try_emplace(G.Nodes[I].Name, I);
  for (uint32_t I = 0; I < G.Nodes.size(); ++I) {
    tlp::Node &N = G.Nodes[I];
    const StringMap<uint32_t> &Names = ByScope[N.Scope];
    for (const std::string &Name : Nodes[I].Inputs) {
      auto It = Names.find(Name);
      if (It == Names.end()) {
        // Read after the whole list (an input may come later): YAML I/O
        // would put the error on the graph; point it at the node.
        if (auto *C = static_cast<DiagContext *>(Io.getContext()))
          C->ErrorAt = Nodes[I].At;
        Io.setError("input '" + Name + "' of node '" + N.qualifiedName() +
                    "' names no node of its graph scope");
        return;
      }
      N.Inputs.push_back(It->second);
    }
  }
}

static void mapArtifactBody(IO &Io, Artifact &A) {
  mapStr(Io, "name", A.Name);
  Io.mapRequired("log", A.Log);
  Io.mapRequired("line", A.Line);
  Io.mapOptional("rank", A.Rank);
  Io.mapOptional("compile_id", A.Id);
  mapOptStr(Io, "subgraph", A.Subgraph);

  if (auto *G = dyn_cast<GraphArtifact>(&A)) {
    Io.mapOptional("graph_id", G->GraphId);
    mapGraphNodes(Io, *G);
    mapText(Io, G->Text);
    if (!Io.outputting())
      G->reindex();
    return;
  }
  if (auto *C = dyn_cast<CodeArtifact>(&A)) {
    Io.mapRequired("language", C->Lang);
    mapOptStr(Io, "aot_id", C->AotId);
    mapOptStr(Io, "md5", C->Md5);
    Io.mapOptional("entry_begin", C->EntryBegin, 0u);
    Io.mapOptional("entry_end", C->EntryEnd, 0u);
    mapOptVector(Io, "defs", C->Defs);
    mapOptVector(Io, "calls", C->Calls);
    mapOptVector(Io, "assigns", C->Assigns);
    mapText(Io, C->Text);
    if (!Io.outputting())
      C->reindex();
    return;
  }
  if (auto *M = dyn_cast<MappingArtifact>(&A)) {
    Io.mapOptional("version", M->Version);
    mapOptVector(Io, "pre_to_post", M->PreToPost);
    mapOptVector(Io, "post_to_pre", M->PostToPre);
    mapOptVector(Io, "kernel_to_post", M->KernelToPost);
    mapOptVector(Io, "post_to_kernel", M->PostToKernel);
    return;
  }
  if (auto *S = dyn_cast<StackTraceArtifact>(&A)) {
    mapOptVector(Io, "traces", S->Traces);
    return;
  }
  if (auto *K = dyn_cast<KernelInfoArtifact>(&A)) {
    mapOptVector(Io, "entries", K->Entries);
    return;
  }
  if (auto *T = dyn_cast<NodeTreeArtifact>(&A)) {
    mapOptVector(Io, "entries", T->Entries);
    return;
  }
  if (auto *K = dyn_cast<KernelNodesArtifact>(&A)) {
    mapOptVector(Io, "entries", K->Entries);
    return;
  }
  if (auto *S = dyn_cast<SchedulerIRArtifact>(&A)) {
    mapOptVector(Io, "scheduler_nodes", S->Nodes);
    mapText(Io, S->Text);
    return;
  }
}

template <> struct ScalarEnumerationTraits<tlp::UnitFile::FileKind> {
  static void enumeration(IO &Io, tlp::UnitFile::FileKind &K) {
    for (tlp::UnitFile::FileKind C :
         {tlp::UnitFile::KernelModule, tlp::UnitFile::BestConfig,
          tlp::UnitFile::DynamoCode})
      Io.enumCase(K, tlp::unitFileKindName(C).data(), C);
  }
};

template <> struct MappingTraits<tlp::DynamoGuard> {
  static void mapping(IO &Io, tlp::DynamoGuard &G) {
    Io.mapRequired("line", G.Line);
    mapStr(Io, "code", G.Code);
    mapOptStr(Io, "comment", G.Comment);
  }
  static const bool flow = true;
};

template <> struct MappingTraits<tlp::UnitFile> {
  static void mapping(IO &Io, tlp::UnitFile &F) {
    Io.mapRequired("kind", F.Kind);
    Io.mapRequired("log", F.Log);
    Io.mapOptional("guard_log", F.GuardLog);
    mapOptVector(Io, "guards", F.Guards);
    mapTextAs(Io, "text", F.Text, /*Optional=*/true);
  }
};

template <> struct MappingTraits<ArtifactRef> {
  static void mapping(IO &Io, ArtifactRef &R) {
    std::string KindName;
    if (Io.outputting())
      KindName = artifactKindName(R.A->getKind()).str();
    mapStr(Io, "kind", KindName);
    if (!Io.outputting()) {
      Artifact::ArtifactKind K;
      if (!parseArtifactKind(KindName, K)) {
        Io.setError("unknown artifact kind '" + KindName + "'");
        return;
      }
      R.Owned = createArtifact(K);
      R.A = R.Owned.get();
    }
    mapArtifactBody(Io, *R.A);
  }
};

template <> struct MappingTraits<StageText> {
  static void mapping(IO &Io, StageText &T) {
    tlp::PassStage &S = T.S ? *T.S : T.Own;
    mapStr(Io, "stage", S.Stage);
    ArtifactRef R;
    R.A = S.Graph.get();
    Io.mapRequired("graph", R);
    if (Io.outputting() || !R.Owned)
      return;
    if (!isa<GraphArtifact>(R.Owned.get())) {
      Io.setError("stage '" + S.Stage + "': its graph is a '" +
                  artifactKindName(R.Owned->getKind()) +
                  "', not a graph");
      return;
    }
    S.Graph.reset(cast<GraphArtifact>(R.Owned.release()));
  }
};

} // namespace yaml
} // namespace llvm

namespace {

/// Map a unit's artifact slot; on input check that the kind fits.
template <typename T>
void mapArtifactField(IO &Io, UnitSlot Slot, std::unique_ptr<T> &P) {
  const char *Key = unitSlotRole(Slot).data();
  if (Io.outputting()) {
    if (!P)
      return;
    ArtifactRef R;
    R.A = P.get();
    Io.mapRequired(Key, R);
    return;
  }
  ArtifactRef R;
  Io.mapOptional(Key, R);
  if (!R.Owned)
    return;
  if (unitSlotOf(R.Owned->getKind()) != Slot) {
    Io.setError(Twine("artifact of kind '") +
                artifactKindName(R.Owned->getKind()) + "' cannot be '" + Key +
                "'");
    return;
  }
  P.reset(static_cast<T *>(R.Owned.release()));
}

std::string endpointText(const CompileUnit &U, const KernelKeyIndex &Kernels,
                         const Endpoint &E) {
  switch (E.Kind) {
  case Endpoint::PreNode:
  case Endpoint::PostNode: {
    const char *Prefix = E.Kind == Endpoint::PreNode ? "pre:" : "post:";
    const GraphArtifact *G = U.graphFor(E.Kind);
    if (G && E.Index < G->Nodes.size()) {
      std::string Name = G->Nodes[E.Index].qualifiedName();
      Optional<uint32_t> Found = G->findNode(Name);
      if (Found && *Found == E.Index)
        return Prefix + Name;
    }
    return std::string(Prefix) + "#" + std::to_string(E.Index);
  }
  case Endpoint::KernelRow: {
    if (E.Index < U.Kernels.size()) {
      std::string Key = U.Kernels[E.Index].key();
      Optional<uint32_t> Found = Kernels.find(Key);
      if (Found && *Found == E.Index)
        return "kernel:" + Key;
    }
    return "kernel:#" + std::to_string(E.Index);
  }
  case Endpoint::Source:
    return "src:" + std::to_string(E.Index);
  }
  return "?";
}

/// Parse an endpoint written by endpointText; returns an error message.
std::string parseEndpoint(const CompileUnit &U, const KernelKeyIndex &Kernels,
                          StringRef Text, Endpoint &E) {
  StringRef Prefix, Rest;
  std::tie(Prefix, Rest) = Text.split(':');
  if (Prefix == "pre")
    E.Kind = Endpoint::PreNode;
  else if (Prefix == "post")
    E.Kind = Endpoint::PostNode;
  else if (Prefix == "kernel")
    E.Kind = Endpoint::KernelRow;
  else if (Prefix == "src")
    E.Kind = Endpoint::Source;
  else
    return "bad endpoint '" + Text.str() +
           "': expected 'pre:', 'post:', 'kernel:' or 'src:'";
  uint64_t Index;
  bool ByIndex =
      E.Kind == Endpoint::Source
          ? parseUnsigned(Rest, Index)
          : Rest.startswith("#") && parseUnsigned(Rest.drop_front(), Index);
  size_t Limit = 0;
  if (E.Kind == Endpoint::KernelRow)
    Limit = U.Kernels.size();
  else if (E.Kind == Endpoint::Source)
    Limit = U.Sources.size();
  else if (const GraphArtifact *G = U.graphFor(E.Kind))
    Limit = G->Nodes.size();
  if (ByIndex) {
    if (Index >= Limit)
      return "endpoint '" + Text.str() + "' is out of range";
    E.Index = static_cast<uint32_t>(Index);
    return "";
  }
  if (E.Kind == Endpoint::Source)
    return "bad source endpoint '" + Text.str() + "'";
  Optional<uint32_t> Found;
  if (E.Kind == Endpoint::KernelRow) {
    Found = Kernels.find(Rest);
  } else if (const GraphArtifact *G = U.graphFor(E.Kind)) {
    Found = G->findNode(Rest);
  }
  if (!Found)
    return "endpoint '" + Text.str() + "' names nothing in this unit";
  E.Index = *Found;
  return "";
}

void mapUnit(IO &Io, CompileUnit &U) {
  Io.mapRequired("key", U.Key);
  mapOptionalLike(Io, "frame", U.Frame);
  mapOptVector(Io, "kernels", U.Kernels);
  mapOptVector(Io, "sources", U.Sources);
  std::vector<EdgeText> Edges;
  if (Io.outputting() && !U.Edges.empty()) {
    KernelKeyIndex Kernels(U);
    for (const Edge &E : U.Edges)
      Edges.push_back(EdgeText{endpointText(U, Kernels, E.From),
                               endpointText(U, Kernels, E.To), E.Origin,
                               E.Confidence});
  }
  mapOptVector(Io, "edges", Edges);
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE)                               \
  mapArtifactField(Io, UnitSlot::FIELD, U.FIELD);
#include "tlp/IR/UnitSlots.def"
  std::vector<StageText> Stages;
  if (Io.outputting())
    for (tlp::PassStage &S : U.Stages)
      Stages.push_back(StageText{&S, {}});
  mapOptVector(Io, "stages", Stages);
  if (!Io.outputting())
    for (StageText &T : Stages)
      U.Stages.push_back(std::move(T.Own));
  mapOptVector(Io, "files", U.Files);
  if (Io.outputting() || Edges.empty())
    return;
  KernelKeyIndex Kernels(U);
  for (const EdgeText &T : Edges) {
    Edge E;
    E.Origin = T.Origin;
    if (T.Confidence > 100) {
      Io.setError("edge confidence " + std::to_string(T.Confidence) +
                  " is over 100");
      return;
    }
    E.Confidence = static_cast<uint8_t>(T.Confidence);
    std::string Err = parseEndpoint(U, Kernels, T.From, E.From);
    if (Err.empty())
      Err = parseEndpoint(U, Kernels, T.To, E.To);
    if (!Err.empty()) {
      Io.setError(Err);
      return;
    }
    U.Edges.push_back(E);
  }
}

/// A module table of texts (key components, configuration dumps) as a
/// sequence of block strings, one text each.
void mapTextTable(IO &Io, const char *Key, std::vector<std::string> &Table) {
  std::vector<BlockString> Texts;
  if (Io.outputting())
    for (const std::string &T : Table)
      Texts.push_back(BlockString{T});
  mapOptVector(Io, Key, Texts);
  if (!Io.outputting())
    for (BlockString &T : Texts)
      Table.push_back(std::move(T.V));
}

void mapHeader(IO &Io, Module &M) {
  unsigned Version = IRVersion;
  Io.mapRequired("version", Version);
  if (!Io.outputting() && Version != IRVersion) {
    Io.setError("unsupported IR version " + Twine(Version) + " (expected " +
                Twine(IRVersion) + ")" +
                (Version < IRVersion
                     ? "; IR of an older tlp: make it again from the log "
                       "with this tlp-opt"
                     : ""));
    return;
  }
  std::string Producer = std::string("tlp ") + TLP_VERSION_STRING;
  mapStr(Io, "producer", Producer);
  mapOptVector(Io, "logs", M.Logs);
  Io.mapRequired("stats", M.Stats);
  mapOptVector(Io, "events", M.Events);
  // One text a line: key components and configuration dumps are long, and
  // grep finds them so.
  mapTextTable(Io, "key_components", M.KeyComponents);
  mapTextTable(Io, "config_texts", M.ConfigTexts);
  mapOptVector(Io, "raw", M.Raw);
  // The compile records follow the header, a `!tlp.compile` document each,
  // so that a reader never holds the YAML tree of them all at once.
  std::vector<ArtifactRef> Refs;
  if (Io.outputting())
    for (const std::unique_ptr<Artifact> &A : M.Artifacts) {
      ArtifactRef R;
      R.A = A.get();
      Refs.push_back(std::move(R));
    }
  mapOptVector(Io, "artifacts", Refs);
  if (!Io.outputting())
    for (ArtifactRef &R : Refs)
      if (R.Owned)
        M.Artifacts.push_back(std::move(R.Owned));
}

} // namespace

namespace llvm {
namespace yaml {
template <> struct MappingTraits<IRDocument> {
  static void mapping(IO &Io, IRDocument &D) {
    if (Io.mapTag("!tlp.module", D.Kind == IRDocument::Header)) {
      D.Kind = IRDocument::Header;
      mapHeader(Io, *D.M);
    } else if (Io.mapTag("!tlp.compile", D.Kind == IRDocument::Compile)) {
      D.Kind = IRDocument::Compile;
      yaml::MappingTraits<CompileRecord>::mapping(Io, *D.C);
    } else if (Io.mapTag("!tlp.unit", D.Kind == IRDocument::Unit)) {
      D.Kind = IRDocument::Unit;
      if (!Io.outputting()) {
        D.OwnedUnit = std::make_unique<CompileUnit>();
        D.U = D.OwnedUnit.get();
      }
      mapUnit(Io, *D.U);
    } else if (Io.mapTag("!tlp.diagnostics", D.Kind == IRDocument::Diags)) {
      D.Kind = IRDocument::Diags;
      Io.mapRequired("diagnostics", *D.D);
    } else if (Io.mapTag("!tlp.end", D.Kind == IRDocument::End)) {
      D.Kind = IRDocument::End;
      Io.mapRequired("units", D.E->Units);
      Io.mapRequired("compiles", D.E->Compiles);
      Io.mapRequired("diagnostics", D.E->Diagnostics);
    } else {
      D.Kind = IRDocument::Invalid;
    }
  }
};
} // namespace yaml
} // namespace llvm

namespace tlp {

static void writeDocument(IRDocument &D, raw_ostream &OS,
                          const RawWriteContext *Raw = nullptr,
                          IRForm Form = IRForm::Text) {
  // The context reads the texts of raw events that are not loaded.
  auto *Ctx = const_cast<RawWriteContext *>(Raw);
  if (Form == IRForm::Compact) {
    CompactOutput Out(Ctx);
    EmptyContext YCtx;
    WritingCompact = true;
    yamlize(Out, D, true, YCtx);
    WritingCompact = false;
    // The traits set no error while writing: what they write is IR.
    assert(Out.error().empty() && "the IR traits failed to write");
    std::string Frame;
    Out.frame(Frame);
    OS << Frame;
    return;
  }
  // A wide wrap column keeps flow mappings (one node, one call site) on one
  // line, which makes the text easy to grep and to check with FileCheck.
  yaml::Output Out(OS, Ctx, /*WrapColumn=*/0);
  Out << D;
}

void printModuleHeader(const Module &M, raw_ostream &OS,
                       const RawWriteContext *Raw, IRForm Form) {
  if (Form == IRForm::Compact)
    OS << compactPreamble();
  IRDocument D;
  D.Kind = IRDocument::Header;
  D.M = const_cast<Module *>(&M);
  writeDocument(D, OS, Raw, Form);
  for (const CompileRecord &C : M.Compiles) {
    IRDocument CD;
    CD.Kind = IRDocument::Compile;
    CD.C = const_cast<CompileRecord *>(&C);
    writeDocument(CD, OS, Raw, Form);
  }
}

void printUnit(const CompileUnit &U, raw_ostream &OS, IRForm Form) {
  IRDocument D;
  D.Kind = IRDocument::Unit;
  D.U = const_cast<CompileUnit *>(&U);
  writeDocument(D, OS, nullptr, Form);
}

void printDiagnosticsDocument(ArrayRef<Diagnostic> Diags, raw_ostream &OS,
                              IRForm Form) {
  std::vector<Diagnostic> Copy(Diags.begin(), Diags.end());
  IRDocument D;
  D.Kind = IRDocument::Diags;
  D.D = &Copy;
  writeDocument(D, OS, nullptr, Form);
}

void printEndDocument(const IREndCounts &E, raw_ostream &OS, IRForm Form) {
  IREndCounts Copy = E;
  IRDocument D;
  D.Kind = IRDocument::End;
  D.E = &Copy;
  writeDocument(D, OS, nullptr, Form);
}

void printErrorDocument(StringRef Message, raw_ostream &OS, IRForm Form) {
  if (Form == IRForm::Text) {
    OS << "--- !tlp.error\n"
       << "message: '" << Message << "'\n";
    return;
  }
  // A tag and one scalar: `message`.
  std::string Body;
  StringRef Tag = "!tlp.error";
  writeVarint(Body, Tag.size());
  Body += Tag;
  writeVarint(Body, 1);
  writeVarint(Body, 7);
  Body += "message";
  Body += static_cast<char>(CompactTag::TaggedMapping);
  writeVarint(Body, Tag.size());
  Body += Tag;
  std::string Entries;
  writeVarint(Entries, 0);
  Entries += static_cast<char>(CompactTag::Scalar);
  writeVarint(Entries, Message.size());
  Entries += Message;
  writeU64(Body, Entries.size());
  Body += Entries;
  std::string Frame;
  writeU64(Frame, Body.size());
  OS << Frame << Body;
}

void printModule(const Module &M, raw_ostream &OS, IRForm Form) {
  printModuleHeader(M, OS, nullptr, Form);
  for (const std::unique_ptr<CompileUnit> &U : M.Units)
    printUnit(*U, OS, Form);
  printDiagnosticsDocument(M.Diagnostics, OS, Form);
  printEndDocument({M.Units.size(), M.Compiles.size(), M.Diagnostics.size()},
                   OS, Form);
}

bool looksLikeIR(StringRef Text) {
  // Blank lines and YAML comments may come first.
  while (true) {
    Text = Text.ltrim(" \t\r\n");
    if (!Text.startswith("#"))
      return Text.startswith("--- !tlp.");
    Text = Text.drop_until([](char C) { return C == '\n'; });
  }
}

static void yamlDiagHandler(const SMDiagnostic &D, void *Ctx) {
  auto *C = static_cast<DiagContext *>(Ctx);
  Severity Sev = D.getKind() == SourceMgr::DK_Error     ? Severity::Error
                 : D.getKind() == SourceMgr::DK_Warning ? Severity::Warning
                                                        : Severity::Note;
  if (Sev == Severity::Error)
    C->Failed = true;
  std::string Msg = D.getMessage().str();
  if (!Msg.empty())
    Msg[0] = static_cast<char>(tolower(static_cast<unsigned char>(Msg[0])));
  unsigned Line = D.getLineNo() > 0 ? D.getLineNo() + C->LineOffset : 0;
  StringRef Contents = D.getLineContents();
  if (C->ErrorAt && C->ErrorAt >= C->Doc.begin() &&
      C->ErrorAt < C->Doc.end()) {
    size_t At = C->ErrorAt - C->Doc.begin();
    Line = C->LineOffset + 1 +
           static_cast<unsigned>(C->Doc.take_front(At).count('\n'));
    size_t Start = C->Doc.take_front(At).rfind('\n');
    Start = Start == StringRef::npos ? 0 : Start + 1;
    Contents = C->Doc.slice(Start, C->Doc.find('\n', At));
  }
  C->ErrorAt = nullptr;
  C->Diags->report(Sev, C->File, Line, Msg, excerpt(Contents));
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// LLVM's YAML parser and YAML I/O recurse once per level of nesting, so a
/// document nested thousands deep (`[[[[...`, `- - - ...`) overflows the
/// stack. tlp IR nests about ten deep; refuse anything past this before the
/// parser sees it.
static constexpr unsigned MaxYAMLDepth = 200;

/// The 0-based line of \p Text where its nesting first passes MaxYAMLDepth,
/// if it does. One linear pass: block levels by indentation and compact
/// "- "/"? " indicators, flow levels by brackets outside quoted scalars,
/// comments and block scalars.
static Optional<unsigned> tooDeeplyNested(StringRef Text) {
  SmallVector<size_t, 16> Indents;
  unsigned Flow = 0;
  char Quote = 0;
  long BlockScalar = -1; // skipping lines indented more than this
  unsigned LineNo = 0;
  for (StringRef Rest = Text; !Rest.empty(); ++LineNo) {
    size_t NL = Rest.find('\n');
    StringRef L = Rest.take_front(NL);
    Rest = NL == StringRef::npos ? StringRef() : Rest.drop_front(NL + 1);
    size_t Ind = L.find_first_not_of(' ');
    if (BlockScalar >= 0) {
      if (Ind == StringRef::npos || static_cast<long>(Ind) > BlockScalar)
        continue;
      BlockScalar = -1;
    }
    size_t I = 0;
    bool ValueStart = true;
    unsigned Block = 0;
    if (!Flow && !Quote) {
      if (Ind == StringRef::npos || L[Ind] == '#')
        continue;
      while (!Indents.empty() && Indents.back() >= Ind)
        Indents.pop_back();
      Indents.push_back(Ind);
      I = Ind;
      unsigned Compact = 0;
      while (I < L.size() && (L[I] == '-' || L[I] == '?') &&
             (I + 1 == L.size() || L[I + 1] == ' ')) {
        ++Compact;
        I = std::min(L.size(), I + 2);
        while (I < L.size() && L[I] == ' ')
          ++I;
      }
      Block = Indents.size() + Compact;
      if (Block > MaxYAMLDepth)
        return LineNo;
    }
    for (; I < L.size(); ++I) {
      char C = L[I];
      if (Quote == '\'') {
        if (C == '\'') {
          if (I + 1 < L.size() && L[I + 1] == '\'')
            ++I;
          else
            Quote = 0;
        }
        continue;
      }
      if (Quote == '"') {
        if (C == '\\')
          ++I;
        else if (C == '"')
          Quote = 0;
        continue;
      }
      switch (C) {
      case ' ':
      case '\t':
        continue;
      case '#':
        if (I == 0 || L[I - 1] == ' ' || L[I - 1] == '\t')
          I = L.size();
        else
          ValueStart = false;
        continue;
      case '\'':
      case '"':
        if (ValueStart)
          Quote = C;
        ValueStart = false;
        continue;
      case '[':
      case '{':
        if (Flow || ValueStart) {
          if (Block + ++Flow > MaxYAMLDepth)
            return LineNo;
          ValueStart = true;
        }
        continue;
      case ']':
      case '}':
        if (Flow)
          --Flow;
        ValueStart = false;
        continue;
      case ',':
        ValueStart = Flow != 0;
        continue;
      case ':':
        ValueStart = I + 1 == L.size() || L[I + 1] == ' ' || Flow;
        continue;
      case '|':
      case '>':
        if (ValueStart && !Flow) {
          BlockScalar = static_cast<long>(Ind);
          I = L.size();
          continue;
        }
        ValueStart = false;
        continue;
      default:
        ValueStart = false;
      }
    }
  }
  return None;
}

static const char NotADocument[] =
    "document is not a !tlp.module, !tlp.compile, !tlp.unit, "
    "!tlp.diagnostics or !tlp.end document";

/// What a parsed IRDocument holds, as a ParsedIRDocument; an error for a
/// document of no known kind (reported at \p Line, or \p Where).
static Expected<ParsedIRDocument> finishDocument(IRDocument &D,
                                                 ParsedIRDocument &Out,
                                                 StringRef File, unsigned Line,
                                                 const Twine &Where,
                                                 DiagnosticEngine &Diags) {
  switch (D.Kind) {
  case IRDocument::Header:
    Out.Kind = IRDocumentKind::Header;
    break;
  case IRDocument::Compile:
    Out.Kind = IRDocumentKind::Compile;
    break;
  case IRDocument::Unit:
    Out.Kind = IRDocumentKind::Unit;
    Out.Unit = std::move(D.OwnedUnit);
    break;
  case IRDocument::Diags:
    Out.Kind = IRDocumentKind::Diagnostics;
    break;
  case IRDocument::End:
    Out.Kind = IRDocumentKind::End;
    break;
  case IRDocument::Invalid:
    Diags.error(File, Line, Where + NotADocument);
    return notValidIR(File);
  }
  return std::move(Out);
}

/// "at byte N: ", where a compact document's problem is.
static std::string atByte(uint64_t Offset) {
  return "at byte " + std::to_string(Offset) + ": ";
}

/// parseIRDocument for a document of the compact form.
static Expected<ParsedIRDocument>
parseCompactDocument(const IRDocumentText &T, StringRef File, Module &M,
                     DiagnosticEngine &Diags) {
  if (!T.Problem.empty()) {
    Diags.error(File, 0, atByte(T.Offset) + T.Problem);
    return notValidIR(File);
  }
  DiagContext Ctx;
  Ctx.Diags = &Diags;
  Ctx.File = File.str();
  Ctx.Compact = true;
  CompactInput In(T.Text, T.Offset, &Ctx);
  if (!In.start()) {
    Diags.error(File, 0, atByte(In.errorOffset()) + In.error());
    return notValidIR(File);
  }
  StringRef Tag = In.tag();
  if (Tag == "!tlp.error") {
    Diags.error(File, 0,
                atByte(T.Offset) +
                    "the tool that wrote this IR failed before the end of "
                    "it; the IR is incomplete");
    return notValidIR(File);
  }
  if (Tag != "!tlp.module" && Tag != "!tlp.compile" && Tag != "!tlp.unit" &&
      Tag != "!tlp.diagnostics" && Tag != "!tlp.end") {
    Diags.error(File, 0,
                Twine(atByte(T.Offset)) + NotADocument + " (its tag is '" +
                    Tag + "')");
    return notValidIR(File);
  }
  ParsedIRDocument Out;
  IRDocument D;
  D.M = &M;
  D.C = &Out.Compile;
  D.D = &Out.Diagnostics;
  D.E = &Out.End;
  EmptyContext YCtx;
  yamlize(In, D, true, YCtx);
  In.finish();
  if (In.failed()) {
    Diags.error(File, 0, atByte(In.errorOffset()) + In.error());
    return notValidIR(File);
  }
  return finishDocument(D, Out, File, 0, atByte(T.Offset), Diags);
}

Expected<ParsedIRDocument> parseIRDocument(const IRDocumentText &T,
                                           StringRef File, Module &M,
                                           DiagnosticEngine &Diags) {
  if (T.Compact)
    return parseCompactDocument(T, File, M, Diags);
  // Check the tag first: YAML I/O would only complain about the keys.
  StringRef Rest = T.Text;
  unsigned Line = T.Line;
  while (!Rest.empty() && !isDocumentMarker(Rest, 0)) {
    Rest = Rest.drop_until([](char C) { return C == '\n'; }).drop_front();
    ++Line;
  }
  StringRef Marker = Rest.take_until([](char C) { return C == '\n'; });
  StringRef Tag = trimWS(Marker.drop_front(3)).take_until([](char C) {
    return C == ' ' || C == '\t';
  });
  if (Tag == "!tlp.error") {
    // Written by tlp-opt when it failed half way through its stdout.
    Diags.report(Severity::Error, File, Line,
                 "the tool that wrote this IR failed before the end of it; "
                 "the IR is incomplete",
                 excerpt(trimWS(Marker)));
    return notValidIR(File);
  }
  if (Tag != "!tlp.module" && Tag != "!tlp.compile" && Tag != "!tlp.unit" &&
      Tag != "!tlp.diagnostics" && Tag != "!tlp.end") {
    Diags.report(Severity::Error, File, Rest.empty() ? T.Line : Line,
                 NotADocument, excerpt(trimWS(Marker)));
    return notValidIR(File);
  }

  if (Optional<unsigned> Deep = tooDeeplyNested(T.Text)) {
    StringRef L = T.Text;
    for (unsigned I = 0; I < *Deep; ++I)
      L = L.drop_until([](char C) { return C == '\n'; }).drop_front();
    Diags.report(Severity::Error, File, T.Line + *Deep,
                 "YAML nested more than " + Twine(MaxYAMLDepth).str() +
                     " levels deep; tlp IR is never nested like this",
                 excerpt(L.take_until([](char C) { return C == '\n'; })));
    return notValidIR(File);
  }

  // tlp writes its text IR in UTF-8 only (the log reader repairs what is
  // not), and the compact form refuses any other string: a document with
  // other bytes is refused here as well, so that what one form reads the
  // other can hold.
  size_t Bad = firstInvalidUTF8(T.Text);
  if (Bad != StringRef::npos) {
    StringRef Before = T.Text.take_front(Bad);
    size_t LineStart = Before.rfind('\n') + 1; // 0 when npos
    StringRef L = T.Text.substr(LineStart).take_until(
        [](char C) { return C == '\n'; });
    Diags.report(Severity::Error, File, T.Line + Before.count('\n'),
                 "a byte that is not UTF-8 (0x" +
                     utohexstr(static_cast<unsigned char>(T.Text[Bad]),
                               /*LowerCase=*/true, /*Width=*/2) +
                     " at column " + Twine(Bad - LineStart + 1).str() +
                     "); tlp writes its IR in UTF-8 only",
                 excerpt(L));
    return notValidIR(File);
  }

  DiagContext Ctx;
  Ctx.Diags = &Diags;
  Ctx.File = File.str();
  Ctx.LineOffset = T.Line - 1;
  Ctx.Doc = T.Text;
  ParsedIRDocument Out;
  yaml::Input In(MemoryBufferRef(T.Text, File), &Ctx, yamlDiagHandler, &Ctx);
  IRDocument D;
  D.M = &M;
  D.C = &Out.Compile;
  D.D = &Out.Diagnostics;
  D.E = &Out.End;
  In >> D;
  if (In.error() && !Ctx.Failed)
    // YAML I/O can fail without a message (a directive inside a document,
    // say); say where.
    Diags.report(Severity::Error, File, Line,
                 "this document is not well-formed YAML",
                 excerpt(trimWS(Marker)));
  if (In.error() || Ctx.Failed)
    return notValidIR(File);
  return finishDocument(D, Out, File, Line, "", Diags);
}

} // namespace tlp
