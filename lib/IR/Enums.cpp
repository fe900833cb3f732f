//===- Enums.cpp - Names of the IR's enumerations, from Enums.def ---------===//
//
// The name and parse functions of every enumeration in Enums.def, and
// enumValues<T>(). The switches have no default, so a new enumerator that
// is missing from the table is a -Wswitch warning here.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/Enums.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace tlp {

#define TLP_ENUM(TYPE, NAMEFN, PARSEFN)                                        \
  StringRef NAMEFN(TYPE V) {                                                   \
    switch (V) {
#define TLP_ENUM_VALUE(TYPE, VALUE, TEXT)                                      \
  case TYPE::VALUE:                                                            \
    return TEXT;
#define TLP_ENUM_END(TYPE)                                                     \
  }                                                                            \
  llvm_unreachable("enumerator missing from Enums.def");                       \
  }
#include "tlp/IR/Enums.def"

#define TLP_ENUM(TYPE, NAMEFN, PARSEFN) bool PARSEFN(StringRef S, TYPE &Out) {
#define TLP_ENUM_VALUE(TYPE, VALUE, TEXT)                                      \
  if (S == TEXT) {                                                             \
    Out = TYPE::VALUE;                                                         \
    return true;                                                               \
  }
#define TLP_ENUM_END(TYPE)                                                     \
  return false;                                                                \
  }
#include "tlp/IR/Enums.def"

#define TLP_ENUM(TYPE, NAMEFN, PARSEFN)                                        \
  template <> ArrayRef<TYPE> enumValues<TYPE>() {                              \
    static const TYPE Values[] = {
#define TLP_ENUM_VALUE(TYPE, VALUE, TEXT) TYPE::VALUE,
#define TLP_ENUM_END(TYPE)                                                     \
  }                                                                            \
  ;                                                                            \
  return Values;                                                               \
  }
#include "tlp/IR/Enums.def"

StringRef unitSlotTitle(UnitSlot S) {
  switch (S) {
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE)                               \
  case UnitSlot::FIELD:                                                        \
    return TITLE;
#include "tlp/IR/UnitSlots.def"
  }
  llvm_unreachable("slot missing from UnitSlots.def");
}

UnitSlot unitSlotOf(Artifact::ArtifactKind K) {
  switch (K) {
#define TLP_ARTIFACT_KIND(KIND, NAME, CLASS, SLOT)                             \
  case Artifact::KIND:                                                         \
    return UnitSlot::SLOT;
#include "tlp/IR/ArtifactKinds.def"
  }
  llvm_unreachable("kind missing from ArtifactKinds.def");
}

template <typename T>
static std::unique_ptr<Artifact> makeArtifact(Artifact::ArtifactKind K) {
  if constexpr (std::is_constructible<T, Artifact::ArtifactKind>::value)
    return std::make_unique<T>(K);
  else
    return std::make_unique<T>();
}

std::unique_ptr<Artifact> createArtifact(Artifact::ArtifactKind K) {
  switch (K) {
#define TLP_ARTIFACT_KIND(KIND, NAME, CLASS, SLOT)                             \
  case Artifact::KIND:                                                         \
    return makeArtifact<CLASS>(K);
#include "tlp/IR/ArtifactKinds.def"
  }
  llvm_unreachable("kind missing from ArtifactKinds.def");
}

Artifact *CompileUnit::slot(UnitSlot S) const {
  switch (S) {
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE)                               \
  case UnitSlot::FIELD:                                                        \
    return FIELD.get();
#include "tlp/IR/UnitSlots.def"
  }
  llvm_unreachable("slot missing from UnitSlots.def");
}

void CompileUnit::setSlot(std::unique_ptr<Artifact> A) {
  switch (unitSlotOf(A->getKind())) {
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE)                               \
  case UnitSlot::FIELD:                                                        \
    FIELD.reset(cast<CLASS>(A.release()));                                     \
    return;
#include "tlp/IR/UnitSlots.def"
  }
}

} // namespace tlp
