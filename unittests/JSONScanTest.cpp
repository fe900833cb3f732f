//===- JSONScanTest.cpp - The zero-copy JSON scanner ----------------------===//

#include "tlp/Parse/JSONScan.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tlp;

static bool valid(llvm::StringRef S) {
  json::Value V;
  json::ParseError E;
  return json::parse(S, V, E);
}

TEST(JSONScan, AcceptsJSONAndPythonNumbers) {
  for (const char *S : {"{}", "[]", "0", "-1.5e3", "\"x\"", "true", "null",
                        " {\"a\": [1, 2, {\"b\": null}]} ", "NaN", "-Infinity",
                        "[Infinity]", "\"\\u00e9\\n\""})
    EXPECT_TRUE(valid(S)) << S;
}

TEST(JSONScan, RejectsWithOffset) {
  json::Value V;
  json::ParseError E;
  EXPECT_FALSE(json::parse("{\"a\": 1,,}", V, E));
  EXPECT_EQ(E.Offset, 8u);
  EXPECT_EQ(E.Message, "expected a string key");
  for (const char *S : {"", "{", "[1,]", "{\"a\" 1}", "01", "1.", "tru",
                        "\"\\x\"", "\"a", "{} x", "\"\t\""})
    EXPECT_FALSE(valid(S)) << S;
  // Nesting is bounded.
  EXPECT_FALSE(valid(std::string(1000, '[') + std::string(1000, ']')));
}

TEST(JSONScan, MembersAndElements) {
  json::Value V;
  json::ParseError E;
  ASSERT_TRUE(json::parse(
      R"({"artifact": {"name": "x\"y", "encoding": "json"}, "frame_id": 3, "stack": [1, [2, 3], "]"]})",
      V, E));
  std::vector<std::string> Keys;
  json::forEachMember(V, [&](llvm::StringRef K, const json::Value &X) {
    Keys.push_back(K.str());
    if (K == "artifact") {
      json::forEachMember(X, [&](llvm::StringRef K2, const json::Value &Y) {
        if (K2 == "name") {
          EXPECT_EQ(json::decodeString(Y), "x\"y");
        }
        return true;
      });
    }
    if (K == "frame_id") {
      int64_t I;
      EXPECT_TRUE(json::getInt(X, I));
      EXPECT_EQ(I, 3);
    }
    if (K == "stack") {
      unsigned N = 0;
      json::forEachElement(X, [&](const json::Value &) { return ++N, true; });
      EXPECT_EQ(N, 3u);
    }
    return true;
  });
  EXPECT_EQ(Keys, (std::vector<std::string>{"artifact", "frame_id", "stack"}));
}

TEST(JSONScan, DecodesEscapes) {
  EXPECT_EQ(json::decodeRawString(R"(a\nb\t\"\\\/)"), "a\nb\t\"\\/");
  EXPECT_EQ(json::decodeRawString(R"(\u00e9)"), "\xC3\xA9");
  EXPECT_EQ(json::decodeRawString(R"(\ud83d\ude00)"), "\xF0\x9F\x98\x80");
  // A lone surrogate becomes U+FFFD.
  EXPECT_EQ(json::decodeRawString(R"(\ud83d)"), "\xEF\xBF\xBD");
}

// Long strings are scanned eight bytes at a time: a quote, a backslash or a
// control character must be found at every offset of a word, and bytes at
// and above 0x80 (UTF-8) must not stop the run.
TEST(JSONScan, StringRunsAtEveryOffset) {
  for (size_t Len = 0; Len < 40; ++Len) {
    std::string Plain(Len, 'a');
    for (size_t I = 0; I < Len; I += 3)
      Plain[I] = static_cast<char>(0xC3 + (I % 2)); // high bytes
    EXPECT_TRUE(valid("\"" + Plain + "\"")) << Len;
    for (size_t At = 0; At < Len; ++At) {
      std::string S = Plain;
      S[At] = '\x1f';
      json::Value V;
      json::ParseError E;
      EXPECT_FALSE(json::parse("\"" + S + "\"", V, E)) << Len << " " << At;
      EXPECT_EQ(E.Offset, At + 1) << Len << " " << At;
      EXPECT_EQ(E.Message, "control character in string");
      S = Plain;
      S[At] = '"'; // ends the string early: text follows
      EXPECT_FALSE(valid("\"" + S + "\"")) << Len << " " << At;
      S = Plain;
      S.insert(At, "\\\""); // an escaped quote does not end it
      ASSERT_TRUE(json::parse("\"" + S + "\"", V, E)) << Len << " " << At;
      EXPECT_EQ(V.Text.size(), Len + 4); // the whole string, escape included
    }
  }
}
