//===- GuardsFuzzer.cpp - Fuzz the guard tree reader and guard diffs ------===//
//
// The input is a guards text (dynamo_cpp_guards_str, or the dynamo_guards
// code lines); with a line "---" in it, two: the guards of a compile and of
// its recompile. Properties: every check names a line of its text, whose
// text holds the check's kind; a text's diff with itself is empty; the
// diff of two texts is a unified diff whose hunks hold the lines they say
// (their counts of '-' and ' ' lines, '+' and ' ' lines), and the failed
// guard of a reason is a check of the guarded compile's text.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tlp/Analysis/Guards.h"
#include "tlp/IR/Module.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

using namespace llvm;
using namespace tlp;

static void checkChecks(StringRef Text) {
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (const GuardCheck &C : parseGuardChecks(Text)) {
    if (C.Line == 0 || C.Line > Lines.size())
      fuzz::fail("a guard check names a line out of its text");
    if (!Lines[C.Line - 1].contains(C.Kind))
      fuzz::fail("a guard check's line does not hold its kind");
  }
}

/// The hunks of a unified diff say how many lines of each side they hold.
static void checkDiff(const std::string &Diff) {
  SmallVector<StringRef, 64> Lines;
  StringRef(Diff).split(Lines, '\n');
  size_t I = 2; // "--- A", "+++ B"
  while (I < Lines.size() && !Lines[I].empty()) {
    StringRef H = Lines[I];
    if (!H.startswith("@@ -"))
      fuzz::fail("a diff line outside a hunk", H.str());
    if (H.endswith("not shown @@"))
      return;
    unsigned A0, NA, B0, NB;
    StringRef R = H.drop_front(4);
    auto Num = [&](unsigned &V, char Until) {
      StringRef T = R.take_until([&](char C) { return C == Until; });
      R = R.drop_front(std::min(R.size(), T.size() + 1));
      return !T.getAsInteger(10, V);
    };
    if (!Num(A0, ',') || !Num(NA, ' ') || !R.consume_front("+") ||
        !Num(B0, ',') || !Num(NB, ' '))
      fuzz::fail("a malformed hunk header", H.str());
    ++I;
    unsigned SA = 0, SB = 0;
    while (I < Lines.size() && !Lines[I].startswith("@@") &&
           !(Lines[I].empty() && I + 1 == Lines.size())) {
      char C = Lines[I].empty() ? 0 : Lines[I][0];
      if (C != ' ' && C != '-' && C != '+')
        fuzz::fail("a hunk line without ' ', '-' or '+'", Lines[I].str());
      SA += C != '+';
      SB += C != '-';
      ++I;
    }
    if (SA != NA || SB != NB)
      fuzz::fail("a hunk holds other counts than its header says", H.str());
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  size_t Sep = Text.find("\n---\n");
  StringRef A = Text.substr(0, Sep);
  StringRef B = Sep == StringRef::npos ? A : Text.substr(Sep + 5);
  checkChecks(A);
  checkChecks(B);
  if (!guardsDiff("a", A, "a", A).empty())
    fuzz::fail("the guards differ from themselves");
  checkDiff(guardsDiff("a", A, "b", B, 200));

  // A recompile whose reasons are the lines of B, against guards A.
  Module M;
  CompileRecord R0, R1;
  R0.Id = CompileId::parse("0/0");
  R0.Line = 1;
  R0.Guards = A.str();
  R1.Id = CompileId::parse("0/1");
  R1.Line = 2;
  R1.Guards = B.str();
  SmallVector<StringRef, 8> Reasons;
  B.split(Reasons, '\n', 8, false);
  for (StringRef L : Reasons)
    R1.RecompileReasons.push_back(("0/0: " + L).str());
  M.Compiles.push_back(std::move(R0));
  M.Compiles.push_back(std::move(R1));
  for (const FailedGuard &F : failedGuards(M, M.Compiles[1])) {
    // 0/0 is the compile the reason names, unless it has no guards.
    if (F.Guarded != (A.empty() ? nullptr : &M.Compiles[0]))
      fuzz::fail("a reason naming 0/0 is not matched to 0/0's guards");
    if (F.Check.Line && F.How.empty())
      fuzz::fail("a failed guard found without saying how");
  }
  return 0;
}
