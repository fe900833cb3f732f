//===- StringUtils.h - Small string helpers ---------------------*- C++ -*-===//
//
// Part of tlp. Zero-copy helpers used on hot paths: token search with
// identifier boundaries (so `foo_1` never matches `foo_10`), line tables,
// UTF-8 repair.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_STRINGUTILS_H
#define TLP_SUPPORT_STRINGUTILS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tlp {

inline bool isIdentChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         (C >= '0' && C <= '9') || C == '_';
}

inline bool isIdentStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_';
}

/// Find \p Name in \p Hay at or after \p From as a whole token: the
/// character before it is neither an identifier character nor '.', and the
/// character after it is not an identifier character. Returns npos if none.
size_t findToken(llvm::StringRef Hay, llvm::StringRef Name, size_t From = 0);

/// Replace every invalid UTF-8 sequence in \p S by U+FFFD. Returns true if
/// anything was replaced.
bool sanitizeUTF8(std::string &S);

/// True if \p S is valid UTF-8.
bool isValidUTF8(llvm::StringRef S);

/// The offset of the first byte of \p S that is not part of a valid UTF-8
/// sequence, or npos when \p S is valid UTF-8.
size_t firstInvalidUTF8(llvm::StringRef S);

/// \p S made safe to print on a terminal: C0 controls but tab and newline
/// (ESC, BEL, CR, ...), DEL and C1 controls (U+0080-U+009F) become '?', and
/// each byte of an invalid UTF-8 sequence becomes U+FFFD (as in the JSON).
/// So no escape sequence from a log reaches a terminal (docs/outputs.md,
/// Safety). Every diagnostic and text output goes through this.
std::string printable(llvm::StringRef S);

/// True if printable(\p S) would return \p S unchanged.
bool isPrintable(llvm::StringRef S);

/// Shorten \p S to at most \p Max bytes for display, on a UTF-8 boundary,
/// with "..." appended when cut, and made printable() (tab kept).
std::string excerpt(llvm::StringRef S, size_t Max = 160);

/// Offsets of line starts in a text. Line N (1-based) spans
/// [start(N), start(N+1) - 1). A text always has at least one line; a text
/// that ends with '\n' has an empty last line.
class LineTable {
public:
  LineTable() = default;
  explicit LineTable(llvm::StringRef Text) { build(Text); }
  void build(llvm::StringRef Text);
  unsigned size() const { return static_cast<unsigned>(Starts.size()); }
  /// The text of 1-based line \p N, without its newline.
  llvm::StringRef line(llvm::StringRef Text, unsigned N) const;

private:
  std::vector<uint32_t> Starts;
  uint32_t End = 0;
};

/// Split \p Text at '\n' into \p Lines, keeping empty lines (including a
/// trailing empty line after a final '\n').
void splitLines(llvm::StringRef Text, std::vector<llvm::StringRef> &Lines);

/// Count of lines as LineTable sees them.
unsigned countLines(llvm::StringRef Text);

/// Strip ASCII spaces and tabs on both sides.
inline llvm::StringRef trimWS(llvm::StringRef S) { return S.trim(" \t\r"); }

/// Parse an unsigned decimal that spans all of \p S.
bool parseUnsigned(llvm::StringRef S, uint64_t &V);

} // namespace tlp

#endif // TLP_SUPPORT_STRINGUTILS_H
