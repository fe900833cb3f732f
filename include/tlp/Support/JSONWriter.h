//===- JSONWriter.h - Streaming JSON output ---------------------*- C++ -*-===//
//
// Part of tlp. JSONWriter writes JSON to a raw_ostream as it is produced,
// value by value, with no document held in memory (as llvm::json::OStream
// does). Its bytes are those of nlohmann::json::dump(Indent, ' ',
// /*ensure_ascii=*/false, error_handler_t::replace), which tlp's outputs
// were written with before: the same escaping (control characters as
// \b \t \n \f \r or \u00XX, non-ASCII kept as UTF-8, each invalid UTF-8
// sequence as one U+FFFD), the same numbers (doubles by nlohmann's
// Grisu2, non-finite ones as null), the same layout. docs/json.md,
// "Writing JSON".
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_JSONWRITER_H
#define TLP_SUPPORT_JSONWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tlp {

class JSONWriter {
public:
  struct Options {
    /// One key or element per line, indented (nlohmann's dump(Indent));
    /// otherwise no whitespace at all (dump(-1)).
    bool Pretty = false;
    /// Spaces per level of nesting when Pretty.
    unsigned IndentWidth = 2;
    /// Spaces after every line break when Pretty: the depth at which the
    /// text will sit in a larger document (see rawValue()).
    unsigned BaseIndent = 0;
    /// For a <script> element: '<', '>', '&', U+2028 and U+2029 in
    /// strings written as \u003c, \u003e, \u0026, \u2028, \u2029, so that
    /// no "</script>" or "<!--" in a string ends the element.
    bool ScriptSafe = false;
  };

  /// How a container is laid out when the writer is Pretty: Block puts
  /// each member on its own line; Inline writes the container, and all
  /// it holds, on one line as the compact form does.
  enum class Layout { Block, Inline };

  explicit JSONWriter(llvm::raw_ostream &OS) : JSONWriter(OS, Options()) {}
  JSONWriter(llvm::raw_ostream &OS, Options Opts) : OS(OS), Opts(Opts) {}
  JSONWriter(const JSONWriter &) = delete;
  JSONWriter &operator=(const JSONWriter &) = delete;
  /// Asserts that every container was closed.
  ~JSONWriter();

  //===--------------------------------------------------------------------===//
  // Values (an element of an array, the value after key(), or the document)
  //===--------------------------------------------------------------------===//

  void null();
  void value(std::nullptr_t) { null(); }
  void value(bool B);
  void value(llvm::StringRef S);
  void value(const char *S) { value(llvm::StringRef(S)); }
  void value(const std::string &S) { value(llvm::StringRef(S)); }
  void value(double D);
  void value(float F) { value(double(F)); }
  template <typename T>
  std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value>
  value(T V) {
    if (std::is_signed<T>::value)
      signedValue(int64_t(V));
    else
      unsignedValue(uint64_t(V));
  }
  /// null when \p V is empty.
  template <typename T> void value(const llvm::Optional<T> &V) {
    if (V)
      value(*V);
    else
      null();
  }
  /// A string a record may not have: null when empty.
  void stringOrNull(llvm::StringRef S) {
    if (S.empty())
      null();
    else
      value(S);
  }
  /// The member \p Key with stringOrNull(\p S).
  void attributeOrNull(llvm::StringRef Key, llvm::StringRef S) {
    key(Key);
    stringOrNull(S);
  }
  /// An array of the values.
  template <typename T> void value(const std::vector<T> &V) {
    arrayBegin(Layout::Block);
    for (const T &X : V)
      value(X);
    arrayEnd();
  }
  template <typename T> void value(llvm::ArrayRef<T> V) {
    arrayBegin(Layout::Block);
    for (const T &X : V)
      value(X);
    arrayEnd();
  }
  /// A value serialised already (by a JSONWriter with the same Options and
  /// a BaseIndent of this writer's depth), written as it is.
  void rawValue(llvm::StringRef JSON);

  void objectBegin(Layout L = Layout::Block);
  void objectEnd();
  void arrayBegin(Layout L = Layout::Block);
  void arrayEnd();
  template <typename Fn> void object(Fn &&Body, Layout L = Layout::Block) {
    objectBegin(L);
    Body();
    objectEnd();
  }
  /// The object \p Body writes when \p Present, else null.
  template <typename Fn>
  void objectOrNull(bool Present, Fn &&Body, Layout L = Layout::Block) {
    if (Present)
      object(std::forward<Fn>(Body), L);
    else
      null();
  }
  template <typename Fn> void array(Fn &&Body, Layout L = Layout::Block) {
    arrayBegin(L);
    Body();
    arrayEnd();
  }

  //===--------------------------------------------------------------------===//
  // Members of an object
  //===--------------------------------------------------------------------===//

  /// The key of the next member; a value must follow.
  void key(llvm::StringRef K);
  template <typename T> void attribute(llvm::StringRef K, const T &V) {
    key(K);
    value(V);
  }
  void attribute(llvm::StringRef K, const char *V) {
    key(K);
    value(V);
  }
  template <typename Fn>
  void attributeObject(llvm::StringRef K, Fn &&Body,
                       Layout L = Layout::Block) {
    key(K);
    object(std::forward<Fn>(Body), L);
  }
  template <typename Fn>
  void attributeArray(llvm::StringRef K, Fn &&Body, Layout L = Layout::Block) {
    key(K);
    array(std::forward<Fn>(Body), L);
  }

  /// The number of containers open.
  unsigned depth() const { return Stack.size(); }
  const Options &options() const { return Opts; }

  /// \p S as a JSON string's contents (without the quotes), escaped as
  /// value() escapes it.
  static void escape(llvm::raw_ostream &OS, llvm::StringRef S,
                     bool ScriptSafe = false);

private:
  struct Frame {
    bool IsObject;
    bool Block;
    bool Empty = true;
  };

  void valueBegin();
  void newline(unsigned Level);
  void containerBegin(bool IsObject, Layout L);
  void containerEnd(bool IsObject);
  void signedValue(int64_t V);
  void unsignedValue(uint64_t V);

  llvm::raw_ostream &OS;
  Options Opts;
  llvm::SmallVector<Frame, 16> Stack;
  /// A key was written and its value not yet.
  bool PendingKey = false;
};

} // namespace tlp

#endif // TLP_SUPPORT_JSONWRITER_H
