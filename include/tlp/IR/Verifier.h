//===- Verifier.h - IR invariant checks -------------------------*- C++ -*-===//
//
// Part of tlp. verifyModule checks the invariants docs/IR.md promises:
// line numbers point into their texts and at lines that name what they
// locate, indices are in range, kernel keys are unique, edges join the
// right kinds of things, units are sorted and unique.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_VERIFIER_H
#define TLP_IR_VERIFIER_H

#include "tlp/IR/Module.h"

#include "llvm/Support/Error.h"

namespace tlp {

/// Check \p M. Each broken invariant becomes one line of the returned
/// error; success is Error::success().
llvm::Error verifyModule(const Module &M);

/// Check one unit of \p M (the unit need not be in M.Units).
llvm::Error verifyUnit(const Module &M, const CompileUnit &U);

/// True if \p Line names kernel \p Name as a launch or call would
/// (`name(`, `name.run(`, `call_triton_name(`, `kernels.name`).
bool lineNamesKernel(llvm::StringRef Line, llvm::StringRef Name);

} // namespace tlp

#endif // TLP_IR_VERIFIER_H
