//===- StringUtilsTest.cpp - Token search, lines, UTF-8 -------------------===//

#include "tlp/Support/PrintableStream.h"
#include "tlp/Support/StringUtils.h"

#include <random>

#include "gtest/gtest.h"

using namespace tlp;

// A copy: ODR-using StringRef::npos from a C++17 test clashes with the
// out-of-line definition in LLVM 14's (C++14) LLVMSupport.
static const size_t NPos = static_cast<size_t>(-1);

TEST(StringUtils, FindTokenRespectsIdentifierBoundaries) {
  llvm::StringRef Line = "    triton_poi_fused_mul_10.run(buf1)";
  EXPECT_EQ(findToken(Line, "triton_poi_fused_mul_1"), NPos);
  EXPECT_EQ(findToken(Line, "triton_poi_fused_mul_10"), 4u);
  // A member access is not the name itself.
  EXPECT_EQ(findToken("kernels_.triton_x == nullptr", "triton_x"), NPos);
  // The second occurrence is found after a non-token one.
  EXPECT_EQ(findToken("foo_bar(foo)", "foo"), 8u);
  EXPECT_EQ(findToken("extern_kernels.mm(a)", "extern_kernels.mm"), 0u);
  EXPECT_EQ(findToken("extern_kernels.mmx(a)", "extern_kernels.mm"), NPos);
  EXPECT_EQ(findToken("", "x"), NPos);
  EXPECT_EQ(findToken("x", ""), NPos);
}

TEST(StringUtils, LineTable) {
  std::string Text = "a\nbb\n\nccc\n";
  LineTable T(Text);
  ASSERT_EQ(T.size(), 5u);
  EXPECT_EQ(T.line(Text, 1), "a");
  EXPECT_EQ(T.line(Text, 2), "bb");
  EXPECT_EQ(T.line(Text, 3), "");
  EXPECT_EQ(T.line(Text, 4), "ccc");
  EXPECT_EQ(T.line(Text, 5), "");
  EXPECT_EQ(T.line(Text, 0), "");
  EXPECT_EQ(T.line(Text, 6), "");
  EXPECT_EQ(countLines(Text), 5u);
  std::vector<llvm::StringRef> Lines;
  splitLines(Text, Lines);
  EXPECT_EQ(Lines.size(), 5u);
}

TEST(StringUtils, SanitizeUTF8) {
  std::string Good = "caf\xC3\xA9 \xE2\x82\xAC";
  EXPECT_FALSE(sanitizeUTF8(Good));
  std::string Bad = "a\xFF"
                    "b\xC3";
  EXPECT_TRUE(sanitizeUTF8(Bad));
  EXPECT_EQ(Bad, "a\xEF\xBF\xBD"
                 "b\xEF\xBF\xBD");
  // Overlong encodings and surrogates are invalid.
  std::string Overlong = "\xC0\xAF";
  EXPECT_TRUE(sanitizeUTF8(Overlong));
  std::string Surrogate = "\xED\xA0\x80";
  EXPECT_TRUE(sanitizeUTF8(Surrogate));
  EXPECT_TRUE(isValidUTF8(Surrogate));
}

TEST(StringUtils, Excerpt) {
  EXPECT_EQ(excerpt("abc\x01", 10), "abc?");
  EXPECT_EQ(excerpt("abcdef", 3), "abc...");
  // Never cut inside a UTF-8 sequence.
  EXPECT_EQ(excerpt("a\xC3\xA9", 2), "a...");
}

TEST(StringUtils, ParseUnsigned) {
  uint64_t V;
  EXPECT_TRUE(parseUnsigned("45", V));
  EXPECT_EQ(V, 45u);
  EXPECT_FALSE(parseUnsigned("", V));
  EXPECT_FALSE(parseUnsigned("4a", V));
  EXPECT_FALSE(parseUnsigned("-1", V));
  EXPECT_FALSE(parseUnsigned("99999999999999999999", V));
}

// What a terminal must not get from a log: C0 (but tab and newline), DEL
// and C1 controls print as '?', invalid UTF-8 bytes as U+FFFD.
TEST(StringUtils, Printable) {
  EXPECT_EQ(printable("plain\ttext\n"), "plain\ttext\n");
  EXPECT_TRUE(isPrintable("caf\xC3\xA9 \xE2\x86\x92"));
  EXPECT_EQ(printable("\x1b]0;title\x07"), "?]0;title?");
  EXPECT_EQ(printable("\x1b[2J\r\x08\x7f"), "?[2J???");
  EXPECT_EQ(printable("\x1b]52;c;ZXZpbA==\x1b\\"), "?]52;c;ZXZpbA==?\\");
  // C1 CSI (U+009B) and NEL (U+0085); U+00A0 stays.
  EXPECT_EQ(printable("a\xC2\x9B" "2Jb\xC2\x85\xC2\xA0"), "a?2Jb?\xC2\xA0");
  EXPECT_EQ(printable("x\xFF\xC3"), "x\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_FALSE(isPrintable("\x1b"));
  EXPECT_FALSE(isPrintable("\xC2\x9B"));
  // An excerpt is one line.
  EXPECT_EQ(excerpt("a\nb\x1b"), "a?b?");
}

// isPrintable and firstInvalidUTF8 skip eight bytes at a time where every
// byte is plain ASCII: every byte value at every place of a text of 1 to
// 24 bytes (either side of a word, the tail shorter than one), and a
// two-byte character across each word boundary, answer as a byte at a time.
TEST(StringUtils, WordAtATimeMatchesBytes) {
  for (size_t Len = 1; Len <= 24; ++Len) {
    for (size_t At = 0; At < Len; ++At) {
      for (unsigned B = 0; B < 256; ++B) {
        std::string S(Len, 'a');
        S[At] = static_cast<char>(B);
        bool Printable = (B >= 0x20 && B < 0x7F) || B == '\t' || B == '\n';
        EXPECT_EQ(isPrintable(S), Printable) << Len << " " << At << " " << B;
        EXPECT_EQ(firstInvalidUTF8(S), B < 0x80 ? NPos : At)
            << Len << " " << At << " " << B;
      }
    }
  }
  for (size_t At = 0; At + 2 <= 24; ++At) {
    std::string S(24, 'a');
    S.replace(At, 2, "\xC3\xA9");
    EXPECT_TRUE(isPrintable(S)) << At;
    EXPECT_EQ(firstInvalidUTF8(S), NPos) << At;
    S.replace(At, 2, "\xC2\x9B"); // C1 CSI
    EXPECT_FALSE(isPrintable(S)) << At;
    S[At + 1] = 'b'; // a lead byte without its continuation
    EXPECT_EQ(firstInvalidUTF8(S), At) << At;
  }
}

// A PrintableStream writes printable() of all it was given, however the
// text is cut into writes: a control byte, broken and whole UTF-8
// sequences (the two bytes of a C1 control, a 4-byte character) cut
// anywhere, a last line without its newline.
TEST(StringUtils, PrintableStreamMatchesPrintableOfTheWhole) {
  std::string Doc;
  // ("\x9B" "b": one literal would read the hex escape \x9Bb.)
  const char *Pieces[] = {"plain line\n", "\x1b[2J\r", ("a\xC2\x9B" "b\n"),
                          "\xF0\x9F\x98\x80 ok\n", "\xE2\x82", "\xFF\n",
                          "\t\xC2\xA0x\n", "\n", "last \xC2"};
  for (unsigned I = 0; I < 400; ++I)
    Doc += Pieces[(I * 7 + I / 3) % (sizeof(Pieces) / sizeof(Pieces[0]))];
  std::mt19937 Rng(24);
  for (unsigned Round = 0; Round < 50; ++Round) {
    std::string Out;
    {
      llvm::raw_string_ostream OS(Out);
      PrintableStream PS(OS);
      if (Round % 2)
        PS.SetUnbuffered();
      size_t At = 0;
      while (At < Doc.size()) {
        size_t N = std::min<size_t>(Doc.size() - At, Rng() % 40);
        PS << llvm::StringRef(Doc).substr(At, N);
        At += N;
      }
    }
    EXPECT_EQ(Out, printable(Doc)) << "round " << Round;
  }
  // finish() writes a partial last line; what is written after goes on.
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  PrintableStream PS(OS);
  PS << "no newline \x07";
  PS.finish();
  EXPECT_EQ(OS.str(), "no newline ?");
  std::string Direct;
  llvm::raw_string_ostream DS(Direct);
  writePrintable(DS, "x\x1by");
  EXPECT_EQ(DS.str(), "x?y");
}
