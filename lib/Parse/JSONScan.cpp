//===- JSONScan.cpp - Zero-copy JSON validation and traversal -------------===//

#include "tlp/Parse/JSONScan.h"

#include "tlp/Support/Swar.h"

#include "llvm/Support/ConvertUTF.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace tlp {
namespace json {

namespace {

/// Nesting limit: deeper input is rejected rather than risking the stack.
constexpr unsigned MaxDepth = 256;

/// The bytes of \p W that end a run of plain string bytes, as a swar
/// mask: a quote, a backslash or a control character (below 0x20).
inline uint64_t plainRunEnds(uint64_t W) {
  return swar::equal(W, '"') | swar::equal(W, '\\') | swar::below(W, 0x20);
}

class Scanner {
public:
  Scanner(const char *B, const char *E) : Begin(B), P(B), End(E) {}

  bool value(Value &V, unsigned Depth) {
    ws();
    if (P == End)
      return fail("unexpected end of input");
    const char *Start = P;
    switch (*P) {
    case '{':
      if (!object(Depth))
        return false;
      V.Kind = ValueKind::Object;
      break;
    case '[':
      if (!array(Depth))
        return false;
      V.Kind = ValueKind::Array;
      break;
    case '"':
      if (!string())
        return false;
      V.Kind = ValueKind::String;
      break;
    case 't':
      if (!word("true"))
        return false;
      V.Kind = ValueKind::True;
      break;
    case 'f':
      if (!word("false"))
        return false;
      V.Kind = ValueKind::False;
      break;
    case 'n':
      if (!word("null"))
        return false;
      V.Kind = ValueKind::Null;
      break;
    case 'N':
      if (!word("NaN"))
        return false;
      V.Kind = ValueKind::Number;
      break;
    case 'I':
      if (!word("Infinity"))
        return false;
      V.Kind = ValueKind::Number;
      break;
    default:
      if (*P == '-' || (*P >= '0' && *P <= '9')) {
        if (!number())
          return false;
        V.Kind = ValueKind::Number;
        break;
      }
      return fail("unexpected character");
    }
    V.Text = StringRef(Start, P - Start);
    return true;
  }

  void ws() {
    while (P < End && (*P == ' ' || *P == '\t' || *P == '\n' || *P == '\r'))
      ++P;
  }

  bool fail(const char *Msg) {
    if (Err.Message.empty()) {
      Err.Offset = static_cast<size_t>(P - Begin);
      Err.Message = Msg;
    }
    return false;
  }

  const char *Begin, *P, *End;
  ParseError Err;

private:
  bool word(const char *W) {
    size_t N = std::strlen(W);
    if (static_cast<size_t>(End - P) < N || std::memcmp(P, W, N) != 0)
      return fail("invalid literal");
    P += N;
    return true;
  }

  bool number() {
    if (*P == '-') {
      ++P;
      if (P < End && *P == 'I')
        return word("Infinity");
    }
    if (P == End)
      return fail("invalid number");
    if (*P == '0') {
      ++P;
    } else if (*P >= '1' && *P <= '9') {
      while (P < End && *P >= '0' && *P <= '9')
        ++P;
    } else {
      return fail("invalid number");
    }
    if (P < End && *P == '.') {
      ++P;
      if (P == End || *P < '0' || *P > '9')
        return fail("invalid number");
      while (P < End && *P >= '0' && *P <= '9')
        ++P;
    }
    if (P < End && (*P == 'e' || *P == 'E')) {
      ++P;
      if (P < End && (*P == '+' || *P == '-'))
        ++P;
      if (P == End || *P < '0' || *P > '9')
        return fail("invalid number");
      while (P < End && *P >= '0' && *P <= '9')
        ++P;
    }
    return true;
  }

  static bool isHex(char C) {
    return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f') ||
           (C >= 'A' && C <= 'F');
  }

  bool string() {
    ++P; // opening quote
    while (true) {
      // Skip plain bytes quickly: eight at a time while none of them ends
      // the run, then to the one that does.
      while (End - P >= 8) {
        uint64_t M = plainRunEnds(swar::load(P));
        if (M) {
          P += swar::firstFlagged(M);
          break;
        }
        P += 8;
      }
      while (P < End && *P != '"' && *P != '\\' &&
             static_cast<unsigned char>(*P) >= 0x20)
        ++P;
      if (P == End)
        return fail("unterminated string");
      char C = *P;
      if (C == '"') {
        ++P;
        return true;
      }
      if (C != '\\')
        return fail("control character in string");
      ++P;
      if (P == End)
        return fail("unterminated string");
      switch (*P) {
      case '"':
      case '\\':
      case '/':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
        ++P;
        break;
      case 'u':
        if (End - P < 5 || !isHex(P[1]) || !isHex(P[2]) || !isHex(P[3]) ||
            !isHex(P[4]))
          return fail("invalid \\u escape");
        P += 5;
        break;
      default:
        return fail("invalid escape");
      }
    }
  }

  bool object(unsigned Depth) {
    if (Depth >= MaxDepth)
      return fail("nesting too deep");
    ++P;
    ws();
    if (P < End && *P == '}') {
      ++P;
      return true;
    }
    while (true) {
      ws();
      if (P == End || *P != '"')
        return fail("expected a string key");
      if (!string())
        return false;
      ws();
      if (P == End || *P != ':')
        return fail("expected ':'");
      ++P;
      Value V;
      if (!value(V, Depth + 1))
        return false;
      ws();
      if (P == End)
        return fail("unterminated object");
      if (*P == ',') {
        ++P;
        continue;
      }
      if (*P == '}') {
        ++P;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  bool array(unsigned Depth) {
    if (Depth >= MaxDepth)
      return fail("nesting too deep");
    ++P;
    ws();
    if (P < End && *P == ']') {
      ++P;
      return true;
    }
    while (true) {
      Value V;
      if (!value(V, Depth + 1))
        return false;
      ws();
      if (P == End)
        return fail("unterminated array");
      if (*P == ',') {
        ++P;
        continue;
      }
      if (*P == ']') {
        ++P;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }
};

/// Skip one already-validated value starting at P; returns its end.
const char *skipValue(const char *P, const char *E);

const char *skipString(const char *P, const char *E) {
  ++P;
  while (P < E) {
    const char *Q = static_cast<const char *>(std::memchr(P, '"', E - P));
    if (!Q)
      return E;
    // Count preceding backslashes.
    const char *B = Q;
    while (B > P && B[-1] == '\\')
      --B;
    if (((Q - B) & 1) == 0)
      return Q + 1;
    P = Q + 1;
  }
  return E;
}

const char *skipWS(const char *P, const char *E) {
  while (P < E && (*P == ' ' || *P == '\t' || *P == '\n' || *P == '\r'))
    ++P;
  return P;
}

const char *skipValue(const char *P, const char *E) {
  P = skipWS(P, E);
  if (P == E)
    return E;
  if (*P == '"')
    return skipString(P, E);
  if (*P == '{' || *P == '[') {
    unsigned Depth = 0;
    while (P < E) {
      char C = *P;
      if (C == '"') {
        P = skipString(P, E);
        continue;
      }
      if (C == '{' || C == '[')
        ++Depth;
      else if (C == '}' || C == ']') {
        if (--Depth == 0)
          return P + 1;
      }
      ++P;
    }
    return E;
  }
  while (P < E && *P != ',' && *P != '}' && *P != ']' && *P != ' ' &&
         *P != '\t' && *P != '\n' && *P != '\r')
    ++P;
  return P;
}

ValueKind kindOf(char C) {
  switch (C) {
  case '{':
    return ValueKind::Object;
  case '[':
    return ValueKind::Array;
  case '"':
    return ValueKind::String;
  case 't':
    return ValueKind::True;
  case 'f':
    return ValueKind::False;
  case 'n':
    return ValueKind::Null;
  default:
    return ValueKind::Number;
  }
}

} // namespace

bool parse(StringRef Text, Value &V, ParseError &Err) {
  Scanner S(Text.begin(), Text.end());
  if (!S.value(V, 0)) {
    Err = S.Err;
    return false;
  }
  S.ws();
  if (S.P != S.End) {
    S.fail("unexpected text after the value");
    Err = S.Err;
    return false;
  }
  return true;
}

bool forEachMemberRaw(const Value &Obj,
                      function_ref<bool(StringRef, const Value &)> F) {
  if (!Obj.isObject())
    return false;
  const char *P = Obj.Text.begin() + 1, *E = Obj.Text.end() - 1;
  while (true) {
    P = skipWS(P, E);
    if (P >= E || *P != '"')
      return true;
    const char *KEnd = skipString(P, E);
    StringRef Key(P + 1, KEnd - P - 2);
    P = skipWS(KEnd, E);
    ++P; // ':'
    P = skipWS(P, E);
    const char *VEnd = skipValue(P, E);
    Value V{kindOf(*P), StringRef(P, VEnd - P)};
    if (!F(Key, V))
      return false;
    P = skipWS(VEnd, E);
    if (P < E && *P == ',')
      ++P;
  }
}

bool forEachMember(const Value &Obj,
                   function_ref<bool(StringRef, const Value &)> F) {
  return forEachMemberRaw(Obj, [&](StringRef Raw, const Value &V) {
    if (Raw.find('\\') == StringRef::npos)
      return F(Raw, V);
    std::string Key = decodeRawString(Raw);
    return F(Key, V);
  });
}

bool forEachElement(const Value &Arr, function_ref<bool(const Value &)> F) {
  if (!Arr.isArray())
    return false;
  const char *P = Arr.Text.begin() + 1, *E = Arr.Text.end() - 1;
  while (true) {
    P = skipWS(P, E);
    if (P >= E)
      return true;
    const char *VEnd = skipValue(P, E);
    Value V{kindOf(*P), StringRef(P, VEnd - P)};
    if (!F(V))
      return false;
    P = skipWS(VEnd, E);
    if (P < E && *P == ',')
      ++P;
  }
}

static unsigned hexVal(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  return C - 'A' + 10;
}

static void appendUTF8(std::string &Out, uint32_t CP) {
  char Buf[4];
  char *Ptr = Buf;
  if (!ConvertCodePointToUTF8(CP, Ptr))
    ConvertCodePointToUTF8(0xFFFD, Ptr = Buf);
  Out.append(Buf, Ptr - Buf);
}

std::string decodeRawString(StringRef Raw) {
  std::string Out;
  Out.reserve(Raw.size());
  for (size_t I = 0; I < Raw.size(); ++I) {
    char C = Raw[I];
    if (C != '\\') {
      Out += C;
      continue;
    }
    if (++I >= Raw.size())
      break;
    switch (Raw[I]) {
    case 'b':
      Out += '\b';
      break;
    case 'f':
      Out += '\f';
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
    case 'u': {
      if (I + 4 >= Raw.size()) {
        Out += "\xEF\xBF\xBD";
        I = Raw.size();
        break;
      }
      uint32_t CP = 0;
      for (unsigned K = 1; K <= 4; ++K)
        CP = CP * 16 + hexVal(Raw[I + K]);
      I += 4;
      if (CP >= 0xD800 && CP <= 0xDBFF) {
        // A high surrogate must be followed by \uDC00-\uDFFF.
        if (I + 6 < Raw.size() && Raw[I + 1] == '\\' && Raw[I + 2] == 'u') {
          uint32_t Lo = 0;
          for (unsigned K = 3; K <= 6; ++K)
            Lo = Lo * 16 + hexVal(Raw[I + K]);
          if (Lo >= 0xDC00 && Lo <= 0xDFFF) {
            CP = 0x10000 + ((CP - 0xD800) << 10) + (Lo - 0xDC00);
            I += 6;
            appendUTF8(Out, CP);
            break;
          }
        }
        CP = 0xFFFD;
      } else if (CP >= 0xDC00 && CP <= 0xDFFF) {
        CP = 0xFFFD;
      }
      appendUTF8(Out, CP);
      break;
    }
    default:
      Out += Raw[I]; // '"', '\\', '/'
    }
  }
  return Out;
}

std::string decodeString(const Value &V) {
  if (!V.isString() || V.Text.size() < 2)
    return std::string();
  return decodeRawString(V.Text.substr(1, V.Text.size() - 2));
}

bool getInt(const Value &V, int64_t &Out) {
  if (!V.isNumber())
    return false;
  StringRef T = V.Text;
  bool Neg = T.consume_front("-");
  if (T.empty() || T.size() > 19)
    return false;
  uint64_t R = 0;
  for (char C : T) {
    if (C < '0' || C > '9')
      return false;
    R = R * 10 + static_cast<uint64_t>(C - '0');
  }
  // Every int64_t, INT64_MIN included; nothing that wraps.
  if (R > static_cast<uint64_t>(INT64_MAX) + (Neg ? 1 : 0))
    return false;
  Out = Neg ? static_cast<int64_t>(0 - R) : static_cast<int64_t>(R);
  return true;
}

bool getDouble(const Value &V, double &Out) {
  if (!V.isNumber())
    return false;
  if (V.Text == "NaN") {
    Out = std::nan("");
    return true;
  }
  if (V.Text == "Infinity" || V.Text == "-Infinity") {
    Out = V.Text[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  std::string S = V.Text.str();
  char *EndP = nullptr;
  Out = std::strtod(S.c_str(), &EndP);
  return EndP && *EndP == '\0';
}

} // namespace json
} // namespace tlp
