//===- JSONWriter.cpp - Streaming JSON output -----------------------------===//
//
// The escaping follows nlohmann::json's serializer::dump_escaped with
// ensure_ascii false and error_handler_t::replace, byte for byte: a
// well-formed UTF-8 sequence (Unicode's table 3-7, as the DFA nlohmann
// decodes with accepts) is copied, and each ill-formed one becomes one
// U+FFFD, the byte that broke a sequence being read again as the start of
// the next (JSONWriterTest compares the two on random bytes).
//
//===----------------------------------------------------------------------===//

#include "tlp/Support/JSONWriter.h"

#include "tlp/Support/Swar.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cassert>
#include <cmath>
#include <cstdint>

using namespace llvm;

namespace tlp {

JSONWriter::~JSONWriter() {
  assert(Stack.empty() && !PendingKey && "a JSON container was not closed");
}

namespace {

/// What a byte of a string needs: 0 nothing (copied), 1 an escape, 2 the
/// start of a multi-byte sequence (or an invalid byte), 3 an escape in
/// script-safe output only.
struct EscapeTable {
  uint8_t Class[256];
  constexpr EscapeTable() : Class() {
    for (unsigned C = 0; C < 0x20; ++C)
      Class[C] = 1;
    Class[unsigned('"')] = 1;
    Class[unsigned('\\')] = 1;
    for (unsigned C = 0x80; C < 0x100; ++C)
      Class[C] = 2;
    Class[unsigned('<')] = 3;
    Class[unsigned('>')] = 3;
    Class[unsigned('&')] = 3;
  }
};
constexpr EscapeTable Table;

const char Hex[] = "0123456789abcdef";

/// The bytes of \p W that are not copied as they are, as a swar mask: a
/// control character, '"', '\\', a byte over 0x7F, or in script-safe
/// output '<', '>', '&'.
uint64_t needsAttention(uint64_t W, bool ScriptSafe) {
  uint64_t Hit = swar::nonASCII(W) | swar::below(W, 0x20) |
                 swar::equal(W, '"') | swar::equal(W, '\\');
  if (ScriptSafe)
    Hit |= swar::equal(W, '<') | swar::equal(W, '>') | swar::equal(W, '&');
  return Hit;
}

/// The length of the well-formed UTF-8 sequence at \p P (of \p N bytes
/// left), or 0 if it is not one; then \p Good is how many of its bytes
/// were acceptable before the one that broke it (or the end).
unsigned utf8Length(const unsigned char *P, size_t N, unsigned &Good) {
  unsigned char B = P[0];
  unsigned Len;
  unsigned char Lo = 0x80, Hi = 0xBF; // the second byte's range
  if (B >= 0xC2 && B <= 0xDF) {
    Len = 2;
  } else if (B >= 0xE0 && B <= 0xEF) {
    Len = 3;
    if (B == 0xE0)
      Lo = 0xA0;
    else if (B == 0xED)
      Hi = 0x9F;
  } else if (B >= 0xF0 && B <= 0xF4) {
    Len = 4;
    if (B == 0xF0)
      Lo = 0x90;
    else if (B == 0xF4)
      Hi = 0x8F;
  } else {
    Good = 0;
    return 0;
  }
  for (unsigned I = 1; I < Len; ++I) {
    if (I >= N) {
      Good = I;
      return 0;
    }
    unsigned char C = P[I];
    bool Ok = I == 1 ? C >= Lo && C <= Hi : C >= 0x80 && C <= 0xBF;
    if (!Ok) {
      Good = I;
      return 0;
    }
  }
  return Len;
}

} // namespace

void JSONWriter::escape(raw_ostream &OS, StringRef S, bool ScriptSafe) {
  const unsigned char *P = S.bytes_begin(), *E = S.bytes_end();
  const unsigned char *Run = P; // the start of bytes to copy as they are
  const uint8_t Stop = ScriptSafe ? 3 : 2;
  while (P != E) {
    // Most text has nothing to escape: eight bytes at a time.
    if (E - P >= 8) {
      uint64_t M = needsAttention(swar::load(P), ScriptSafe);
      if (!M) {
        P += 8;
        continue;
      }
      P += swar::firstFlagged(M); // on to the first byte that needs it
    }
    uint8_t C = Table.Class[*P];
    if (C == 0 || C > Stop) {
      ++P;
      continue;
    }
    if (C == 2) {
      unsigned Good;
      unsigned Len = utf8Length(P, E - P, Good);
      if (Len) {
        // U+2028 and U+2029 end a line in JavaScript before ES2019.
        if (ScriptSafe && Len == 3 && P[0] == 0xE2 && P[1] == 0x80 &&
            (P[2] == 0xA8 || P[2] == 0xA9)) {
          OS.write(reinterpret_cast<const char *>(Run), P - Run);
          OS << (P[2] == 0xA8 ? "\\u2028" : "\\u2029");
          P += 3;
          Run = P;
          continue;
        }
        P += Len;
        continue;
      }
      OS.write(reinterpret_cast<const char *>(Run), P - Run);
      OS << "\xEF\xBF\xBD";
      // The byte that broke a sequence starts the next one; an invalid
      // lead byte is consumed; so is a sequence the string cuts short.
      P += Good ? Good : 1;
      Run = P;
      continue;
    }
    OS.write(reinterpret_cast<const char *>(Run), P - Run);
    switch (*P) {
    case '\b':
      OS << "\\b";
      break;
    case '\t':
      OS << "\\t";
      break;
    case '\n':
      OS << "\\n";
      break;
    case '\f':
      OS << "\\f";
      break;
    case '\r':
      OS << "\\r";
      break;
    case '"':
      OS << "\\\"";
      break;
    case '\\':
      OS << "\\\\";
      break;
    default: {
      char U[6] = {'\\', 'u', '0', '0', Hex[*P >> 4], Hex[*P & 15]};
      OS.write(U, 6);
      break;
    }
    }
    ++P;
    Run = P;
  }
  OS.write(reinterpret_cast<const char *>(Run), P - Run);
}

void JSONWriter::newline(unsigned Level) {
  OS << '\n';
  OS.indent(Opts.BaseIndent + Level * Opts.IndentWidth);
}

void JSONWriter::valueBegin() {
  if (PendingKey) {
    PendingKey = false;
    return;
  }
  if (Stack.empty())
    return;
  Frame &F = Stack.back();
  assert(!F.IsObject && "a value in an object needs a key");
  if (!F.Empty)
    OS << ',';
  F.Empty = false;
  if (F.Block)
    newline(Stack.size());
}

void JSONWriter::key(StringRef K) {
  assert(!Stack.empty() && Stack.back().IsObject && !PendingKey &&
         "a key outside an object");
  Frame &F = Stack.back();
  if (!F.Empty)
    OS << ',';
  F.Empty = false;
  if (F.Block)
    newline(Stack.size());
  OS << '"';
  escape(OS, K, Opts.ScriptSafe);
  OS << (F.Block ? "\": " : "\":");
  PendingKey = true;
}

void JSONWriter::containerBegin(bool IsObject, Layout L) {
  valueBegin();
  bool Block = Opts.Pretty && L == Layout::Block &&
               (Stack.empty() || Stack.back().Block);
  Stack.push_back({IsObject, Block});
  OS << (IsObject ? '{' : '[');
}

void JSONWriter::containerEnd(bool IsObject) {
  assert(!Stack.empty() && Stack.back().IsObject == IsObject && !PendingKey &&
         "mismatched end of a JSON container");
  Frame F = Stack.pop_back_val();
  if (F.Block && !F.Empty)
    newline(Stack.size());
  OS << (IsObject ? '}' : ']');
}

void JSONWriter::objectBegin(Layout L) { containerBegin(true, L); }
void JSONWriter::objectEnd() { containerEnd(true); }
void JSONWriter::arrayBegin(Layout L) { containerBegin(false, L); }
void JSONWriter::arrayEnd() { containerEnd(false); }

void JSONWriter::null() {
  valueBegin();
  OS << "null";
}

void JSONWriter::value(bool B) {
  valueBegin();
  OS << (B ? "true" : "false");
}

void JSONWriter::value(StringRef S) {
  valueBegin();
  OS << '"';
  escape(OS, S, Opts.ScriptSafe);
  OS << '"';
}

void JSONWriter::signedValue(int64_t V) {
  valueBegin();
  OS << V;
}

void JSONWriter::unsignedValue(uint64_t V) {
  valueBegin();
  OS << V;
}

void JSONWriter::value(double D) {
  valueBegin();
  if (!std::isfinite(D)) {
    OS << "null";
    return;
  }
  // nlohmann's own formatting (Grisu2, then printf("%g")-like placement
  // of the point), so that numbers read as they did.
  char Buf[64];
  char *End = nlohmann::detail::to_chars(Buf, Buf + sizeof(Buf), D);
  OS.write(Buf, End - Buf);
}

void JSONWriter::rawValue(StringRef JSON) {
  valueBegin();
  OS << JSON;
}

} // namespace tlp
