//===- SpillFileTest.cpp - Text kept on disk until written ----------------===//

#include "tlp/Support/SpillFile.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tlp;

namespace {

TEST(SpillFileTest, PiecesComeBackInAnyOrder) {
  SpillFile S;
  std::vector<std::string> Texts = {"## Unit a\n", "", std::string(200000, 'x'),
                                    "\xc3\xa9t\xc3\xa9\n"};
  std::vector<SpillFile::Piece> Pieces;
  for (const std::string &T : Texts)
    Pieces.push_back(S.append(T));
  for (size_t I = Texts.size(); I-- > 0;) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    ASSERT_TRUE(S.writeTo(Pieces[I], OS));
    OS.flush();
    EXPECT_EQ(Out, Texts[I]);
  }
  EXPECT_TRUE(S.onDisk()); // /tmp is writable on every machine we test on
}

} // namespace
