//===- Enums.h - Every value of the IR's enumerations -----------*- C++ -*-===//
//
// Part of tlp. enumValues<T>() lists the values of an IR enumeration in the
// order of its table in Enums.def, for code that walks all of them (the
// YAML traits, tests). The name and parse functions are declared next to
// each enumeration.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_ENUMS_H
#define TLP_IR_ENUMS_H

#include "tlp/IR/Artifact.h"
#include "tlp/IR/Module.h"
#include "tlp/IR/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace tlp {

template <typename T> llvm::ArrayRef<T> enumValues();

#define TLP_ENUM(TYPE, NAMEFN, PARSEFN)                                        \
  template <> llvm::ArrayRef<TYPE> enumValues<TYPE>();
#include "tlp/IR/Enums.def"

} // namespace tlp

#endif // TLP_IR_ENUMS_H
