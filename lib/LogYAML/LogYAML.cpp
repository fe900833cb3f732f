//===- LogYAML.cpp - Read the YAML description of a log -------------------===//
//
// The YAML I/O traits of tlp::logyaml (include/tlp/LogYAML/LogYAML.h) and
// the JSON text of a YAML node.
//
//===----------------------------------------------------------------------===//

#include "tlp/LogYAML/LogYAML.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <utility>

using namespace llvm;
using namespace tlp;
using namespace tlp::logyaml;

Expected<std::string> tlp::logyaml::quoteJSON(StringRef S) {
  std::string Out = "\"";
  raw_string_ostream OS(Out);
  const UTF8 *P = reinterpret_cast<const UTF8 *>(S.begin());
  const UTF8 *E = reinterpret_cast<const UTF8 *>(S.end());
  while (P < E) {
    unsigned char C = *P;
    if (C < 0x80) {
      ++P;
      switch (C) {
      case '"':
        OS << "\\\"";
        break;
      case '\\':
        OS << "\\\\";
        break;
      case '\n':
        OS << "\\n";
        break;
      case '\r':
        OS << "\\r";
        break;
      case '\t':
        OS << "\\t";
        break;
      case '\b':
        OS << "\\b";
        break;
      case '\f':
        OS << "\\f";
        break;
      default:
        // json.dumps escapes everything outside ' '..'~' (DEL included).
        if (C < 0x20 || C == 0x7f)
          OS << format("\\u%04x", C);
        else
          OS << C;
      }
      continue;
    }
    UTF32 CP;
    UTF32 *Q = &CP;
    const UTF8 *Start = P;
    unsigned Len = getNumBytesForUTF8(C);
    if (Len > unsigned(E - P) || !isLegalUTF8Sequence(P, P + Len) ||
        ConvertUTF8toUTF32(&P, P + Len, &Q, Q + 1, strictConversion) !=
            conversionOK)
      return createStringError(
          std::errc::illegal_byte_sequence,
          "a JSON string is not valid UTF-8 (at byte %zu)",
          size_t(Start - reinterpret_cast<const UTF8 *>(S.begin())));
    if (CP >= 0x10000) {
      CP -= 0x10000;
      OS << format("\\u%04x\\u%04x", 0xd800 + (CP >> 10), 0xdc00 + (CP & 0x3ff));
    } else {
      OS << format("\\u%04x", CP);
    }
  }
  OS << '"';
  return std::move(OS.str());
}

/// A plain scalar that reads as a JSON literal: a number, true, false,
/// null (and the NaN and Infinity that json.dumps writes).
static bool isJSONLiteral(StringRef S) {
  if (S == "true" || S == "false" || S == "null" || S == "NaN" ||
      S == "Infinity" || S == "-Infinity")
    return true;
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  size_t I = 0, N = S.size();
  auto Digits = [&] {
    size_t B = I;
    while (I < N && isDigit(S[I]))
      ++I;
    return I - B;
  };
  if (I < N && S[I] == '-')
    ++I;
  if (I < N && S[I] == '0')
    ++I;
  else if (!Digits())
    return false;
  if (I < N && S[I] == '.') {
    ++I;
    if (!Digits())
      return false;
  }
  if (I < N && (S[I] == 'e' || S[I] == 'E')) {
    ++I;
    if (I < N && (S[I] == '+' || S[I] == '-'))
      ++I;
    if (!Digits())
      return false;
  }
  return I == N;
}

void tlp::logyaml::yamlize(yaml::IO &IO, JSONText &V, bool,
                          yaml::EmptyContext &Ctx) {
  if (IO.outputting()) {
    IO.setError("a JSON value cannot be written as YAML");
    return;
  }
  const yaml::Node *N = static_cast<yaml::Input &>(IO).getCurrentNode();
  if (!N || isa<yaml::NullNode>(N)) {
    IO.setError("missing value (write null for a JSON null)");
    return;
  }
  switch (IO.getNodeKind()) {
  case yaml::NodeKind::Scalar: {
    StringRef S;
    IO.scalarString(S, yaml::QuotingType::None);
    bool Plain = false;
    if (const auto *SN = dyn_cast<yaml::ScalarNode>(N)) {
      StringRef Raw = SN->getRawValue();
      Plain = Raw.empty() || (Raw.front() != '\'' && Raw.front() != '"');
    }
    if (Plain && isJSONLiteral(S)) {
      V.Text = S.str();
      return;
    }
    Expected<std::string> Q = quoteJSON(S);
    if (!Q) {
      IO.setError(toString(Q.takeError()));
      return;
    }
    V.Text = std::move(*Q);
    return;
  }
  case yaml::NodeKind::Sequence: {
    unsigned Count = IO.beginSequence();
    std::string Out = "[";
    for (unsigned I = 0; I < Count; ++I) {
      void *Save;
      if (!IO.preflightElement(I, Save))
        continue;
      JSONText Elem;
      yamlize(IO, Elem, true, Ctx);
      IO.postflightElement(Save);
      if (I)
        Out += ", ";
      Out += Elem.Text;
    }
    IO.endSequence();
    V.Text = Out + "]";
    return;
  }
  case yaml::NodeKind::Map: {
    IO.beginMapping();
    // YAML I/O lists a mapping's keys in no particular order; the JSON
    // keeps the order of the YAML, which is where each value starts.
    struct Member {
      const char *Where;
      std::string Text;
    };
    std::vector<Member> Members;
    std::vector<StringRef> Keys = IO.keys();
    std::vector<std::string> KeyStore(Keys.begin(), Keys.end());
    for (const std::string &K : KeyStore) {
      void *Save;
      bool UseDefault;
      if (!IO.preflightKey(K.c_str(), true, false, UseDefault, Save))
        continue;
      const yaml::Node *C = static_cast<yaml::Input &>(IO).getCurrentNode();
      JSONText Value;
      yamlize(IO, Value, true, Ctx);
      IO.postflightKey(Save);
      Expected<std::string> Q = quoteJSON(K);
      if (!Q) {
        IO.setError(toString(Q.takeError()));
        return;
      }
      Members.push_back({C ? C->getSourceRange().Start.getPointer() : nullptr,
                         *Q + ": " + Value.Text});
    }
    IO.endMapping();
    llvm::stable_sort(Members, [](const Member &A, const Member &B) {
      return std::less<const char *>()(A.Where, B.Where);
    });
    std::string Out = "{";
    for (size_t I = 0; I < Members.size(); ++I) {
      if (I)
        Out += ", ";
      Out += Members[I].Text;
    }
    V.Text = Out + "}";
    return;
  }
  }
}

namespace llvm {
namespace yaml {

void MappingTraits<tlp::logyaml::Event>::mapping(IO &IO,
                                                  tlp::logyaml::Event &E) {
  IO.mapOptional("raw", E.Raw);
  IO.mapOptional("event", E.Name);
  IO.mapOptional("metadata", E.Metadata);
  IO.mapOptional("rank", E.Rank);
  IO.mapOptional("stack", E.Stack);
  IO.mapOptional("compiled_autograd_id", E.CompiledAutogradId);
  IO.mapOptional("frame_id", E.FrameId);
  IO.mapOptional("frame_compile_id", E.FrameCompileId);
  IO.mapOptional("attempt", E.Attempt);
  IO.mapOptional("md5", E.MD5);
  IO.mapOptional("payload", E.Payload);
  IO.mapOptional("source", E.Source);
  IO.mapOptional("time", E.Time);
  IO.mapOptional("level", E.Level);
  IO.mapOptional("pid", E.Pid);
}

/// After an error the fields read so far are not all set; say nothing more.
static bool hadError(IO &IO) {
  return !IO.outputting() && static_cast<Input &>(IO).error();
}

std::string MappingTraits<tlp::logyaml::Event>::validate(IO &IO,
                                                         tlp::logyaml::Event &E) {
  if (hadError(IO))
    return "";
  if (E.Raw) {
    if (!E.Name.empty() || E.Metadata || E.Rank || E.Stack ||
        E.CompiledAutogradId || E.FrameId || E.FrameCompileId || E.Attempt ||
        E.MD5 || E.Payload || E.Source || E.Time || E.Level || E.Pid)
      return "a raw line takes no other key";
    return "";
  }
  if (E.Name.empty())
    return "an event needs 'event' (its name) or 'raw'";
  if (E.Stack && (E.CompiledAutogradId || E.FrameId || E.FrameCompileId ||
                  E.Attempt))
    return "an event has a 'stack' or compile id fields, not both";
  if (E.MD5 && (E.MD5->size() != 32 ||
                !llvm::all_of(*E.MD5, [](char C) { return isHexDigit(C); })))
    return "'md5' must be 32 hexadecimal digits";
  if (E.Level && (E.Level->size() != 1 ||
                  StringRef("VIWEC").find((*E.Level)[0]) == StringRef::npos))
    return "'level' must be one of V, I, W, E, C";
  if (E.Source)
    if (Error Err = checkSource(*E.Source))
      return toString(std::move(Err));
  if (E.Time)
    if (Expected<LogTime> T = parseTime(*E.Time); !T)
      return toString(T.takeError());
  return "";
}

void MappingTraits<tlp::logyaml::Log>::mapping(IO &IO, tlp::logyaml::Log &L) {
  IO.mapRequired("pid", L.Pid);
  IO.mapRequired("start", L.Start);
  IO.mapOptional("step_ms", L.StepMs, int64_t(1));
  IO.mapOptional("source", L.Source,
                 std::string("torch/_inductor/compile_fx.py:1000"));
  IO.mapOptional("line_ending", L.LineEnding, std::string("lf"));
  IO.mapOptional("final_newline", L.FinalNewline, true);
  IO.mapRequired("events", L.Events);
}

std::string MappingTraits<tlp::logyaml::Log>::validate(IO &IO,
                                                       tlp::logyaml::Log &L) {
  if (hadError(IO))
    return "";
  if (L.LineEnding != "lf" && L.LineEnding != "crlf")
    return "'line_ending' must be lf or crlf";
  if (L.StepMs < 0)
    return "'step_ms' must not be negative";
  if (Error Err = checkSource(L.Source))
    return toString(std::move(Err));
  if (Expected<LogTime> T = parseTime(L.Start); !T)
    return toString(T.takeError());
  return "";
}

} // namespace yaml
} // namespace llvm
