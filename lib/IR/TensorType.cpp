//===- TensorType.cpp - FX type annotations -------------------------------===//

#include "tlp/IR/TensorType.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace tlp {

std::string TensorType::shortForm() const {
  std::string S = DType + "[";
  for (size_t I = 0; I < Sizes.size(); ++I) {
    if (I)
      S += ", ";
    S += Sizes[I];
  }
  return S + "]";
}

/// Parse `[a, b, ...]` at the front of \p S into \p Out; false if absent.
static bool parseDims(StringRef &S, std::vector<std::string> &Out) {
  if (!S.consume_front("["))
    return false;
  size_t Close = S.find(']');
  if (Close == StringRef::npos)
    return false;
  StringRef Body = S.substr(0, Close);
  S = S.substr(Close + 1);
  Out.clear();
  if (trimWS(Body).empty())
    return true;
  SmallVector<StringRef, 8> Parts;
  Body.split(Parts, ',');
  for (StringRef P : Parts) {
    P = trimWS(P);
    if (P.empty() || P.find_first_of("[]") != StringRef::npos)
      return false;
    Out.push_back(P.str());
  }
  return true;
}

Optional<TensorType> parseTensorType(StringRef S) {
  S = trimWS(S);
  size_t Open = S.find('[');
  if (Open == 0 || Open == StringRef::npos)
    return None;
  TensorType T;
  StringRef DType = S.substr(0, Open);
  for (char C : DType)
    if (!isIdentChar(C))
      return None;
  T.DType = DType.str();
  S = S.substr(Open);
  if (!parseDims(S, T.Sizes))
    return None;
  if (S.startswith("[") && !parseDims(S, T.Strides))
    return None;
  for (char C : S)
    if (!isIdentChar(C) && C != ':')
      return None;
  T.Device = S.str();
  return T;
}

std::string shortTypeLabel(StringRef Annotation) {
  // Split at top-level commas (commas inside brackets or parentheses
  // belong to one part).
  std::string Out;
  int Depth = 0;
  size_t Start = 0;
  auto Flush = [&](size_t End) {
    StringRef Part = trimWS(Annotation.slice(Start, End));
    if (Part.empty())
      return;
    if (!Out.empty())
      Out += ", ";
    if (Optional<TensorType> T = parseTensorType(Part))
      Out += T->shortForm();
    else
      Out += Part.str();
  };
  for (size_t I = 0; I < Annotation.size(); ++I) {
    char C = Annotation[I];
    if (C == '[' || C == '(')
      ++Depth;
    else if ((C == ']' || C == ')') && Depth > 0)
      --Depth;
    else if (C == ',' && Depth == 0) {
      Flush(I);
      Start = I + 1;
    }
  }
  Flush(Annotation.size());
  return Out;
}

} // namespace tlp
