//===- StringUtils.cpp - Small string helpers -----------------------------===//

#include "tlp/Support/StringUtils.h"

#include "tlp/Support/Swar.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace tlp {

size_t findToken(StringRef Hay, StringRef Name, size_t From) {
  if (Name.empty())
    return StringRef::npos;
  while (From <= Hay.size()) {
    size_t P = Hay.find(Name, From);
    if (P == StringRef::npos)
      return P;
    bool BeforeOK = P == 0 || (!isIdentChar(Hay[P - 1]) && Hay[P - 1] != '.');
    size_t E = P + Name.size();
    bool AfterOK = E >= Hay.size() || !isIdentChar(Hay[E]);
    // A name that itself starts or ends with a non-identifier character
    // needs no boundary on that side.
    if (!isIdentChar(Name.front()))
      BeforeOK = true;
    if (!isIdentChar(Name.back()))
      AfterOK = true;
    if (BeforeOK && AfterOK)
      return P;
    From = P + 1;
  }
  return StringRef::npos;
}

/// Length of the valid UTF-8 sequence at \p P, or 0 if invalid.
static unsigned utf8SeqLen(const unsigned char *P, const unsigned char *E) {
  unsigned char C = P[0];
  if (C < 0x80)
    return 1;
  unsigned Len;
  uint32_t Min;
  if ((C & 0xE0) == 0xC0) {
    Len = 2;
    Min = 0x80;
  } else if ((C & 0xF0) == 0xE0) {
    Len = 3;
    Min = 0x800;
  } else if ((C & 0xF8) == 0xF0) {
    Len = 4;
    Min = 0x10000;
  } else {
    return 0;
  }
  if (E - P < Len)
    return 0;
  uint32_t CP = C & (0xFF >> (Len + 1));
  for (unsigned I = 1; I < Len; ++I) {
    if ((P[I] & 0xC0) != 0x80)
      return 0;
    CP = (CP << 6) | (P[I] & 0x3F);
  }
  if (CP < Min || CP > 0x10FFFF || (CP >= 0xD800 && CP <= 0xDFFF))
    return 0;
  return Len;
}

/// The bytes of \p W that are not printable ASCII (0x20 to 0x7E), as a
/// swar mask: under 0x20, or over 0x7E (a carry out of W + 1 each, or the
/// high bit already set).
static uint64_t notPlainASCII(uint64_t W) {
  return swar::below(W, 0x20) | (((W + swar::Ones) | W) & swar::Highs);
}

size_t firstInvalidUTF8(StringRef S) {
  const unsigned char *P = S.bytes_begin(), *E = S.bytes_end();
  while (P < E) {
    // Fast path over ASCII, eight bytes at a time where it can.
    if (E - P >= 8 && !swar::nonASCII(swar::load(P))) {
      P += 8;
      continue;
    }
    if (*P < 0x80) {
      ++P;
      continue;
    }
    unsigned L = utf8SeqLen(P, E);
    if (!L)
      return P - S.bytes_begin();
    P += L;
  }
  return StringRef::npos;
}

bool isValidUTF8(StringRef S) { return firstInvalidUTF8(S) == StringRef::npos; }

bool sanitizeUTF8(std::string &S) {
  if (isValidUTF8(S))
    return false;
  std::string Out;
  Out.reserve(S.size() + 16);
  const unsigned char *P = reinterpret_cast<const unsigned char *>(S.data());
  const unsigned char *E = P + S.size();
  while (P < E) {
    unsigned L = utf8SeqLen(P, E);
    if (!L) {
      Out += "\xEF\xBF\xBD";
      ++P;
      continue;
    }
    Out.append(reinterpret_cast<const char *>(P), L);
    P += L;
  }
  S.swap(Out);
  return true;
}

/// Whether the character at \p P (a valid sequence of \p Len bytes) is a
/// control character printable() replaces.
static bool isControl(const unsigned char *P, unsigned Len) {
  if (Len == 1)
    return (P[0] < 0x20 && P[0] != '\t' && P[0] != '\n') || P[0] == 0x7F;
  return Len == 2 && P[0] == 0xC2 && P[1] < 0xA0;
}

bool isPrintable(StringRef S) {
  const unsigned char *P = S.bytes_begin(), *E = S.bytes_end();
  while (P < E) {
    if (E - P >= 8) {
      // Skip to the first byte that is not printable ASCII.
      uint64_t M = notPlainASCII(swar::load(P));
      if (!M) {
        P += 8;
        continue;
      }
      P += swar::firstFlagged(M);
    }
    if (*P >= 0x20 && *P < 0x7F) {
      ++P;
      continue;
    }
    unsigned L = utf8SeqLen(P, E);
    if (!L || isControl(P, L))
      return false;
    P += L;
  }
  return true;
}

std::string printable(StringRef S) {
  if (isPrintable(S))
    return S.str();
  std::string Out;
  Out.reserve(S.size() + 16);
  const unsigned char *P = S.bytes_begin(), *E = S.bytes_end();
  while (P < E) {
    unsigned L = utf8SeqLen(P, E);
    if (!L) {
      Out += "\xEF\xBF\xBD";
      ++P;
    } else if (isControl(P, L)) {
      Out += '?';
      P += L;
    } else {
      Out.append(reinterpret_cast<const char *>(P), L);
      P += L;
    }
  }
  return Out;
}

std::string excerpt(StringRef S, size_t Max) {
  size_t N = std::min(S.size(), Max);
  // Do not cut inside a UTF-8 sequence.
  while (N < S.size() && N > 0 &&
         (static_cast<unsigned char>(S[N]) & 0xC0) == 0x80)
    --N;
  std::string Out = printable(S.take_front(N));
  // An excerpt is one line.
  std::replace(Out.begin(), Out.end(), '\n', '?');
  if (N < S.size())
    Out += "...";
  return Out;
}

void LineTable::build(StringRef Text) {
  Starts.clear();
  Starts.push_back(0);
  const char *B = Text.data();
  const char *P = B, *E = B + Text.size();
  while (P < E) {
    const void *NL = std::memchr(P, '\n', E - P);
    if (!NL)
      break;
    P = static_cast<const char *>(NL) + 1;
    Starts.push_back(static_cast<uint32_t>(P - B));
  }
  End = static_cast<uint32_t>(Text.size());
}

StringRef LineTable::line(StringRef Text, unsigned N) const {
  if (N == 0 || N > Starts.size())
    return StringRef();
  uint32_t B = Starts[N - 1];
  uint32_t E = N < Starts.size() ? Starts[N] - 1 : End;
  if (E > Text.size() || B > E)
    return StringRef();
  return Text.substr(B, E - B);
}

void splitLines(StringRef Text, std::vector<StringRef> &Lines) {
  Lines.clear();
  size_t Pos = 0;
  while (true) {
    size_t NL = Text.find('\n', Pos);
    if (NL == StringRef::npos) {
      Lines.push_back(Text.substr(Pos));
      return;
    }
    Lines.push_back(Text.substr(Pos, NL - Pos));
    Pos = NL + 1;
  }
}

unsigned countLines(StringRef Text) {
  return 1 + static_cast<unsigned>(Text.count('\n'));
}

bool parseUnsigned(StringRef S, uint64_t &V) {
  if (S.empty() || S.size() > 19)
    return false;
  V = 0;
  for (char C : S) {
    if (C < '0' || C > '9')
      return false;
    V = V * 10 + static_cast<uint64_t>(C - '0');
  }
  return true;
}

} // namespace tlp
