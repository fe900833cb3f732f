//===- Swar.h - Eight bytes at a time ---------------------------*- C++ -*-===//
//
// Part of tlp. Word-at-a-time byte tests (SWAR) shared by the scans that
// copy long runs of log text whole: the JSON scanner, the JSON writer,
// HTML escaping and the printable-text checks.
//
// Each test returns a mask with the high bit set in each byte of the word
// that is such a byte, and possibly in bytes above one (a borrow or carry
// runs toward the high end of the word), never below it: whether the mask
// is zero is exact, and so is its lowest flag.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_SWAR_H
#define TLP_SUPPORT_SWAR_H

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstdint>
#include <cstring>

namespace tlp {
namespace swar {

constexpr uint64_t Ones = 0x0101010101010101ULL;
constexpr uint64_t Highs = 0x8080808080808080ULL;

/// The eight bytes at \p P as one word, in the host's byte order.
inline uint64_t load(const void *P) {
  uint64_t W;
  std::memcpy(&W, P, sizeof(W));
  return W;
}

/// The bytes of \p W equal to \p C (a zero byte of W ^ C...).
inline uint64_t equal(uint64_t W, unsigned char C) {
  uint64_t V = W ^ (Ones * C);
  return (V - Ones) & ~V & Highs;
}

/// The bytes of \p W under \p N (at most 0x80).
inline uint64_t below(uint64_t W, unsigned char N) {
  return (W - Ones * N) & ~W & Highs;
}

/// The bytes of \p W over 0x7F.
inline uint64_t nonASCII(uint64_t W) { return W & Highs; }

/// How many bytes of a word from load() come before the first one flagged
/// in \p M (nonzero): on a little-endian host the lowest flag, which is
/// exact; elsewhere 0 (there a borrow runs toward lower addresses, so the
/// caller takes the bytes one by one).
inline unsigned firstFlagged(uint64_t M) {
  return llvm::sys::IsLittleEndianHost ? llvm::countTrailingZeros(M) / 8 : 0;
}

} // namespace swar
} // namespace tlp

#endif // TLP_SUPPORT_SWAR_H
