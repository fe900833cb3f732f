//===- JSONWriterTest.cpp - Streaming JSON, byte for byte as nlohmann -----===//
//
// JSONWriter must write what nlohmann::json's dump(Indent, ' ', false,
// error_handler_t::replace) wrote before it, so every test compares the
// two, on fixed edge cases and on random bytes.
//
//===----------------------------------------------------------------------===//

#include "tlp/Support/JSONWriter.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace tlp;
using ojson = nlohmann::ordered_json;

namespace {

std::string dumpOf(const ojson &J, bool Pretty = false) {
  return J.dump(Pretty ? 2 : -1, ' ', /*ensure_ascii=*/false,
                ojson::error_handler_t::replace);
}

std::string writeString(llvm::StringRef S, bool ScriptSafe = false) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  JSONWriter::Options O;
  O.ScriptSafe = ScriptSafe;
  JSONWriter W(OS, O);
  W.value(S);
  OS.flush();
  return Out;
}

std::string writeDouble(double D) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  JSONWriter W(OS);
  W.value(D);
  OS.flush();
  return Out;
}

} // namespace

TEST(JSONWriter, EscapesControlCharactersAsNlohmann) {
  for (unsigned C = 0; C < 0x80; ++C) {
    std::string S = "a" + std::string(1, char(C)) + "b";
    EXPECT_EQ(writeString(S), dumpOf(S)) << "byte " << C;
  }
  // The short escapes, \u00XX in lower case for the rest, DEL as it is.
  EXPECT_EQ(writeString(llvm::StringRef("\b\t\n\f\r\"\\\x01\x1f\x7f/", 11)),
            "\"\\b\\t\\n\\f\\r\\\"\\\\\\u0001\\u001f\x7f/\"");
  EXPECT_EQ(writeString(llvm::StringRef("a\0b", 3)), "\"a\\u0000b\"");
}

TEST(JSONWriter, KeepsValidUTF8) {
  for (const char *S : {"é", "€", "\xF0\x9F\x98\x80", "\xEF\xBF\xBD",
                        "\xED\x9F\xBF", "\xEE\x80\x80", "\xF4\x8F\xBF\xBF",
                        "\xE2\x80\xA8", "日本語 text"}) {
    EXPECT_EQ(writeString(S), dumpOf(S)) << S;
    EXPECT_EQ(writeString(S), "\"" + std::string(S) + "\"");
  }
}

TEST(JSONWriter, ReplacesInvalidUTF8AsNlohmann) {
  const std::string R = "\xEF\xBF\xBD";
  struct Case {
    const char *In;
    std::string Out;
  } Cases[] = {
      {"\x80", R},                          // a continuation byte alone
      {"\xC0\xAF", R + R},                  // overlong: two bad bytes
      {"\xC1\xBF", R + R},
      {"\xE0\x80\x80", R + R + R},          // overlong three-byte form
      {"\xED\xA0\x80", R + R + R},          // a surrogate
      {"\xF4\x90\x80\x80", R + R + R + R},  // over U+10FFFF
      {"\xF5\x80", R + R},
      {"\xFF", R},
      {"\xE2\x28\xA1", R + "(" + R},        // the breaking byte read again
      {"\xE2\x82", R},                      // cut at the end
      {"a\xF0\x9F\x98", "a" + R},
      {"\xC3", R},
      {"\xC3\xC3\xA9", R + "é"},
      {"\xE2\x82\x0A", R + "\\n"},
  };
  for (const Case &C : Cases) {
    EXPECT_EQ(writeString(C.In), dumpOf(std::string(C.In))) << C.In;
    EXPECT_EQ(writeString(C.In), "\"" + C.Out + "\"") << C.In;
  }
}

TEST(JSONWriter, RandomBytesAsNlohmann) {
  std::mt19937 Rng(24);
  // Bytes weighted towards what breaks UTF-8: leads, continuations,
  // controls, quotes.
  const unsigned char Pool[] = {'a',  '"',  '\\', '\n', 0x01, 0x7f, 0x80,
                                0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2,
                                0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4,
                                0xf5, 0xff, '<',  '&',  0xa8, 0xa9};
  for (unsigned Round = 0; Round < 20000; ++Round) {
    std::string S(Rng() % 12, ' ');
    for (char &C : S)
      C = Rng() % 3 ? char(Pool[Rng() % sizeof(Pool)]) : char(Rng() % 256);
    ASSERT_EQ(writeString(S), dumpOf(S)) << "round " << Round;
  }
  // Longer text, mostly plain, so that the eight-bytes-at-a-time scan
  // meets what needs escaping at every offset of a word.
  for (unsigned Round = 0; Round < 20000; ++Round) {
    std::string S(Rng() % 40, ' ');
    for (char &C : S)
      C = Rng() % 8 ? char('a' + Rng() % 26) : char(Pool[Rng() % sizeof(Pool)]);
    ASSERT_EQ(writeString(S), dumpOf(S)) << "long round " << Round;
    std::string Safe = dumpOf(S);
    for (auto [From, To] : {std::pair<const char *, const char *>{"<", "\\u003c"},
                            {">", "\\u003e"}, {"&", "\\u0026"},
                            {"\xE2\x80\xA8", "\\u2028"},
                            {"\xE2\x80\xA9", "\\u2029"}})
      for (size_t At = 0; (At = Safe.find(From, At)) != std::string::npos;
           At += std::strlen(To))
        Safe.replace(At, std::strlen(From), To);
    ASSERT_EQ(writeString(S, /*ScriptSafe=*/true), Safe)
        << "script-safe round " << Round;
  }
}

TEST(JSONWriter, ScriptSafe) {
  EXPECT_EQ(writeString("</script><!--&", true),
            "\"\\u003c/script\\u003e\\u003c!--\\u0026\"");
  EXPECT_EQ(writeString("a\xE2\x80\xA8" "b\xE2\x80\xA9", true),
            "\"a\\u2028b\\u2029\"");
  // Not in plain output; other three-byte sequences untouched.
  EXPECT_EQ(writeString("<\xE2\x80\xA8>"), "\"<\xE2\x80\xA8>\"");
  EXPECT_EQ(writeString("\xE2\x80\xA7\xE2\x82\xAC", true),
            "\"\xE2\x80\xA7\xE2\x82\xAC\"");
  // An invalid sequence before a '<' still becomes U+FFFD.
  EXPECT_EQ(writeString("\xE2\x80<", true), "\"\xEF\xBF\xBD\\u003c\"");
}

TEST(JSONWriter, NumbersAsNlohmann) {
  for (double D : {0.0, -0.0, 1.0, -1.5, 0.1, 1e-5, 1.25e-4, 123456789.0,
                   1e15, 1e16, 1e17, 1.7976931348623157e308, 5e-324,
                   2.2250738585072014e-308, 0.30000000000000004, 1.0 / 3,
                   12.34, 1e21, -1e-7, 4503599627370496.5})
    EXPECT_EQ(writeDouble(D), dumpOf(ojson(D))) << D;
  EXPECT_EQ(writeDouble(std::nan("")), "null");
  EXPECT_EQ(writeDouble(std::numeric_limits<double>::infinity()), "null");
  std::mt19937_64 Rng(7);
  for (unsigned I = 0; I < 20000; ++I) {
    uint64_t Bits = Rng();
    double D;
    std::memcpy(&D, &Bits, sizeof(D));
    if (!std::isfinite(D))
      continue;
    ASSERT_EQ(writeDouble(D), dumpOf(ojson(D))) << Bits;
  }

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  {
    JSONWriter W(OS);
    W.array([&] {
      W.value(0);
      W.value(-1);
      W.value(int64_t(INT64_MIN));
      W.value(uint64_t(UINT64_MAX));
      W.value(uint32_t(7));
      W.value(size_t(8));
      W.value(true);
      W.value(false);
      W.null();
      W.value(llvm::Optional<int64_t>());
      W.value(llvm::Optional<int64_t>(3));
    });
  }
  EXPECT_EQ(OS.str(), dumpOf(ojson::array({0, -1, INT64_MIN, UINT64_MAX, 7u,
                                           size_t(8), true, false, nullptr,
                                           nullptr, 3})));
}

namespace {

/// A document with empty and nested containers, written by the writer.
void writeSample(JSONWriter &W) {
  W.object([&] {
    W.attribute("s", "x");
    W.attribute("n", 1);
    W.attributeObject("empty_object", [] {});
    W.attributeArray("empty_array", [] {});
    W.attributeArray("a", [&] {
      W.value(1);
      W.object([&] { W.attribute("k", nullptr); });
      W.array([&] {});
      W.array([&] { W.value("y"); });
    });
    W.attributeObject("o", [&] {
      W.key("deep");
      W.value(std::vector<std::string>{"p", "q"});
    });
  });
}

ojson sample() {
  ojson J = ojson::object();
  J["s"] = "x";
  J["n"] = 1;
  J["empty_object"] = ojson::object();
  J["empty_array"] = ojson::array();
  J["a"] = ojson::array(
      {1, ojson::object({{"k", nullptr}}), ojson::array(), ojson::array({"y"})});
  J["o"] = ojson::object({{"deep", ojson::array({"p", "q"})}});
  return J;
}

} // namespace

TEST(JSONWriter, LayoutAsNlohmann) {
  for (bool Pretty : {false, true}) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    JSONWriter::Options O;
    O.Pretty = Pretty;
    {
      JSONWriter W(OS, O);
      writeSample(W);
    }
    EXPECT_EQ(OS.str(), dumpOf(sample(), Pretty));
  }
}

TEST(JSONWriter, BaseIndentAndRawValues) {
  // A unit written apart with BaseIndent 4 sits at depth 2 of a document.
  JSONWriter::Options O;
  O.Pretty = true;
  std::string Part;
  {
    llvm::raw_string_ostream OS(Part);
    JSONWriter::Options PO = O;
    PO.BaseIndent = 4;
    JSONWriter W(OS, PO);
    writeSample(W);
  }
  std::string Doc;
  llvm::raw_string_ostream OS(Doc);
  {
    JSONWriter W(OS, O);
    W.object([&] {
      W.attribute("first", 0);
      W.attributeArray("units", [&] {
        W.rawValue(Part);
        W.rawValue(Part);
      });
    });
  }
  ojson J = ojson::object();
  J["first"] = 0;
  J["units"] = ojson::array({sample(), sample()});
  EXPECT_EQ(OS.str(), dumpOf(J, true));
}

TEST(JSONWriter, InlineContainers) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  JSONWriter::Options O;
  O.Pretty = true;
  O.IndentWidth = 1;
  {
    JSONWriter W(OS, O);
    W.object([&] {
      W.attributeArray("rows", [&] {
        W.array([&] {
          W.value(1);
          W.object([&] { W.attribute("k", "v"); });
        }, JSONWriter::Layout::Inline);
      });
      W.attributeObject("o", [&] { W.attribute("a", 1); },
                        JSONWriter::Layout::Inline);
    });
  }
  EXPECT_EQ(OS.str(), "{\n \"rows\": [\n  [1,{\"k\":\"v\"}]\n ],\n"
                      " \"o\": {\"a\":1}\n}");
}

TEST(JSONWriter, KeysAreEscaped) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  {
    JSONWriter W(OS);
    W.object([&] { W.attribute("a\"\n\xFF", 1); });
  }
  ojson J = ojson::object();
  J["a\"\n\xFF"] = 1;
  EXPECT_EQ(OS.str(), dumpOf(J));
}
