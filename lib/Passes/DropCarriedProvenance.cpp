//===- DropCarriedProvenance.cpp - Entries of earlier compiles ------------===//
//
// PyTorch 2.13 numbers debug handles from one table that is not always
// cleared between compiles, and logs the whole table with a unit: a
// backward compiled after other backwards (its first call, in a training
// step) logs their entries before its own, and a backward compiled right
// after its forward (a recompile) logs the forward's. Those entries name no
// call of the unit's code (`extern_kernels.mm:2` in a backward whose calls
// carry handles 8 to 15) and their nodes are not in its graphs, so each
// would be a warning and a kernel row of a kernel that is not there.
//
// The sign is in the unit itself: the carried entries have the lowest
// handles (the table numbers in order from 1), every handle from 1 to just
// below the first handle of the unit's code, and none names a call of it.
// Such entries are dropped from the mapping's kernel sections and from the
// kernel stack traces, with a note (which says so when the compile hit a
// cache: its entries then come from the run that wrote the cache entry,
// whose earlier graphs this log may not have). Entries of a handle the
// code carries, every key of a unit whose code has no handles (v1, a log
// written without provenance), and the keys of a kernel the code calls
// with no handle comment are kept: a key that names nothing there is still
// a warning (resolve-debug-handles).
//
//===----------------------------------------------------------------------===//

#include "tlp/Passes/Pass.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace tlp {

namespace {

class DropCarriedProvenancePass : public UnitPass {
public:
  StringRef getName() const override { return "drop-carried-provenance"; }

  void runOnUnit(const Module &M, CompileUnit &U,
                 DiagnosticEngine &D) override {
    const CodeArtifact *Code = U.Code.get();
    if (!Code || (!U.Mapping && !U.StackTraces))
      return;
    // Every handle the code names: its `[Provenance debug handles]`
    // comments (also those before calls in forms the wrapper parser does
    // not know), and the kernels it calls with no handle.
    Optional<uint64_t> First;
    StringSet<> Named, Unhandled;
    StringRef Text = Code->Text;
    static const char Marker[] = "[Provenance debug handles]";
    for (size_t P = Text.find(Marker); P != StringRef::npos;
         P = Text.find(Marker, P + 1)) {
      StringRef Line = Text.substr(P + sizeof(Marker) - 1);
      Line = Line.take_until([](char C) { return C == '\n' || C == '\r'; });
      SmallVector<StringRef, 4> Keys;
      Line.split(Keys, ',');
      for (StringRef K : Keys) {
        K = K.trim();
        StringRef Name;
        Optional<uint64_t> H;
        splitKernelKey(K, Name, H);
        if (!H)
          continue;
        Named.insert(K);
        if (!First || *H < *First)
          First = H;
      }
    }
    for (const CallSite &C : Code->Calls)
      if (!C.Handle)
        Unhandled.insert(C.Kernel);
    if (!First || *First <= 1)
      return;
    auto Carried = [&](StringRef Key, uint64_t H) {
      StringRef Name;
      Optional<uint64_t> Unused;
      splitKernelKey(Key, Name, Unused);
      return H < *First && !Named.count(Key) && !Unhandled.count(Name);
    };
    // The carried keys of one artifact, each once, or none. The table
    // numbers from 1, in order: the keys below the code's first handle
    // must all be carried and hold every handle from 1 to just below it.
    // Otherwise (a handle 0, a gap, a key that stays) nothing is dropped
    // and each key that names no call is a warning, as on damaged input.
    // (Handles come from the log: counted, never used as a size.)
    auto CarriedRun = [&](ArrayRef<StringRef> Keys) {
      std::vector<StringRef> Out;
      StringSet<> Seen;
      DenseSet<uint64_t> Handles;
      for (StringRef K : Keys) {
        StringRef Name;
        Optional<uint64_t> H;
        splitKernelKey(K, Name, H);
        if (!H || *H >= *First)
          continue;
        if (*H == 0 || !Carried(K, *H))
          return std::vector<StringRef>();
        Handles.insert(*H);
        if (Seen.insert(K).second)
          Out.push_back(K);
      }
      if (Handles.size() != *First - 1)
        Out.clear();
      return Out;
    };
    std::string File = M.logName(U.Key.Log);
    // A whole run: its handles are 1 to First - 1. A compile that hit a
    // cache may log the entries the run that wrote the cache entry
    // carried: graphs this log has not compiled yet, or at all.
    auto Note = [&](uint32_t Line, StringRef What, size_t N) {
      // The unit's own FX graph lookup when its AOT ID says which (one
      // graph of a compile of several may hit where the others miss);
      // else any hit of its compile.
      const CompileRecord *R = M.findCompile(U);
      const CacheLookup *Own = M.fxLookupOf(U);
      bool Hit = Own ? Own->Result == CacheLookup::Hit
                     : R && llvm::any_of(R->Caches, [](const CacheLookup &C) {
                         return C.Result == CacheLookup::Hit;
                       });
      D.note(File, Line,
             "unit " + U.Key.displayName() + ": " + Twine(N) +
                 (N == 1 ? " kernel of the " : " kernels of the ") + What +
                 (*First == 2 ? " (debug handle 1"
                              : " (debug handles 1 to " +
                                    Twine(*First - 1).str()) +
                 (N == 1 ? ") names" : ") name") +
                 " no call of this unit's code, whose handles begin at " +
                 Twine(*First) +
                 (N == 1 ? ": an entry of a graph compiled before this "
                         : ": entries of graphs compiled before this ") +
                 (Hit ? "one (this compile hit the cache: perhaps by the run "
                        "that wrote the entry) "
                      : "one ") +
                 "that PyTorch logged again; dropped");
    };

    if (MappingArtifact *Map = U.Mapping.get()) {
      std::vector<StringRef> All;
      for (auto &KV : Map->KernelToPost)
        All.push_back(KV.first);
      for (auto &KV : Map->PostToKernel)
        for (const std::string &K : KV.second)
          All.push_back(K);
      std::vector<StringRef> Run = CarriedRun(All);
      if (!Run.empty()) {
        Note(Map->Line, "provenance mapping", Run.size());
        // Owned copies: the slices point into the entries erased below.
        StringSet<> Dropped;
        for (StringRef K : Run)
          Dropped.insert(K);
        llvm::erase_if(Map->KernelToPost, [&](const auto &KV) {
          return Dropped.count(KV.first) != 0;
        });
        // A post-grad node whose every kernel was carried is the earlier
        // compile's node: its entry goes too.
        llvm::erase_if(Map->PostToKernel, [&](auto &KV) {
          size_t Before = KV.second.size();
          llvm::erase_if(KV.second, [&](const std::string &K) {
            return Dropped.count(K) != 0;
          });
          return Before && KV.second.empty();
        });
      }
    }
    if (StackTraceArtifact *ST = U.StackTraces.get()) {
      std::vector<StringRef> All;
      for (auto &KV : ST->Traces)
        All.push_back(KV.first);
      std::vector<StringRef> Run = CarriedRun(All);
      if (!Run.empty()) {
        Note(ST->Line, "kernel stack traces", Run.size());
        StringSet<> Dropped;
        for (StringRef K : Run)
          Dropped.insert(K);
        llvm::erase_if(ST->Traces, [&](const auto &KV) {
          return Dropped.count(KV.first) != 0;
        });
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> createDropCarriedProvenancePass() {
  return std::make_unique<DropCarriedProvenancePass>();
}

} // namespace tlp
