//===- Guards.cpp - A compile's guards, and the one that failed -----------===//

#include "tlp/Analysis/Guards.h"
#include "tlp/IR/Module.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace tlp {

std::vector<GuardCheck> parseGuardChecks(StringRef Text) {
  std::vector<GuardCheck> Out;
  // The source of the GuardManager open at each depth.
  SmallVector<StringRef, 16> Sources;
  unsigned LineNo = 0;
  for (StringRef Rest0 = Text; !Rest0.empty();) {
    StringRef L;
    std::tie(L, Rest0) = Rest0.split('\n');
    ++LineNo;
    L = L.rtrim("\r ");
    unsigned Depth = 0;
    StringRef Rest = L.ltrim(' ');
    while (Rest.consume_front("| "))
      ++Depth;
    if (!Rest.consume_front("+- "))
      continue;
    GuardCheck C;
    C.Line = LineNo;
    C.Depth = Depth;
    size_t Colon = Rest.find(": ");
    C.Kind = Rest.substr(0, Colon).trim();
    StringRef Body = Colon == StringRef::npos ? "" : Rest.substr(Colon + 2);
    size_t Hash = Body.find("  # ");
    C.Expr = Body.substr(0, Hash).trim();
    if (Hash != StringRef::npos)
      C.Comment = Body.substr(Hash + 4).trim();
    Sources.resize(Depth + 1);
    // "GuardManager: source=L['x'], accessed_by=...", "ValueManager:
    // DictGuardManager: source=...": a manager opens a source.
    size_t At = Rest.find("source=");
    if (C.Kind.endswith("Manager") && At != StringRef::npos) {
      StringRef S = Rest.substr(At + strlen("source="));
      // The source ends at ", accessed_by=" or ", type=" (it may hold
      // commas of its own: `L['self'].state[list(dict.keys(...))[0]]`).
      size_t End = std::min(S.find(", accessed_by="), S.find(", type="));
      C.Source = S.substr(0, End).trim();
      Sources[Depth] = C.Source;
    } else {
      Sources[Depth] = StringRef();
      for (unsigned D = Depth; D-- > 0;)
        if (!Sources[D].empty()) {
          C.Source = Sources[D];
          break;
        }
    }
    Out.push_back(C);
  }
  if (!Out.empty())
    return Out;
  // dynamo_guards (older PyTorch): the code of each guard, a line each.
  LineNo = 0;
  for (StringRef T = Text; !T.empty();) {
    StringRef L;
    std::tie(L, T) = T.split('\n');
    ++LineNo;
    L = L.trim();
    if (L.empty() || L.startswith("Guard latency = "))
      continue;
    GuardCheck C;
    C.Line = LineNo;
    C.Expr = L;
    Out.push_back(C);
  }
  return Out;
}

bool isGuardCheck(const GuardCheck &C) {
  return !C.Kind.endswith("Manager") && !C.Kind.startswith("KeyValue");
}

std::vector<GuardGroup> groupGuards(const Module &M,
                                    const std::vector<size_t> &Order) {
  std::vector<GuardGroup> Out;
  StringMap<size_t> Index;
  for (size_t I : Order) {
    const CompileRecord &R = M.Compiles[I];
    if (R.Guards.empty())
      continue;
    // The text without its latency line.
    std::string Key;
    for (StringRef T = R.Guards; !T.empty();) {
      StringRef L;
      std::tie(L, T) = T.split('\n');
      if (!L.trim().startswith("Guard latency = "))
        (Key += L.str()) += '\n';
    }
    auto [It, New] = Index.try_emplace(Key, Out.size());
    if (New) {
      GuardGroup G;
      G.Text = &R.Guards.str();
      for (const GuardCheck &C : parseGuardChecks(R.Guards))
        G.Checks += isGuardCheck(C);
      G.GuardCount = R.GuardCount;
      Out.push_back(std::move(G));
    } else if (Out[It->second].GuardCount != R.GuardCount) {
      Out[It->second].GuardCount = None;
    }
    Out[It->second].Records.push_back(I);
  }
  return Out;
}

std::string guardChecksText(const GuardGroup &G, StringRef CodeOpen,
                            StringRef CodeClose) {
  std::string S = ": " + std::to_string(G.Checks) +
                  (G.Checks == 1 ? " check" : " checks");
  if (G.GuardCount && *G.GuardCount != G.Checks)
    S += " (PyTorch's " + CodeOpen.str() + "guard_count" + CodeClose.str() +
         ": " + std::to_string(*G.GuardCount) + ")";
  return S;
}

/// \p S with each `L['name']` and `G['name']` as `name`: how the reasons
/// write sources ("tensor 'x'", "len(self.state[...])").
static std::string plainSource(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (size_t I = 0; I < S.size();) {
    if ((S[I] == 'L' || S[I] == 'G') && S.substr(I + 1).startswith("['") &&
        (I == 0 || !isAlnum(S[I - 1]))) {
      size_t End = S.find("']", I + 3);
      if (End != StringRef::npos) {
        Out += S.substr(I + 3, End - I - 3).str();
        I = End + 2;
        continue;
      }
    }
    Out += S[I++];
  }
  return Out;
}

/// The compile a reason names ("0/0: ...", "!1/0/0: ...") and the text
/// after it.
static std::pair<Optional<CompileId>, StringRef> splitReason(StringRef R) {
  size_t Colon = R.find(": ");
  if (Colon != StringRef::npos && Colon < 40)
    if (Optional<CompileId> Id = CompileId::parse(R.substr(0, Colon)))
      return {Id, R.substr(Colon + 2).trim()};
  return {None, R.trim()};
}

/// The latest record before \p R of its frame (same log, rank and
/// compiled-autograd id) with guards, of frame compile id \p Id when given.
/// Module::Compiles is sorted by CompileRecord::sortKey, so the records of
/// a frame are one range of it (a scan of every record per reason would be
/// quadratic in the compiles of a long log).
static const CompileRecord *guardedRecord(const Module &M,
                                          const CompileRecord &R,
                                          Optional<CompileId> Id) {
  if (!R.Id)
    return nullptr;
  const CompileId &Want = Id ? *Id : *R.Id;
  auto Of = [](const CompileRecord &O) {
    CompileId I = O.Id ? *O.Id : CompileId();
    return std::make_tuple(O.Rank.getValueOr(-1), O.Log, !O.Id.hasValue(),
                           I.CompiledAutogradId.getValueOr(-1),
                           I.FrameId.getValueOr(-1));
  };
  auto Key = std::make_tuple(R.Rank.getValueOr(-1), R.Log, false,
                             Want.CompiledAutogradId.getValueOr(-1),
                             Want.FrameId.getValueOr(-1));
  auto Begin = std::partition_point(
      M.Compiles.begin(), M.Compiles.end(),
      [&](const CompileRecord &O) { return Of(O) < Key; });
  auto End = std::partition_point(
      Begin, M.Compiles.end(),
      [&](const CompileRecord &O) { return !(Key < Of(O)); });
  auto Range = std::make_pair(Begin, End);
  const CompileRecord *Best = nullptr;
  for (auto It = Range.first; It != Range.second; ++It) {
    const CompileRecord &O = *It;
    if (&O == &R || O.Guards.empty() || O.Line >= R.Line)
      continue;
    if (Id && O.Id->FrameCompileId != Id->FrameCompileId)
      continue;
    if (!Best || O.Line > Best->Line)
      Best = &O;
  }
  return Best;
}

const CompileRecord *guardsOf(const Module &M, const CompileRecord &R) {
  if (!R.Guards.empty())
    return &R;
  if (!R.Id)
    return nullptr;
  // The attempts of a compile are next to each other, attempt last in the
  // sort key: the later attempts follow R.
  const CompileRecord *Begin = M.Compiles.data();
  if (M.Compiles.empty() || &R < Begin || &R >= Begin + M.Compiles.size())
    return nullptr;
  const CompileRecord *Found = nullptr;
  for (const CompileRecord *O = &R + 1; O != Begin + M.Compiles.size(); ++O) {
    if (O->Log != R.Log || O->Rank != R.Rank || !O->Id ||
        O->Ordinal != R.Ordinal ||
        O->Id->CompiledAutogradId != R.Id->CompiledAutogradId ||
        O->Id->FrameId != R.Id->FrameId ||
        O->Id->FrameCompileId != R.Id->FrameCompileId)
      break;
    if (!O->Guards.empty())
      Found = O;
  }
  return Found;
}

std::vector<FailedGuard> failedGuards(const Module &M, const CompileRecord &R) {
  std::vector<FailedGuard> Out;
  for (const std::string &Reason : R.RecompileReasons) {
    FailedGuard F;
    F.Reason = Reason;
    auto [Id, Text] = splitReason(Reason);
    if (Id)
      F.Named = Id->str();
    F.Guarded = guardedRecord(M, R, Id);
    if (!F.Guarded) {
      Out.push_back(std::move(F));
      continue;
    }
    std::vector<GuardCheck> Checks = parseGuardChecks(F.Guarded->Guards);
    auto IsCheck = isGuardCheck;
    auto Take = [&](const GuardCheck &C, StringRef How) {
      F.Check = C;
      F.How = How.str();
    };
    std::string Plain = plainSource(Text);
    // 1. The reason names a kind of check ("GLOBAL_STATE changed: ...")
    // of which the guards have one.
    StringRef Word = Text.take_while([](char C) {
      return isAlnum(C) || C == '_';
    });
    if (Word.size() > 3 && Word.upper() == Word.str()) {
      const GuardCheck *One = nullptr;
      unsigned N = 0;
      for (const GuardCheck &C : Checks)
        if (IsCheck(C) && C.Kind == Word) {
          One = &C;
          ++N;
        }
      if (N == 1)
        Take(*One, "guard kind");
    }
    // 2. "tensor 'x' size mismatch ...": the TENSOR_MATCH of that source.
    // (The check_tensor of the guard list form, else, for a size, the
    // guard on that size: `L['x'].size()[0] == 4` under dynamic shapes.)
    if (!F.Check.Line && Text.startswith("tensor '")) {
      StringRef Name = Text.drop_front(strlen("tensor '"));
      Name = Name.substr(0, Name.find("' "));
      std::string Want = plainSource(Name);
      for (const GuardCheck &C : Checks)
        if ((C.Kind == "TENSOR_MATCH" && plainSource(C.Source) == Want) ||
            (C.Kind.empty() && StringRef(plainSource(C.Expr))
                                   .startswith("check_tensor(" + Want + ","))) {
          Take(C, "tensor source");
          break;
        }
      StringRef Index = Text.substr(Text.find("size mismatch at index "));
      if (!F.Check.Line &&
          Index.consume_front("size mismatch at index ")) {
        std::string Size =
            Want + ".size()[" +
            Index.take_while([](char C) { return isDigit(C); }).str() + "]";
        for (const GuardCheck &C : Checks)
          if (isGuardCheck(C) && StringRef(plainSource(C.Expr)).contains(Size)) {
            Take(C, "tensor source and size index");
            break;
          }
      }
    }
    // 3. A check's expression in the reason, or the longest source in it
    // of a check or of a manager (a dict's manager checks its length
    // itself: "len(self.state[...]) != 0"); a check before a manager of
    // the same source, a length check first when the reason is one.
    if (!F.Check.Line) {
      const GuardCheck *Best = nullptr;
      size_t BestScore = 0;
      bool WantsLength = Text.contains("len(");
      for (const GuardCheck &C : Checks) {
        if (IsCheck(C)) {
          std::string E = plainSource(C.Expr);
          if (E.size() >= 6 && StringRef(Plain).contains(E)) {
            Take(C, "the reason's text");
            Best = nullptr;
            break;
          }
        } else if (C.Kind.startswith("KeyValue")) {
          continue;
        }
        std::string S = plainSource(C.Source);
        if (S.size() < 2 || !StringRef(Plain).contains(S))
          continue;
        bool IsLength = C.Kind == "LENGTH_CHECK" || C.Kind == "DICT_LENGTH";
        size_t Score = S.size() * 4 + (WantsLength && IsLength) * 2 +
                       IsCheck(C);
        if (Score > BestScore) {
          Best = &C;
          BestScore = Score;
        }
      }
      if (Best)
        Take(*Best, "source in the reason");
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

RecompileGuards recompileGuards(const Module &M, const CompileRecord &R) {
  RecompileGuards G;
  G.Failed = failedGuards(M, R);
  for (const FailedGuard &F : G.Failed)
    if (F.Guarded) {
      G.Against = F.Guarded;
      break;
    }
  G.Own = G.Against ? guardsOf(M, R) : nullptr;
  if (!G.Own) {
    G.Against = nullptr;
    return G;
  }
  G.Diff = guardsDiff(G.Against->idName(), G.Against->Guards, G.Own->idName(),
                      G.Own->Guards);
  return G;
}

/// The lines of a guards text that are compared: all but the latency.
static std::vector<StringRef> diffLines(StringRef Text) {
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  if (!Lines.empty() && Lines.back().empty()) // the text's last line break
    Lines.pop_back();
  std::vector<StringRef> Out;
  for (StringRef L : Lines) {
    L = L.rtrim("\r");
    if (L.trim().startswith("Guard latency = "))
      continue;
    Out.push_back(L);
  }
  return Out;
}

std::string guardsDiff(StringRef BeforeName, StringRef Before,
                       StringRef AfterName, StringRef After,
                       unsigned MaxLines) {
  std::vector<StringRef> A = diffLines(Before), B = diffLines(After);
  if (A == B)
    return "";
  // The common prefix and suffix, then a shortest edit script of what is
  // between.
  size_t P = 0;
  while (P < A.size() && P < B.size() && A[P] == B[P])
    ++P;
  size_t S = 0;
  while (S < A.size() - P && S < B.size() - P &&
         A[A.size() - 1 - S] == B[B.size() - 1 - S])
    ++S;
  size_t N = A.size() - P - S, Mn = B.size() - P - S;
  // Ops over the whole texts: ' ' same, '-' only in A, '+' only in B.
  std::vector<std::pair<char, StringRef>> Ops;
  for (size_t I = 0; I < P; ++I)
    Ops.push_back({' ', A[I]});
  // Myers' O((N+M)D) diff of the middle: guards of a recompile differ in
  // a few lines, so D is small even for guards of thousands of lines. The
  // V array of each step D is kept (D^2 values in all) to walk back; past
  // 2,000 differences the middle is shown as removed, then added.
  std::vector<std::pair<char, StringRef>> Mid;
  {
    const long NN = static_cast<long>(N), MM = static_cast<long>(Mn);
    const long MaxD = std::min<long>(NN + MM, 2000);
    // Trace[D] holds V[k] for k = -D..D (index k + D).
    std::vector<std::vector<long>> Trace;
    std::vector<long> V(2 * (NN + MM) + 3, 0);
    const long Off = NN + MM + 1;
    long Found = -1;
    for (long D = 0; D <= MaxD && Found < 0; ++D) {
      for (long K = -D; K <= D; K += 2) {
        long X = (K == -D || (K != D && V[Off + K - 1] < V[Off + K + 1]))
                     ? V[Off + K + 1]
                     : V[Off + K - 1] + 1;
        long Y = X - K;
        while (X < NN && Y < MM && A[P + X] == B[P + Y])
          ++X, ++Y;
        V[Off + K] = X;
        if (X >= NN && Y >= MM) {
          Found = D;
          break;
        }
      }
      Trace.emplace_back(V.begin() + Off - D, V.begin() + Off + D + 1);
    }
    if (Found < 0) {
      for (size_t I = 0; I < N; ++I)
        Mid.push_back({'-', A[P + I]});
      for (size_t J = 0; J < Mn; ++J)
        Mid.push_back({'+', B[P + J]});
    } else {
      long X = NN, Y = MM;
      for (long D = Found; D >= 0; --D) {
        const std::vector<long> &T = Trace[D];
        auto At = [&](long K) { return T[K + D]; };
        long K = X - Y;
        long PrevK = (K == -D || (K != D && At(K - 1) < At(K + 1))) ? K + 1
                                                                    : K - 1;
        long PrevX = D ? Trace[D - 1][PrevK + D - 1] : 0;
        long PrevY = PrevX - PrevK;
        while (X > PrevX && Y > PrevY) {
          Mid.push_back({' ', A[P + X - 1]});
          --X, --Y;
        }
        if (D == 0)
          break;
        if (X == PrevX)
          Mid.push_back({'+', B[P + Y - 1]});
        else
          Mid.push_back({'-', A[P + X - 1]});
        X = PrevX;
        Y = PrevY;
      }
      std::reverse(Mid.begin(), Mid.end());
    }
  }
  Ops.insert(Ops.end(), Mid.begin(), Mid.end());
  for (size_t I = A.size() - S; I < A.size(); ++I)
    Ops.push_back({' ', A[I]});

  // Hunks with two lines of context.
  const size_t Context = 2;
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "--- " << BeforeName << "\n+++ " << AfterName << "\n";
  unsigned Written = 2, Left = 0;
  size_t K = 0;
  // Line numbers (1-based) in A and B at Ops[K].
  std::vector<std::pair<size_t, size_t>> Pos(Ops.size() + 1);
  for (size_t I = 0, LA = 1, LB = 1; I <= Ops.size(); ++I) {
    Pos[I] = {LA, LB};
    if (I == Ops.size())
      break;
    LA += Ops[I].first != '+';
    LB += Ops[I].first != '-';
  }
  while (K < Ops.size()) {
    while (K < Ops.size() && Ops[K].first == ' ')
      ++K;
    if (K == Ops.size())
      break;
    size_t Begin = K >= Context ? K - Context : 0;
    size_t End = K;
    // Extend the hunk while the next change is within 2 * Context lines.
    size_t Same = 0;
    for (size_t I = K; I < Ops.size(); ++I) {
      if (Ops[I].first != ' ') {
        End = I + 1;
        Same = 0;
      } else if (++Same > 2 * Context) {
        break;
      }
    }
    End = std::min(Ops.size(), End + Context);
    size_t CountA = 0, CountB = 0;
    for (size_t I = Begin; I < End; ++I) {
      CountA += Ops[I].first != '+';
      CountB += Ops[I].first != '-';
    }
    if (Written < MaxLines) {
      OS << "@@ -" << Pos[Begin].first << "," << CountA << " +"
         << Pos[Begin].second << "," << CountB << " @@\n";
      ++Written;
    }
    for (size_t I = Begin; I < End; ++I) {
      if (Written >= MaxLines) {
        ++Left;
        continue;
      }
      OS << Ops[I].first << Ops[I].second << "\n";
      ++Written;
    }
    K = End;
  }
  if (Left)
    OS << "@@ " << Left << " more lines of the diff not shown @@\n";
  return OS.str();
}

} // namespace tlp
