//===- UnitDigest.cpp - What a unit computes, without its noise -----------===//

#include "tlp/Analysis/UnitDigest.h"
#include "tlp/IR/InductorNames.h"
#include "tlp/IR/Provenance.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace tlp {

std::string normalizeKernelName(StringRef Name) {
  return dropKernelCounter(Name).str();
}

std::string normalizeNoise(StringRef T, StringRef OwnName) {
  std::string Out;
  Out.reserve(T.size());
  size_t I = 0, N = T.size();
  while (I < N) {
    char C = T[I];
    // An absolute path: '/' at a token start, with another '/' before the
    // token ends.
    if (C == '/' && (I == 0 || !isIdentChar(T[I - 1])) &&
        (I == 0 || T[I - 1] != '/')) {
      size_t J = I;
      unsigned Slashes = 0;
      while (J < N && !isSpace(T[J]) && !strchr("'\"),;:]}>", T[J])) {
        Slashes += T[J] == '/';
        ++J;
      }
      if (Slashes >= 2) {
        Out += "<path>";
        I = J;
        continue;
      }
    }
    // 0x and 4+ hex digits: an address.
    if (C == '0' && I + 1 < N && (T[I + 1] == 'x' || T[I + 1] == 'X') &&
        (I == 0 || !isIdentChar(T[I - 1]))) {
      size_t J = I + 2;
      while (J < N && isHexDigit(T[J]))
        ++J;
      if (J - I - 2 >= 4 && (J == N || !isIdentChar(T[J]))) {
        Out += "0x#";
        I = J;
        continue;
      }
    }
    if (isIdentStart(C) && (I == 0 || !isIdentChar(T[I - 1]))) {
      size_t J = I;
      while (J < N && isIdentChar(T[J]))
        ++J;
      StringRef Id = T.slice(I, J);
      I = J;
      if (!OwnName.empty() && Id == OwnName) {
        Out += "KERNEL";
        continue;
      }
      if (Id.size() > 3 && Id.startswith("buf") &&
          llvm::all_of(Id.drop_front(3), isDigit)) {
        Out += "buf#";
        continue;
      }
      // A device index as Triton's DeviceProperties and device() write it.
      if (Id == "index" && I + 1 < N && T[I] == '=' && isDigit(T[I + 1])) {
        Out += "index=#";
        I += 1;
        while (I < N && isDigit(T[I]))
          ++I;
        continue;
      }
      // A device with an index: cuda:3 -> cuda:#.
      if ((Id == "cuda" || Id == "xpu" || Id == "hpu" || Id == "mps" ||
           Id == "mtia") &&
          I + 1 < N && T[I] == ':' && isDigit(T[I + 1])) {
        Out += Id;
        Out += ":#";
        I += 1;
        while (I < N && isDigit(T[I]))
          ++I;
        continue;
      }
      Out += dropKernelCounter(Id);
      continue;
    }
    Out += C;
    ++I;
  }
  return Out;
}

/// The right-hand side of a graph line, `name: "type" = rhs;  x = None`:
/// the call and the type, without the cleanup after `;`.
static std::string nodeArgs(const GraphArtifact &G, const Node &N) {
  if (!N.Line)
    return normalizeNoise(N.Type);
  StringRef L = G.lines().line(G.Text, N.Line).trim();
  size_t Eq = L.find(" = ");
  StringRef Rhs = Eq == StringRef::npos ? L : L.substr(Eq + 3);
  size_t Semi = Rhs.find(";  ");
  if (Semi != StringRef::npos)
    Rhs = Rhs.take_front(Semi);
  // The call's arguments only: the target is in Op.
  size_t Paren = Rhs.find('(');
  if (Paren != StringRef::npos)
    Rhs = Rhs.substr(Paren);
  std::string S = normalizeNoise(Rhs.trim());
  if (!N.Type.empty())
    S += " : " + normalizeNoise(N.Type);
  return S;
}

static std::string sourceName(const SourceLoc &S) {
  return (sys::path::filename(S.File) + ":" + Twine(S.Line)).str();
}

UnitDigest digestUnit(const Module &M, const CompileUnit &U, bool KeepCode) {
  UnitDigest D;
  D.Key = U.Key;
  D.Id = U.Key.slug();
  D.Name = U.Key.displayName();
  D.Log = U.Key.Log < M.Logs.size() ? M.logName(U.Key.Log) : std::string();
  UnitProvenance P(U);
  if (const GraphArtifact *G = U.PostGrad.get()) {
    for (const Node &N : G->Nodes) {
      if (!isComputeNode(N))
        continue;
      DigestNode DN;
      DN.Name = N.qualifiedName();
      DN.Op = (nodeOpName(N.Op) + " " + N.Target).str();
      DN.Args = nodeArgs(*G, N);
      if (isCollectiveOp(N.Target))
        D.Collectives.push_back(N.Target);
      D.Post.push_back(std::move(DN));
    }
  }
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const Kernel &K = U.Kernels[R];
    DigestKernel DK;
    DK.Key = K.key();
    DK.Name = K.Name;
    DK.NormName = normalizeKernelName(K.Name);
    DK.Kind = K.Kind;
    const CodeArtifact *C = nullptr;
    Optional<uint32_t> Def;
    if (K.KernelCodeDef && U.KernelCode) {
      C = U.KernelCode.get();
      Def = K.KernelCodeDef;
    } else if (K.Def && U.Code) {
      C = U.Code.get();
      Def = K.Def;
    }
    if (C && *Def < C->Defs.size()) {
      const KernelDef &KD = C->Defs[*Def];
      std::string Code;
      for (uint32_t L = KD.Begin; L && L <= KD.End; ++L) {
        Code += normalizeNoise(C->lines().line(C->Text, L), K.Name);
        Code += '\n';
      }
      DK.CodeHash = xxHash64(Code);
      if (KeepCode)
        DK.Code = std::move(Code);
    }
    if (U.PostGrad)
      for (uint32_t N : P.postOfKernel(R))
        if (N < U.PostGrad->Nodes.size())
          DK.PostNodes.push_back(U.PostGrad->Nodes[N].qualifiedName());
    for (uint32_t S : P.sourcesOfKernel(R))
      if (S < U.Sources.size())
        DK.Sources.push_back(sourceName(U.Sources[S]));
    if (K.Kind == KernelKind::Collective || isCollectiveOp(K.Name))
      D.Collectives.push_back(K.Name);
    D.Kernels.push_back(std::move(DK));
  }
  return D;
}

//===----------------------------------------------------------------------===//
// Ranks compared
//===----------------------------------------------------------------------===//

bool RankRow::agrees() const {
  return llvm::all_of(Cells, [](const RankCell &C) { return C.agrees(); });
}

std::vector<std::pair<std::string, std::vector<int64_t>>>
RankRow::outcomes() const {
  std::vector<std::pair<std::string, std::vector<int64_t>>> Out(1);
  StringMap<size_t> Index;
  for (const RankCell &C : Cells) {
    if (!C.UnitId.empty() && C.UnitId == ReferenceId)
      continue;
    if (C.agrees()) {
      Out.front().second.push_back(C.Rank);
      continue;
    }
    auto It = Index.try_emplace(C.Difference, Out.size()).first;
    if (It->second == Out.size())
      Out.push_back({C.Difference, {}});
    Out[It->second].second.push_back(C.Rank);
  }
  return Out;
}

size_t RankComparison::divergentRows() const {
  return llvm::count_if(Rows, [](const RankRow &R) { return !R.agrees(); });
}

static std::string kernelLabel(const DigestKernel &K) {
  return K.NormName;
}

/// The first difference of \p B from the reference \p A, by part: graph,
/// then kernels, then collectives. Sets the Same* flags of \p C.
static void compareToReference(const UnitDigest &A, const UnitDigest &B,
                               RankCell &C) {
  std::string First;
  auto Note = [&](const std::string &S) {
    if (First.empty())
      First = S;
  };
  // Graph: the post-grad op sequence, then the arguments and types of each
  // node (normalised: a rank's device index is not a difference).
  for (size_t I = 0; I < std::max(A.Post.size(), B.Post.size()); ++I) {
    const DigestNode *X = I < A.Post.size() ? &A.Post[I] : nullptr;
    const DigestNode *Y = I < B.Post.size() ? &B.Post[I] : nullptr;
    if (X && Y && X->Op == Y->Op && X->Args == Y->Args)
      continue;
    C.SameGraph = false;
    if (X && Y && X->Op == Y->Op)
      Note("graph: post-grad node " + std::to_string(I + 1) + " `" + Y->Name +
           "` is `" + Y->Args + "`, not `" + X->Args + "`");
    else
      Note("graph: post-grad node " + std::to_string(I + 1) + " is " +
           (Y ? "`" + Y->Name + "` (" + Y->Op + ")" : std::string("absent")) +
           ", not " +
           (X ? "`" + X->Name + "` (" + X->Op + ")" : std::string("absent")));
    break;
  }
  for (size_t I = 0; I < std::max(A.Kernels.size(), B.Kernels.size()); ++I) {
    const DigestKernel *X = I < A.Kernels.size() ? &A.Kernels[I] : nullptr;
    const DigestKernel *Y = I < B.Kernels.size() ? &B.Kernels[I] : nullptr;
    if (X && Y && X->NormName == Y->NormName &&
        X->CodeHash == Y->CodeHash && X->PostNodes == Y->PostNodes)
      continue;
    C.SameKernels = false;
    if (X && Y && X->NormName == Y->NormName && X->CodeHash != Y->CodeHash)
      Note("kernels: the code of kernel " + std::to_string(I + 1) + " `" +
           Y->Name + "` differs");
    else if (X && Y && X->NormName == Y->NormName)
      Note("kernels: kernel " + std::to_string(I + 1) + " `" + Y->Name +
           "` fuses [" + join(Y->PostNodes, ", ") + "], not [" +
           join(X->PostNodes, ", ") + "]");
    else
      Note("kernels: kernel " + std::to_string(I + 1) + " is " +
           (Y ? "`" + kernelLabel(*Y) + "`" : std::string("absent")) +
           ", not " +
           (X ? "`" + kernelLabel(*X) + "`" : std::string("absent")));
    break;
  }
  for (size_t I = 0;
       I < std::max(A.Collectives.size(), B.Collectives.size()); ++I) {
    const std::string *X = I < A.Collectives.size() ? &A.Collectives[I]
                                                    : nullptr;
    const std::string *Y = I < B.Collectives.size() ? &B.Collectives[I]
                                                    : nullptr;
    if (X && Y && *X == *Y)
      continue;
    C.SameCollectives = false;
    Note("collectives: collective " + std::to_string(I + 1) + " is " +
         (Y ? "`" + *Y + "`" : std::string("absent")) + ", not " +
         (X ? "`" + *X + "`" : std::string("absent")));
    break;
  }
  C.Difference = First;
}

std::vector<int64_t> logRanks(const Module &M) {
  std::set<int64_t> Ranks;
  for (const LogFile &L : M.Logs)
    if (L.EventRank) // a renamed log's units take its events' rank
      Ranks.insert(*L.EventRank);
    else if (L.Rank)
      Ranks.insert(*L.Rank);
  return std::vector<int64_t>(Ranks.begin(), Ranks.end());
}

RankComparison compareRanks(ArrayRef<UnitDigest> Digests, const Module *M) {
  RankComparison RC;
  std::set<int64_t> Ranks;
  if (M)
    for (int64_t R : logRanks(*M))
      Ranks.insert(R);
  for (const UnitDigest &D : Digests)
    if (D.Key.Rank)
      Ranks.insert(*D.Key.Rank);
  RC.Ranks.assign(Ranks.begin(), Ranks.end());
  if (RC.Ranks.size() < 2)
    return RC;
  // The compile records by rank and id, for why a rank has no unit.
  std::map<std::pair<int64_t, decltype(CompileId().tie())>,
           const CompileRecord *>
      Records;
  if (M)
    for (const CompileRecord &CR : M->Compiles)
      if (CR.Rank && CR.Id)
        Records.insert({{*CR.Rank, CR.Id->tie()}, &CR});
  // Rows by (compile id, graph kind, ordinal), in compile id order (no id
  // last); units in each row by rank, then log.
  // A depyf dump's units (no compile id) by their graph's name, in the
  // order of its number (`__compiled_fn_2` before `__compiled_fn_11`).
  using RowKey = std::tuple<bool, decltype(CompileId().tie()), uint64_t,
                            std::string, int, uint32_t>;
  std::map<RowKey, std::vector<const UnitDigest *>> Groups;
  for (const UnitDigest &D : Digests) {
    if (!D.Key.Rank)
      continue;
    uint64_t FnNumber = 0;
    StringRef Fn = D.Key.Fn;
    parseUnsigned(Fn.substr(Fn.rfind('_') + 1), FnNumber);
    RowKey K(!D.Key.Id.hasValue(),
             D.Key.Id ? D.Key.Id->tie() : CompileId().tie(), FnNumber,
             D.Key.Fn, static_cast<int>(D.Key.Graph), D.Key.Ordinal);
    Groups[K].push_back(&D);
  }
  for (auto &G : Groups) {
    std::vector<const UnitDigest *> &Us = G.second;
    llvm::stable_sort(Us, [](const UnitDigest *L, const UnitDigest *R) {
      return std::make_pair(*L->Key.Rank, L->Key.Log) <
             std::make_pair(*R->Key.Rank, R->Key.Log);
    });
    const UnitDigest &Ref = *Us.front();
    RankRow Row;
    Row.CompileId = Ref.Key.Id               ? Ref.Key.Id->str()
                    : !Ref.Key.Fn.empty()     ? Ref.Key.Fn
                    : !Ref.Key.Folder.empty() ? std::string("unknown")
                                              : std::string("aot");
    Row.Graph = graphKindName(Ref.Key.Graph).str();
    if (Ref.Key.Ordinal)
      Row.Graph += " #" + std::to_string(Ref.Key.Ordinal + 1);
    Row.ReferenceId = Ref.Id;
    Row.ReferenceRank = *Ref.Key.Rank;
    std::set<int64_t> Present;
    for (const UnitDigest *U : Us) {
      RankCell C;
      C.Rank = *U->Key.Rank;
      C.UnitId = U->Id;
      if (U != &Ref)
        compareToReference(Ref, *U, C);
      Present.insert(C.Rank);
      Row.Cells.push_back(std::move(C));
    }
    for (int64_t R : RC.Ranks)
      if (!Present.count(R)) {
        RankCell C;
        C.Rank = R;
        C.Difference = "missing";
        // Why, when the rank compiled the id without a unit.
        if (Ref.Key.Id) {
          auto It = Records.find({R, Ref.Key.Id->tie()});
          if (It != Records.end())
            C.Difference += ": " + It->second->noOutputReason();
        }
        Row.Cells.push_back(std::move(C));
      }
    llvm::stable_sort(Row.Cells, [](const RankCell &L, const RankCell &R) {
      return L.Rank < R.Rank;
    });
    RC.Rows.push_back(std::move(Row));
  }
  for (size_t I = 0; I < RC.Rows.size() && !RC.FirstRow; ++I)
    for (size_t J = 0; J < RC.Rows[I].Cells.size(); ++J)
      if (!RC.Rows[I].Cells[J].agrees()) {
        RC.FirstRow = I;
        RC.FirstCell = J;
        break;
      }
  return RC;
}

std::string rankRanges(ArrayRef<int64_t> Ranks) {
  std::string Out;
  for (size_t I = 0; I < Ranks.size();) {
    size_t J = I;
    while (J + 1 < Ranks.size() && Ranks[J + 1] == Ranks[J] + 1)
      ++J;
    if (!Out.empty())
      Out += ", ";
    Out += std::to_string(Ranks[I]);
    if (J > I)
      Out += (J == I + 1 ? ", " : "-") + std::to_string(Ranks[J]);
    I = J + 1;
  }
  return Out;
}

std::vector<std::pair<Optional<size_t>, Optional<size_t>>>
alignSequences(ArrayRef<std::string> A, ArrayRef<std::string> B) {
  std::vector<std::pair<Optional<size_t>, Optional<size_t>>> Out;
  size_t Pre = 0;
  while (Pre < A.size() && Pre < B.size() && A[Pre] == B[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < A.size() - Pre && Suf < B.size() - Pre &&
         A[A.size() - 1 - Suf] == B[B.size() - 1 - Suf])
    ++Suf;
  for (size_t I = 0; I < Pre; ++I)
    Out.push_back({I, I});
  size_t NA = A.size() - Pre - Suf, NB = B.size() - Pre - Suf;
  if (NA * NB > (size_t(1) << 22)) {
    // Too large for the table: by position.
    for (size_t I = 0; I < std::max(NA, NB); ++I)
      Out.push_back({I < NA ? Optional<size_t>(Pre + I) : None,
                     I < NB ? Optional<size_t>(Pre + I) : None});
  } else {
    // L[I][J]: the longest common subsequence of A[I..] and B[J..].
    std::vector<uint32_t> L((NA + 1) * (NB + 1), 0);
    auto At = [&](size_t I, size_t J) -> uint32_t & {
      return L[I * (NB + 1) + J];
    };
    for (size_t I = NA; I-- > 0;)
      for (size_t J = NB; J-- > 0;)
        At(I, J) = A[Pre + I] == B[Pre + J]
                       ? At(I + 1, J + 1) + 1
                       : std::max(At(I + 1, J), At(I, J + 1));
    size_t I = 0, J = 0;
    while (I < NA || J < NB) {
      if (I < NA && J < NB && A[Pre + I] == B[Pre + J]) {
        Out.push_back({Pre + I++, Pre + J++});
      } else if (I < NA && (J == NB || At(I + 1, J) >= At(I, J + 1))) {
        Out.push_back({Pre + I++, None}); // removed first, as diff does
      } else {
        Out.push_back({None, Pre + J++});
      }
    }
  }
  for (size_t K = 0; K < Suf; ++K)
    Out.push_back({A.size() - Suf + K, B.size() - Suf + K});
  return Out;
}

//===----------------------------------------------------------------------===//
// Semantic diff
//===----------------------------------------------------------------------===//

static std::string joined(const std::vector<std::string> &V) {
  std::vector<std::string> S = V;
  llvm::sort(S);
  return "[" + llvm::join(S, ", ") + "]";
}

/// The first line where \p A and \p B differ, as `line N: a -> b`.
static std::string firstLineDiff(StringRef A, StringRef B) {
  SmallVector<StringRef, 64> LA, LB;
  A.split(LA, '\n');
  B.split(LB, '\n');
  for (size_t I = 0; I < std::max(LA.size(), LB.size()); ++I) {
    StringRef X = I < LA.size() ? LA[I].trim() : StringRef("(end)");
    StringRef Y = I < LB.size() ? LB[I].trim() : StringRef("(end)");
    if (X != Y)
      return ("code line " + Twine(I + 1) + ": `" + X + "` -> `" + Y + "`")
          .str();
  }
  return "code differs";
}

std::vector<DigestChange> diffDigests(const UnitDigest &A,
                                      const UnitDigest &B) {
  std::vector<DigestChange> Out;
  auto Add = [&](StringRef Kind, StringRef Change, StringRef What,
                 StringRef Detail) {
    Out.push_back({Kind.str(), Change.str(), What.str(), Detail.str()});
  };
  // Nodes by name.
  StringMap<const DigestNode *> BN;
  for (const DigestNode &N : B.Post)
    BN[N.Name] = &N;
  StringMap<bool> AN;
  for (const DigestNode &N : A.Post) {
    AN[N.Name] = true;
    auto It = BN.find(N.Name);
    if (It == BN.end()) {
      Add("node", "removed", N.Name, N.Op + " " + N.Args);
      continue;
    }
    const DigestNode &M = *It->second;
    if (N.Op != M.Op)
      Add("node", "changed", N.Name, N.Op + " -> " + M.Op);
    else if (N.Args != M.Args)
      Add("node", "changed", N.Name, N.Args + " -> " + M.Args);
  }
  for (const DigestNode &N : B.Post)
    if (!AN.count(N.Name))
      Add("node", "added", N.Name, N.Op + " " + N.Args);

  // Kernels by normalised name, the Nth of a name with the Nth.
  std::map<std::string, std::vector<const DigestKernel *>> KA, KB;
  for (const DigestKernel &K : A.Kernels)
    KA[K.NormName].push_back(&K);
  for (const DigestKernel &K : B.Kernels)
    KB[K.NormName].push_back(&K);
  std::set<std::string> Names;
  for (auto &KV : KA)
    Names.insert(KV.first);
  for (auto &KV : KB)
    Names.insert(KV.first);
  auto HasHandle = [](const DigestKernel *K) { return K->Key != K->Name; };
  auto Union = [](const std::vector<const DigestKernel *> &KS) {
    std::set<std::string> Nodes;
    for (const DigestKernel *K : KS)
      Nodes.insert(K->PostNodes.begin(), K->PostNodes.end());
    return Nodes;
  };
  for (const std::string &Name : Names) {
    auto &XS = KA[Name];
    auto &YS = KB[Name];
    // A log with the provenance mapping keys each call of a kernel by its
    // debug handle (a row per call: extern_kernels.addmm:1 and :3), one
    // without it has one row for every call of the name: such a name is
    // compared as one row a side, its post-grad nodes taken together.
    if (!XS.empty() && !YS.empty() && XS.size() != YS.size() &&
        ((llvm::all_of(XS, HasHandle) && llvm::none_of(YS, HasHandle)) ||
         (llvm::none_of(XS, HasHandle) && llvm::all_of(YS, HasHandle)))) {
      std::set<std::string> NA = Union(XS), NB = Union(YS);
      std::set<uint64_t> CA, CB;
      for (const DigestKernel *K : XS)
        CA.insert(K->CodeHash);
      for (const DigestKernel *K : YS)
        CB.insert(K->CodeHash);
      if (NA != NB)
        Add("kernel", "changed", Name,
            "fuses [" + llvm::join(NA.begin(), NA.end(), ", ") + "] -> [" +
                llvm::join(NB.begin(), NB.end(), ", ") + "]");
      else if (CA != CB)
        Add("kernel", "changed", Name, "code differs");
      continue;
    }
    for (size_t I = 0; I < std::max(XS.size(), YS.size()); ++I) {
      const DigestKernel *X = I < XS.size() ? XS[I] : nullptr;
      const DigestKernel *Y = I < YS.size() ? YS[I] : nullptr;
      if (!Y) {
        Add("kernel", "removed", Name, "fuses " + joined(X->PostNodes));
        continue;
      }
      if (!X) {
        Add("kernel", "added", Name, "fuses " + joined(Y->PostNodes));
        continue;
      }
      if (X->CodeHash != Y->CodeHash)
        Add("kernel", "changed", Name,
            X->Code.empty() && Y->Code.empty()
                ? std::string("code differs")
                : firstLineDiff(X->Code, Y->Code));
    }
  }

  // Fusion: a node of both sides in other kernels (by normalised name).
  auto KernelsOf = [](const UnitDigest &D) {
    std::map<std::string, std::set<std::string>> Of;
    for (const DigestKernel &K : D.Kernels)
      for (const std::string &N : K.PostNodes)
        Of[N].insert(K.NormName);
    return Of;
  };
  std::map<std::string, std::set<std::string>> FA = KernelsOf(A),
                                               FB = KernelsOf(B);
  auto Set = [](const std::set<std::string> &S) {
    return "[" + llvm::join(S.begin(), S.end(), ", ") + "]";
  };
  for (const DigestNode &N : A.Post) {
    if (!BN.count(N.Name))
      continue;
    const std::set<std::string> &X = FA[N.Name], &Y = FB[N.Name];
    if (X != Y)
      Add("fusion", "changed", N.Name, Set(X) + " -> " + Set(Y));
  }

  // Source lines whose kernels changed (normalised names).
  std::map<std::string, std::set<std::string>> SA, SB;
  for (const DigestKernel &K : A.Kernels)
    for (const std::string &S : K.Sources)
      SA[S].insert(K.NormName);
  for (const DigestKernel &K : B.Kernels)
    for (const std::string &S : K.Sources)
      SB[S].insert(K.NormName);
  std::set<std::string> Lines;
  for (auto &KV : SA)
    Lines.insert(KV.first);
  for (auto &KV : SB)
    Lines.insert(KV.first);
  for (const std::string &L : Lines) {
    const std::set<std::string> &X = SA[L], &Y = SB[L];
    if (X != Y)
      Add("source", X.empty() ? "added" : Y.empty() ? "removed" : "changed",
          L, Set(X) + " -> " + Set(Y));
  }

  if (A.Collectives != B.Collectives)
    Add("collective", "changed", "collectives",
        "[" + llvm::join(A.Collectives, ", ") + "] -> [" +
            llvm::join(B.Collectives, ", ") + "]");
  return Out;
}

std::vector<UnitPair> diffUnits(ArrayRef<UnitDigest> A,
                                ArrayRef<UnitDigest> B) {
  std::vector<UnitPair> Out;
  auto Diff = [&](const UnitDigest *X, const UnitDigest *Y) {
    UnitPair P;
    P.A = X;
    P.B = Y;
    if (X && Y)
      P.Changes = diffDigests(*X, *Y);
    Out.push_back(std::move(P));
  };
  if (A.size() == 1 && B.size() == 1) {
    Diff(&A[0], &B[0]);
    return Out;
  }
  using PairKey = std::tuple<bool, decltype(CompileId().tie()), int, uint32_t>;
  auto KeyOf = [](const UnitDigest &D) {
    return PairKey(!D.Key.Id.hasValue(),
                   D.Key.Id ? D.Key.Id->tie() : CompileId().tie(),
                   static_cast<int>(D.Key.Graph), D.Key.Ordinal);
  };
  std::map<PairKey, std::vector<const UnitDigest *>> InB;
  for (const UnitDigest &D : B)
    InB[KeyOf(D)].push_back(&D);
  std::map<PairKey, size_t> Taken;
  std::set<const UnitDigest *> Used;
  for (const UnitDigest &D : A) {
    PairKey K = KeyOf(D);
    auto It = InB.find(K);
    size_t &N = Taken[K];
    if (It != InB.end() && N < It->second.size()) {
      Used.insert(It->second[N]);
      Diff(&D, It->second[N++]);
    } else {
      Diff(&D, nullptr);
    }
  }
  for (const UnitDigest &D : B)
    if (!Used.count(&D))
      Diff(nullptr, &D);
  return Out;
}

} // namespace tlp
