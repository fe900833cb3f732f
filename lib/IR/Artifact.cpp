//===- Artifact.cpp - Typed artifacts lowered from a trace log ------------===//

#include "tlp/IR/Artifact.h"
#include "tlp/IR/SourceInfo.h"

#include <algorithm>


using namespace llvm;

namespace tlp {

Artifact::~Artifact() = default;

std::unique_ptr<Artifact> GraphArtifact::clone() const {
  return std::make_unique<GraphArtifact>(*this);
}
std::unique_ptr<Artifact> CodeArtifact::clone() const {
  return std::make_unique<CodeArtifact>(*this);
}
std::unique_ptr<Artifact> MappingArtifact::clone() const {
  return std::make_unique<MappingArtifact>(*this);
}
std::unique_ptr<Artifact> StackTraceArtifact::clone() const {
  return std::make_unique<StackTraceArtifact>(*this);
}
std::unique_ptr<Artifact> KernelInfoArtifact::clone() const {
  return std::make_unique<KernelInfoArtifact>(*this);
}
std::unique_ptr<Artifact> NodeTreeArtifact::clone() const {
  return std::make_unique<NodeTreeArtifact>(*this);
}
std::unique_ptr<Artifact> KernelNodesArtifact::clone() const {
  return std::make_unique<KernelNodesArtifact>(*this);
}
std::unique_ptr<Artifact> SchedulerIRArtifact::clone() const {
  return std::make_unique<SchedulerIRArtifact>(*this);
}

Optional<uint32_t> SchedulerIRArtifact::findNode(StringRef Name) const {
  for (uint32_t I = 0, E = Nodes.size(); I < E; ++I)
    if (Nodes[I].Name == Name)
      return I;
  return None;
}

std::vector<std::string>
SchedulerIRArtifact::writtenBuffers(const SchedulerNode &N) const {
  std::vector<std::string> Out;
  auto Add = [&](const SchedulerNode &S) {
    for (const SchedulerDep &D : S.Writes)
      if (std::find(Out.begin(), Out.end(), D.Buffer) == Out.end())
        Out.push_back(D.Buffer);
  };
  Add(N);
  if (Out.empty())
    for (uint32_t I : N.SubNodes)
      if (I < Nodes.size())
        Add(Nodes[I]);
  return Out;
}

std::vector<std::string>
SchedulerIRArtifact::readBuffers(const SchedulerNode &N) const {
  std::vector<std::string> Out;
  std::vector<std::string> Written = writtenBuffers(N);
  auto Has = [](const std::vector<std::string> &V, const std::string &X) {
    return std::find(V.begin(), V.end(), X) != V.end();
  };
  auto Add = [&](const SchedulerNode &X) {
    for (const SchedulerDep &D : X.Reads)
      if (!Has(Out, D.Buffer) && (&X == &N || !Has(Written, D.Buffer)))
        Out.push_back(D.Buffer);
  };
  Add(N);
  if (Out.empty())
    for (uint32_t I : N.SubNodes)
      if (I < Nodes.size())
        Add(Nodes[I]);
  return Out;
}

StringRef depKindName(DepKind K) {
  switch (K) {
  case DepKind::Memory:
    return "MemoryDep";
  case DepKind::Star:
    return "StarDep";
  case DepKind::Weak:
    return "WeakDep";
  case DepKind::Other:
    return "other";
  }
  return "other";
}

bool parseDepKind(StringRef S, DepKind &K) {
  for (DepKind D : {DepKind::Memory, DepKind::Star, DepKind::Weak,
                    DepKind::Other})
    if (S == depKindName(D)) {
      K = D;
      return true;
    }
  return false;
}

void GraphArtifact::reindex() {
  Lines.build(Text);
  Index.clear();
  // Top-level names win over nested ones; among equals the first wins.
  for (unsigned Pass = 0; Pass < 2; ++Pass)
    for (uint32_t I = 0, E = Nodes.size(); I < E; ++I) {
      const Node &N = Nodes[I];
      if ((Pass == 0) != N.Scope.empty())
        continue;
      Index.try_emplace(N.Name, I);
      if (!N.Scope.empty())
        Index.try_emplace(N.qualifiedName(), I);
    }
}

Optional<SourceLoc> GraphArtifact::fileComment(uint32_t Line) const {
  if (!FileCommentsParsed) {
    if (!Line || Line > Lines.size())
      return None;
    return parseFXFileComment(Lines.line(Text, Line));
  }
  auto It = std::lower_bound(
      FileComments.begin(), FileComments.end(), Line,
      [](const std::pair<uint32_t, SourceLoc> &C, uint32_t L) {
        return C.first < L;
      });
  if (It == FileComments.end() || It->first != Line)
    return None;
  return It->second;
}

Optional<uint32_t> GraphArtifact::findNode(StringRef Name) const {
  auto It = Index.find(Name);
  if (It == Index.end())
    return None;
  return It->second;
}

Optional<uint32_t> GraphArtifact::findCommentNode(StringRef Name) const {
  Optional<uint32_t> I = findNode(Name);
  if (!I || Nodes[*I].Scope.empty() || Name != Nodes[*I].Name)
    return I;
  StringRef Outer = StringRef(Nodes[*I].Scope).split('.').first;
  if (Outer.startswith("fwd_body_") || Outer.startswith("bwd_body_"))
    return None;
  return I;
}

void CodeArtifact::reindex() {
  Lines.build(Text);
  DefIndex.clear();
  for (uint32_t I = 0, E = Defs.size(); I < E; ++I)
    DefIndex.try_emplace(Defs[I].Name, I);
  EntryNames.clear();
  EntryNamesBuilt = false;
}

const EntryNameIndex &CodeArtifact::entryNames() const {
  if (!EntryNamesBuilt) {
    uint32_t B = EntryBegin ? EntryBegin + 1 : 1;
    uint32_t E = EntryBegin ? EntryEnd : Lines.size();
    EntryNames.build(Text, Lines, B, E, Defs);
    EntryNamesBuilt = true;
  }
  return EntryNames;
}

static bool isRunChar(char C) { return isIdentChar(C) || C == '.'; }

void EntryNameIndex::clear() {
  Uses.clear();
  Subscripts.clear();
}

void EntryNameIndex::build(StringRef Text, const LineTable &Lines,
                           uint32_t Begin, uint32_t End,
                           ArrayRef<KernelDef> Defs) {
  clear();
  End = std::min<uint32_t>(End, Lines.size());
  if (Begin > End)
    return;
  // The lines of kernel definitions, once (not a scan of Defs per line).
  std::vector<bool> InDef(End - Begin + 1, false);
  for (const KernelDef &D : Defs)
    for (uint32_t L = std::max(D.Begin, Begin); L <= D.End && L <= End; ++L)
      InDef[L - Begin] = true;
  for (uint32_t L = Begin; L <= End; ++L) {
    if (InDef[L - Begin])
      continue;
    StringRef T = trimWS(Lines.line(Text, L));
    if (T.startswith("#") || T.startswith("//"))
      continue;
    for (size_t I = 0, N = T.size(); I < N;) {
      if (T[I] == '[') {
        size_t S = I;
        while (S && isRunChar(T[S - 1]))
          --S;
        Subscripts.emplace_back(L, T.slice(S, I).str());
      }
      if (!isRunChar(T[I])) {
        ++I;
        continue;
      }
      size_t S = I;
      while (I < N && isRunChar(T[I]))
        ++I;
      // A run that starts with a dot follows one: no name starts in it.
      StringRef Run = T.slice(S, I);
      if (!isIdentChar(Run.front()))
        continue;
      // At most MaxNameParts parts a name: memory stays linear in the text
      // (the prefixes of a run of N parts hold N * N / 2 parts).
      unsigned Parts = 1;
      for (size_t J = 1; J <= Run.size() && Parts <= MaxNameParts; ++J) {
        if (J < Run.size() && Run[J] == '.')
          ++Parts;
        if (!isIdentChar(Run[J - 1]) || (J < Run.size() && Run[J] != '.'))
          continue;
        std::vector<uint32_t> &V = Uses[Run.take_front(J)];
        if (V.empty() || V.back() != L)
          V.push_back(L);
      }
    }
  }
}

ArrayRef<uint32_t> EntryNameIndex::lines(StringRef Name) const {
  auto It = Uses.find(Name);
  if (It == Uses.end())
    return None;
  return It->second;
}

bool EntryNameIndex::subscripted(StringRef Name, uint32_t Line) const {
  auto It = std::lower_bound(
      Subscripts.begin(), Subscripts.end(), Line,
      [](const std::pair<uint32_t, std::string> &S, uint32_t L) {
        return S.first < L;
      });
  for (; It != Subscripts.end() && It->first == Line; ++It)
    if (StringRef(It->second).endswith(Name))
      return true;
  return false;
}

Optional<uint32_t> CodeArtifact::findDef(StringRef Name) const {
  auto It = DefIndex.find(Name);
  if (It == DefIndex.end())
    return None;
  return It->second;
}

} // namespace tlp
