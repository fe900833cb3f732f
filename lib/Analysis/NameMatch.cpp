//===- NameMatch.cpp - What a name given to a query stands for ------------===//
//
// Part of tlp. See NameMatch.h.
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/NameMatch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace llvm;

namespace tlp {

StringRef nameMatchKindName(NameMatchKind K) {
  switch (K) {
  case NameMatchKind::PreNode:
    return "pre-grad node";
  case NameMatchKind::PostNode:
    return "post-grad node";
  case NameMatchKind::Kernel:
    return "kernel";
  case NameMatchKind::Op:
    return "op";
  case NameMatchKind::SourceText:
    return "source text";
  }
  return "";
}

static bool computes(const Node &N) {
  return N.Op == NodeOp::CallFunction || N.Op == NodeOp::CallMethod ||
         N.Op == NodeOp::CallModule;
}

static bool hasAlias(const Node &N, StringRef Name) {
  if (!computes(N) || N.Target.empty())
    return false;
  for (const std::string &A : targetAliases(N.Target))
    if (A == Name)
      return true;
  return false;
}

Optional<NameMatch> matchName(const CompileUnit &U, const UnitProvenance &P,
                              StringRef Name) {
  const GraphArtifact *Pre = U.PreGrad.get(), *Post = U.PostGrad.get();
  NameMatch M;
  std::set<uint32_t> PreSet;
  auto Finish = [&](NameMatchKind K) -> Optional<NameMatch> {
    M.Kind = K;
    M.Pre.assign(PreSet.begin(), PreSet.end());
    if (M.Pre.empty() && M.Post.empty() && M.Kernels.empty() &&
        M.Sources.empty())
      return None;
    return M;
  };
  auto PreOfPost = [&] {
    if (Pre)
      for (uint32_t Q : M.Post)
        for (uint32_t I : P.preOfPost(Q))
          PreSet.insert(I);
  };

  if (Pre)
    for (uint32_t I = 0; I < Pre->Nodes.size(); ++I)
      if (Pre->Nodes[I].Name == Name || Pre->Nodes[I].qualifiedName() == Name)
        PreSet.insert(I);
  if (!PreSet.empty())
    return Finish(NameMatchKind::PreNode);

  if (Post)
    for (uint32_t I = 0; I < Post->Nodes.size(); ++I)
      if (Post->Nodes[I].Name == Name ||
          Post->Nodes[I].qualifiedName() == Name)
        M.Post.push_back(I);
  if (!M.Post.empty()) {
    PreOfPost();
    return Finish(NameMatchKind::PostNode);
  }

  for (uint32_t R = 0; R < U.Kernels.size(); ++R)
    if (U.Kernels[R].Name == Name || U.Kernels[R].key() == Name)
      M.Kernels.push_back(R);
  if (!M.Kernels.empty()) {
    for (uint32_t R : M.Kernels)
      for (uint32_t I : P.preOfKernel(R))
        PreSet.insert(I);
    return Finish(NameMatchKind::Kernel);
  }

  if (Pre)
    for (uint32_t I = 0; I < Pre->Nodes.size(); ++I)
      if (hasAlias(Pre->Nodes[I], Name))
        PreSet.insert(I);
  if (Post)
    for (uint32_t I = 0; I < Post->Nodes.size(); ++I)
      if (hasAlias(Post->Nodes[I], Name))
        M.Post.push_back(I);
  if (!PreSet.empty() || !M.Post.empty()) {
    PreOfPost();
    return Finish(NameMatchKind::Op);
  }

  // A piece of the user's code: only for text long enough to mean
  // something.
  if (Name.trim().size() < 3)
    return None;
  std::set<uint32_t> Lines;
  for (uint32_t S = 0; S < U.Sources.size(); ++S)
    if (StringRef(U.Sources[S].Code).contains(Name))
      Lines.insert(S);
  if (Lines.empty())
    return None;
  M.Sources.assign(Lines.begin(), Lines.end());
  auto FromLine = [&](const Node &N) {
    return N.Source && Lines.count(*N.Source);
  };
  if (Pre)
    for (uint32_t I = 0; I < Pre->Nodes.size(); ++I)
      if (FromLine(Pre->Nodes[I]))
        PreSet.insert(I);
  if (Post)
    for (uint32_t I = 0; I < Post->Nodes.size(); ++I)
      if (FromLine(Post->Nodes[I]))
        M.Post.push_back(I);
  return Finish(NameMatchKind::SourceText);
}

void collectNames(const CompileUnit &U, std::set<std::string> &Known) {
  for (const GraphArtifact *G : {U.PreGrad.get(), U.PostGrad.get()}) {
    if (!G)
      continue;
    for (const Node &N : G->Nodes) {
      Known.insert(N.qualifiedName());
      if (computes(N) && !N.Target.empty())
        for (std::string &A : targetAliases(N.Target))
          Known.insert(std::move(A));
    }
  }
  for (const Kernel &K : U.Kernels) {
    Known.insert(K.Name);
    Known.insert(K.key());
  }
}

std::vector<std::string> closeNames(StringRef Name,
                                    const std::set<std::string> &Known,
                                    size_t Max) {
  unsigned Limit = std::max<unsigned>(2, Name.size() / 3);
  std::vector<std::pair<unsigned, StringRef>> Close;
  for (const std::string &K : Known) {
    unsigned D = StringRef(K).edit_distance(Name, true, Limit + 1);
    if (D <= Limit && K != Name)
      Close.push_back({D, K});
  }
  llvm::sort(Close);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Close.size() && I < Max; ++I)
    Out.push_back(Close[I].second.str());
  return Out;
}

} // namespace tlp
