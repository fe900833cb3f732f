//===- LinkedIRFixture.h - The one-kernel IR fixture, linked ----*- C++ -*-===//
//
// test/Inputs/ir/one-kernel.tlp read and run through the default pipeline:
// pre-grad `a` (/m.py:7) became post-grad `mul` in kernel row 0; `b`
// (/m.py:8) went nowhere. Shared by the tests of the query engine and of
// the emitters' per-unit view.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_UNITTESTS_LINKEDIRFIXTURE_H
#define TLP_UNITTESTS_LINKEDIRFIXTURE_H

#include "tlp/Parse/TraceReader.h"
#include "tlp/Passes/Pass.h"

#include "tlp/IR/IRDocumentReader.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

namespace tlp {

struct LinkedIRFixture {
  DiagnosticEngine Diags;
  TraceSources Sources;
  std::unique_ptr<Module> M;

  LinkedIRFixture() {
    auto Buf = llvm::MemoryBuffer::getFile(TLP_TEST_INPUTS "/ir/one-kernel.tlp");
    EXPECT_TRUE(static_cast<bool>(Buf));
    if (!Buf)
      return;
    llvm::Expected<std::unique_ptr<Module>> R =
        parseModule((*Buf)->getMemBufferRef(), Diags);
    EXPECT_TRUE(static_cast<bool>(R));
    if (!R) {
      llvm::consumeError(R.takeError());
      return;
    }
    M = std::move(*R);
    llvm::Expected<PassPipeline> P = buildPipeline(defaultPipeline());
    EXPECT_TRUE(static_cast<bool>(P));
    PassContext Ctx(Diags);
    EXPECT_FALSE(static_cast<bool>(P->run(*M, Ctx)));
  }
};

} // namespace tlp

#endif // TLP_UNITTESTS_LINKEDIRFIXTURE_H
