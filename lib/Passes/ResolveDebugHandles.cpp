//===- ResolveDebugHandles.cpp - The kernel table of each unit ------------===//
//
// Every kernel key the provenance data names becomes a row of the unit's
// kernel table, with the call sites it stands for:
//   v2 `name:N`  the call site whose `[Provenance debug handles] name:N`
//                comment precedes it (exact handle match, so `foo:4` never
//                takes `foo:45`; names may hold colons, the handle is after
//                the last one);
//   v1 `name`    every call site of `name`.
// Call sites no key names get rows of their own, so the table lists every
// kernel of the code.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/InductorNames.h"
#include "tlp/Passes/Pass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <iterator>

using namespace llvm;

namespace tlp {

namespace {

bool sameRows(const std::vector<Kernel> &A, const std::vector<Kernel> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I].key() != B[I].key() || A[I].CallLines != B[I].CallLines)
      return false;
  return true;
}

class ResolveDebugHandlesPass : public UnitPass {
public:
  StringRef getName() const override { return "resolve-debug-handles"; }

  void runOnUnit(const Module &M, CompileUnit &U,
                 DiagnosticEngine &D) override {
    resolve(M, U, D);
  }

private:
  static void resolve(const Module &M, CompileUnit &U, DiagnosticEngine &D) {
    std::vector<Kernel> Rows;
    CodeArtifact *Code = U.Code.get();
    // Ordered, unique keys named by the provenance data: slices of the
    // unit's artifacts (which outlive this pass), each with whether the
    // mapping names it; one index, no copies (a mapping of a million keys
    // held three copies of each).
    std::vector<StringRef> Keys;
    DenseMap<StringRef, bool> KeyInMapping;
    bool AnyMappingKey = false;
    auto AddKey = [&](StringRef K, bool FromMapping) {
      auto Ins = KeyInMapping.try_emplace(K, FromMapping);
      if (Ins.second)
        Keys.push_back(K);
      else
        Ins.first->second |= FromMapping;
      AnyMappingKey |= FromMapping;
    };
    // Sized once: growing doubles the table while both are held.
    size_t Expect = U.Mapping ? U.Mapping->KernelToPost.size()
                    : U.KernelNodes ? U.KernelNodes->Entries.size()
                                    : 0;
    if (U.Mapping)
      for (auto &KV : U.Mapping->PostToKernel)
        Expect += KV.second.size();
    if (U.StackTraces)
      Expect += U.StackTraces->Traces.size();
    KeyInMapping.reserve(Expect);
    Keys.reserve(Expect);
    if (U.Mapping) {
      for (auto &KV : U.Mapping->KernelToPost)
        AddKey(KV.first, true);
      for (auto &KV : U.Mapping->PostToKernel)
        for (const std::string &K : KV.second)
          AddKey(K, true);
    } else if (U.KernelNodes) {
      for (auto &KV : U.KernelNodes->Entries)
        AddKey(KV.first, false);
    }
    if (U.StackTraces)
      for (auto &KV : U.StackTraces->Traces)
        AddKey(KV.first, false);
    // v2 keys carry handles. A mapping with no kernel keys at all (a
    // broken payload, say) tells nothing: then keys split as v2 too.
    bool SplitHandles =
        !U.Mapping || U.Mapping->hasHandles() || !AnyMappingKey;

    StringMap<std::vector<uint32_t>> CallsByName;
    std::vector<bool> Covered;
    auto IndexCalls = [&]() {
      CallsByName.clear();
      if (!Code)
        return;
      for (uint32_t I = 0; I < Code->Calls.size(); ++I)
        CallsByName[Code->Calls[I].Kernel].push_back(I);
      Covered.assign(Code->Calls.size(), false);
    };
    IndexCalls();
    // A key is `name:handle` if the data are v2, or if the code has a call
    // of `name` with that handle (a v1 key never names a handle comment).
    auto Split = [&](StringRef Key, StringRef &Name,
                     Optional<uint64_t> &Handle) {
      Name = Key;
      Handle = None;
      StringRef N;
      Optional<uint64_t> H;
      splitKernelKey(Key, N, H);
      if (!H)
        return;
      bool CodeHasIt = false;
      if (Code) {
        auto It = CallsByName.find(N);
        if (It != CallsByName.end())
          CodeHasIt = llvm::any_of(It->second, [&](uint32_t C) {
            return Code->Calls[C].Handle == H;
          });
      }
      if (SplitHandles || CodeHasIt) {
        Name = N;
        Handle = H;
      }
    };

    std::string File = M.logName(U.Key.Log);
    uint32_t MapLine = U.Mapping ? U.Mapping->Line : 0;
    unsigned Reported = 0, Suppressed = 0;
    auto Warn = [&](const Twine &Msg) {
      if (Reported++ < 10)
        D.warning(File, MapLine, Msg);
      else
        ++Suppressed;
    };
    if (!Keys.empty() && !Code && AnyMappingKey)
      D.warning(File, MapLine,
                "unit " + U.Key.displayName() +
                    " has a provenance mapping but no generated code; its " +
                    Twine(Keys.size()) + " kernels have no call sites");

    // Keys whose kernel the wrapper parser saw no call of: look the name up
    // in the entry function's name index (calls in forms it does not know).
    if (Code) {
      bool Added = false;
      for (StringRef Key : Keys) {
        StringRef Name;
        Optional<uint64_t> Handle;
        Split(Key, Name, Handle);
        if (!CallsByName.count(Name))
          Added |= synthesize(*Code, Name);
      }
      if (Added)
        IndexCalls();
    }

    // Rows for keys, with the indices of their call sites.
    std::vector<std::vector<uint32_t>> RowCalls;
    constexpr unsigned MaxUncalledRows = 1000;
    unsigned Uncalled = 0, UncalledDropped = 0;
    for (StringRef Key : Keys) {
      Kernel K;
      StringRef Name;
      Optional<uint64_t> Handle;
      Split(Key, Name, Handle);
      K.Name = Name.str();
      K.Handle = Handle;
      K.InMapping = KeyInMapping.lookup(Key);
      std::vector<uint32_t> Calls;
      if (Code) {
        auto It = CallsByName.find(K.Name);
        if (It != CallsByName.end()) {
          // Code without handle comments: a keyed kernel stands for all its
          // calls.
          bool AnyHandle = llvm::any_of(It->second, [&](uint32_t C) {
            return Code->Calls[C].Handle.hasValue();
          });
          for (uint32_t C : It->second) {
            const CallSite &S = Code->Calls[C];
            if (!Handle || S.Handle == Handle || !AnyHandle)
              Calls.push_back(C);
          }
          if (Handle && Calls.empty())
            Warn("no call of '" + K.Name + "' carries debug handle " +
                 Twine(*Handle) + " (mapping key '" + Key + "')");
        } else if (K.InMapping) {
          Warn("kernel '" + Key +
               "' of the provenance mapping has no call "
               "site in the generated code");
        }
      }
      // Keys with no call site cost a row each and grow the output without
      // bound (a mapping of a million made-up keys took 3.7 GB): rows for
      // the first MaxUncalledRows only, and a count of the rest.
      if (Code && Calls.empty() && ++Uncalled > MaxUncalledRows) {
        ++UncalledDropped;
        continue;
      }
      for (uint32_t C : Calls)
        Covered[C] = true;
      Rows.push_back(std::move(K));
      RowCalls.push_back(std::move(Calls));
    }
    if (Suppressed)
      D.warning(File, MapLine,
                Twine(Suppressed) + " more kernels do not resolve");
    if (UncalledDropped)
      D.warning(File, MapLine,
                "unit " + U.Key.displayName() + ": " +
                    Twine(UncalledDropped) +
                    " more kernels of the provenance data have no call site "
                    "and get no kernel row (rows are kept for the first " +
                    Twine(MaxUncalledRows) + ")");

    // Call sites no key names, grouped by name and handle, in line order.
    if (Code) {
      StringMap<size_t> Extra;
      for (uint32_t C = 0; C < Code->Calls.size(); ++C) {
        if (Covered[C])
          continue;
        const CallSite &S = Code->Calls[C];
        Kernel K;
        K.Name = S.Kernel;
        K.Handle = S.Handle;
        std::string Key = K.key();
        auto It = Extra.find(Key);
        if (It == Extra.end()) {
          Extra[Key] = Rows.size();
          Rows.push_back(std::move(K));
          RowCalls.push_back({C});
        } else {
          RowCalls[It->second].push_back(C);
        }
      }
    }

    for (size_t I = 0; I < Rows.size(); ++I) {
      Kernel &K = Rows[I];
      KernelKind Kind = KernelKind::Unknown;
      if (Code) {
        for (uint32_t C : RowCalls[I])
          K.CallLines.push_back(Code->Calls[C].Line);
        if (!RowCalls[I].empty())
          Kind = Code->Calls[RowCalls[I].front()].Kind;
        if (Optional<uint32_t> Def = Code->findDef(K.Name)) {
          K.Def = Def;
          Kind = Code->Defs[*Def].Kind;
        }
      }
      if (U.KernelCode)
        if (Optional<uint32_t> Def = U.KernelCode->findDef(K.Name)) {
          K.KernelCodeDef = Def;
          if (Kind == KernelKind::Unknown)
            Kind = U.KernelCode->Defs[*Def].Kind;
        }
      if (Kind == KernelKind::Unknown)
        Kind = guessKernelKind(K.Name);
      K.Kind = Kind;
      llvm::sort(K.CallLines);
      K.CallLines.erase(std::unique(K.CallLines.begin(), K.CallLines.end()),
                        K.CallLines.end());
    }
    // Two rows never share a key (the table is keyed by it), however odd
    // the keys the data use: merge any that do.
    {
      StringMap<size_t> ByKey;
      std::vector<Kernel> Unique;
      for (Kernel &K : Rows) {
        auto Ins = ByKey.try_emplace(K.key(), Unique.size());
        if (Ins.second) {
          Unique.push_back(std::move(K));
          continue;
        }
        Kernel &First = Unique[Ins.first->second];
        First.InMapping |= K.InMapping;
        First.CallLines.insert(First.CallLines.end(), K.CallLines.begin(),
                               K.CallLines.end());
        llvm::sort(First.CallLines);
        First.CallLines.erase(
            std::unique(First.CallLines.begin(), First.CallLines.end()),
            First.CallLines.end());
      }
      Rows = std::move(Unique);
    }
    // Table order: by first call line; rows without calls keep key order.
    llvm::stable_sort(Rows, [](const Kernel &A, const Kernel &B) {
      if (A.CallLines.empty() || B.CallLines.empty())
        return !A.CallLines.empty() && B.CallLines.empty();
      return A.CallLines.front() < B.CallLines.front();
    });
    if (!sameRows(Rows, U.Kernels))
      U.Edges.clear(); // edges index the old table
    U.Kernels = std::move(Rows);
  }

  /// Add call sites for \p Name where the entry function (or the whole
  /// code) names it, as `Name` or `call_Name`, outside comments and
  /// definitions (CodeArtifact::entryNames()).
  static bool synthesize(CodeArtifact &C, StringRef Name) {
    const EntryNameIndex &Names = C.entryNames();
    ArrayRef<uint32_t> Direct = Names.lines(Name);
    // AOT Triton launches go through `call_<name>(` wrappers.
    ArrayRef<uint32_t> Wrapped = Names.lines(aotiLaunchWrapper(Name));
    std::vector<uint32_t> Lines;
    std::set_union(Direct.begin(), Direct.end(), Wrapped.begin(),
                   Wrapped.end(), std::back_inserter(Lines));
    for (uint32_t L : Lines) {
      CallSite S;
      S.Kernel = Name.str();
      S.Kind = guessKernelKind(Name);
      // `kernel[grid](...)`: a user-defined Triton kernel.
      if (S.Kind == KernelKind::Unknown && Names.subscripted(Name, L))
        S.Kind = KernelKind::Triton;
      S.Line = L;
      auto Pos =
          llvm::lower_bound(C.Calls, L, [](const CallSite &X, uint32_t Line) {
            return X.Line < Line;
          });
      C.Calls.insert(Pos, std::move(S));
    }
    return !Lines.empty();
  }
};

} // namespace

std::unique_ptr<Pass> createResolveDebugHandlesPass() {
  return std::make_unique<ResolveDebugHandlesPass>();
}

} // namespace tlp
