//===- Types.cpp - Basic value types of the provenance IR -----------------===//

#include "tlp/IR/Types.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace tlp {

std::string CompileId::str() const {
  std::string S;
  if (CompiledAutogradId) {
    S = "!" + std::to_string(*CompiledAutogradId);
    if (FrameId)
      S += "/" + std::to_string(*FrameId) + "/" +
           std::to_string(FrameCompileId.getValueOr(0));
  } else {
    S = std::to_string(FrameId.getValueOr(0)) + "/" +
        std::to_string(FrameCompileId.getValueOr(0));
  }
  if (Attempt)
    S += "_" + std::to_string(Attempt);
  return S;
}

std::string CompileId::slug() const {
  std::string S = str();
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '!')
      Out += "ca";
    else if (S[I] == '/')
      Out += '-';
    else
      Out += S[I];
  }
  return Out;
}

static bool parseInt(StringRef S, int64_t &V) {
  uint64_t U;
  if (!parseUnsigned(S, U) || U > static_cast<uint64_t>(INT64_MAX))
    return false;
  V = static_cast<int64_t>(U);
  return true;
}

Optional<CompileId> CompileId::parse(StringRef S) {
  CompileId Id;
  // Attempt suffix: "_N" at the end.
  size_t U = S.rfind('_');
  if (U != StringRef::npos) {
    int64_t A;
    if (!parseInt(S.substr(U + 1), A))
      return None;
    Id.Attempt = A;
    S = S.substr(0, U);
  }
  SmallVector<StringRef, 4> Parts;
  if (S.consume_front("!")) {
    S.split(Parts, '/');
    if (Parts.size() != 1 && Parts.size() != 3)
      return None;
    int64_t V;
    if (!parseInt(Parts[0], V))
      return None;
    Id.CompiledAutogradId = V;
    if (Parts.size() == 3) {
      int64_t F, C;
      if (!parseInt(Parts[1], F) || !parseInt(Parts[2], C))
        return None;
      Id.FrameId = F;
      Id.FrameCompileId = C;
    }
    return Id;
  }
  S.split(Parts, '/');
  if (Parts.size() != 2)
    return None;
  int64_t F, C;
  if (!parseInt(Parts[0], F) || !parseInt(Parts[1], C))
    return None;
  Id.FrameId = F;
  Id.FrameCompileId = C;
  return Id;
}

} // namespace tlp
