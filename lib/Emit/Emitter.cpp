//===- Emitter.cpp - Emitter interface ------------------------------------===//

#include "tlp/Emit/Emitter.h"

using namespace llvm;

namespace tlp {

Emitter::~Emitter() = default;

Error emitModule(Emitter &E, const Module &M) {
  if (Error Err = E.begin(M))
    return Err;
  for (const std::unique_ptr<CompileUnit> &U : M.Units)
    if (Error Err = E.unit(M, *U))
      return Err;
  return E.end(M);
}

} // namespace tlp
