//===- IRTextSupport.h - What the IR codec and reader share -----*- C++ -*-===//
//
// Part of tlp. Private to lib/IR: the document marker and the error of
// text that is not IR, for the codec (IRYAML.cpp) and the document reader
// (IRDocumentReader.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_IR_IRTEXTSUPPORT_H
#define TLP_LIB_IR_IRTEXTSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tlp {

/// True if \p Text has a document marker (`---` then a space, a line break
/// or the end) at \p I.
inline bool isDocumentMarker(llvm::StringRef Text, size_t I) {
  if (!Text.substr(I).startswith("---"))
    return false;
  if (I + 3 == Text.size())
    return true;
  char C = Text[I + 3];
  return C == ' ' || C == '\t' || C == '\n' || C == '\r';
}

/// The error of a parse that failed (the reasons went to the diagnostics).
inline llvm::Error notValidIR(llvm::StringRef File) {
  return llvm::createStringError(std::errc::invalid_argument,
                                 "'%s' is not valid tlp IR",
                                 File.str().c_str());
}

} // namespace tlp

#endif // TLP_LIB_IR_IRTEXTSUPPORT_H
