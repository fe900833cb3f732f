//===- TensorType.h - FX type annotations -----------------------*- C++ -*-===//
//
// Part of tlp. FX graphs annotate each node with its value's type, kept
// verbatim in Node::Type: `f32[8, 16][16, 1]cuda:0` (dtype, sizes, strides,
// device), `i64[u0, 1][1, 1]cpu` (symbolic sizes), `f32[][]cuda:0` (a
// scalar tensor), `Sym(s0)`, or several of these for a tuple. Emitters use
// this to label nodes with a short dtype and shape.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_TENSORTYPE_H
#define TLP_IR_TENSORTYPE_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tlp {

struct TensorType {
  std::string DType;                ///< "f32", "b8", "i64", ...
  std::vector<std::string> Sizes;   ///< "8", "s0", "u0"
  std::vector<std::string> Strides; ///< empty if the annotation has none
  std::string Device;               ///< "cuda:0", "cpu"; may be empty

  /// "f32[8, 16]": dtype and sizes, without strides and device.
  std::string shortForm() const;
};

/// Parse one tensor annotation such as `f32[8, 16][16, 1]cuda:0`. None if
/// \p S is not of that form.
llvm::Optional<TensorType> parseTensorType(llvm::StringRef S);

/// A short label for a whole annotation: the short form of each tensor
/// (comma separated for tuples), other parts as written. Empty for an
/// empty annotation.
std::string shortTypeLabel(llvm::StringRef Annotation);

} // namespace tlp

#endif // TLP_IR_TENSORTYPE_H
