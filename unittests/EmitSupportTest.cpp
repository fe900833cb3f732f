//===- EmitSupportTest.cpp - HTML escaping of log text --------------------===//

#include "../lib/Emit/EmitSupport.h"

#include "tlp/Support/StringUtils.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

#include "gtest/gtest.h"

using namespace tlp;
using namespace tlp::emit;

namespace {

/// escapeHTML a byte at a time, as the words-at-a-time version must.
std::string slowEscape(llvm::StringRef S, bool Pre) {
  std::string P = printable(S), Out;
  for (char C : P) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    case '\n':
      Out += Pre ? "&#10;" : "\n";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string streamed(llvm::StringRef S, bool Pre) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << HTMLText{S, Pre};
  return OS.str();
}

} // namespace

// The escaping skips eight bytes at a time and, in a word that has a byte
// to escape, goes straight to the first: each such byte (and a control
// character, a byte over 0x7F, a line break) at every place of a text of 1
// to 24 bytes, alone and after another one, answers as a byte at a time.
TEST(EmitSupport, EscapeHTMLEveryPlace) {
  const char Specials[] = {'&', '<', '>', '"', '\'', '\n', '\r', '\x1b',
                           '\x7f', '\xC3', 'a'};
  for (size_t Len = 1; Len <= 24; ++Len)
    for (size_t At = 0; At < Len; ++At)
      for (char C : Specials)
        for (size_t Second = At; Second < Len; Second += 3) {
          std::string S(Len, 'x');
          S[At] = C;
          if (Second != At)
            S[Second] = '<';
          for (bool Pre : {false, true}) {
            std::string Want = slowEscape(S, Pre);
            EXPECT_EQ(Pre ? escapePreHTML(S) : escapeHTML(S), Want)
                << "len " << Len << " at " << At << " byte " << int(C);
            EXPECT_EQ(streamed(S, Pre), Want);
          }
        }
  EXPECT_EQ(escapeHTML("a\"f32[3]\" <x> & 'y'"),
            "a&quot;f32[3]&quot; &lt;x&gt; &amp; &#39;y&#39;");
  EXPECT_EQ(escapePreHTML("line 1\nline 2\r\n"), "line 1&#10;line 2?&#10;");
}
