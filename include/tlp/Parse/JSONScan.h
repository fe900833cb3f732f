//===- JSONScan.h - Zero-copy JSON validation and traversal -----*- C++ -*-===//
//
// Part of tlp. Envelopes and provenance payloads are read with this scanner
// rather than a DOM parser: it validates strictly (with the byte offset of
// the first error), never allocates for values it is not asked to decode,
// and accepts Python's NaN/Infinity, which json.dumps writes by default.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PARSE_JSONSCAN_H
#define TLP_PARSE_JSONSCAN_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tlp {
namespace json {

enum class ValueKind { Object, Array, String, Number, True, False, Null };

/// A JSON value as a slice of its source text.
struct Value {
  ValueKind Kind = ValueKind::Null;
  llvm::StringRef Text;

  bool isObject() const { return Kind == ValueKind::Object; }
  bool isArray() const { return Kind == ValueKind::Array; }
  bool isString() const { return Kind == ValueKind::String; }
  bool isNumber() const { return Kind == ValueKind::Number; }
  bool isNull() const { return Kind == ValueKind::Null; }
};

/// Where and why a text is not JSON.
struct ParseError {
  size_t Offset = 0;
  std::string Message;
};

/// Validate \p Text as exactly one JSON value (surrounding whitespace
/// allowed). On success \p V is the value.
bool parse(llvm::StringRef Text, Value &V, ParseError &Err);

/// Call \p F for each member of a validated object, in order. Keys are
/// decoded. Stops early and returns false if \p F returns false.
bool forEachMember(
    const Value &Obj,
    llvm::function_ref<bool(llvm::StringRef Key, const Value &V)> F);
/// Same, with the key left raw (escapes intact, no allocation). Most keys
/// have no escapes, so callers compare the raw key first.
bool forEachMemberRaw(
    const Value &Obj,
    llvm::function_ref<bool(llvm::StringRef RawKey, const Value &V)> F);

/// Call \p F for each element of a validated array.
bool forEachElement(const Value &Arr,
                    llvm::function_ref<bool(const Value &V)> F);

/// Decode a string value (quotes removed, escapes resolved, lone
/// surrogates become U+FFFD).
std::string decodeString(const Value &V);
/// Decode the raw text between the quotes of a string.
std::string decodeRawString(llvm::StringRef Raw);

/// Integer value of a number without fraction or exponent.
bool getInt(const Value &V, int64_t &Out);
/// Any number (NaN and the infinities included).
bool getDouble(const Value &V, double &Out);

} // namespace json
} // namespace tlp

#endif // TLP_PARSE_JSONSCAN_H
