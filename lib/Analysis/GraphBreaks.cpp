//===- GraphBreaks.cpp - The distinct graph breaks of a log ---------------===//

#include "tlp/Analysis/GraphBreaks.h"
#include "tlp/IR/Module.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace tlp {

std::vector<DistinctBreak> distinctBreaks(const Module &M) {
  std::vector<DistinctBreak> Out;
  // (label, file, line) -> index into Out.
  std::map<std::tuple<std::string, std::string, uint32_t>, size_t> Index;
  std::vector<std::set<std::tuple<uint32_t, int64_t, int64_t, int64_t>>>
      Frames;
  std::vector<std::set<int64_t>> Ranks;
  // A compile, all its attempts.
  auto CompileKey = [](const CompileRecord &R) {
    CompileId Id = R.Id ? *R.Id : CompileId();
    return std::make_tuple(R.Log, R.Rank.getValueOr(-1), !R.Id.hasValue(),
                           Id.CompiledAutogradId.getValueOr(-1),
                           Id.FrameId.getValueOr(-1),
                           Id.FrameCompileId.getValueOr(-1), R.Ordinal);
  };
  std::set<std::tuple<decltype(CompileKey(CompileRecord())), std::string>>
      Placed;
  for (const CompileRecord &R : M.Compiles)
    for (const BreakReason &B : R.Breaks)
      if (B.UserFrame || B.Where)
        Placed.insert(std::make_tuple(CompileKey(R), B.label()));
  for (size_t I = 0; I < M.Compiles.size(); ++I) {
    const CompileRecord &R = M.Compiles[I];
    for (const BreakReason &B : R.Breaks) {
      const Optional<SourceLoc> &At = B.UserFrame ? B.UserFrame : B.Where;
      // A compile's metrics repeat its break (restart_reasons, in the
      // attempt after the restart) without the place its
      // dynamo_graph_break_reason gives: the same break.
      if (!At && Placed.count(std::make_tuple(CompileKey(R), B.label())))
        continue;
      auto Key = std::make_tuple(B.label(), At ? At->File : std::string(),
                                 At ? At->Line : 0u);
      auto [It, New] = Index.try_emplace(Key, Out.size());
      if (New) {
        DistinctBreak D;
        D.First = &B;
        Out.push_back(std::move(D));
        Frames.emplace_back();
        Ranks.emplace_back();
      }
      DistinctBreak &D = Out[It->second];
      if (D.Records.empty() || D.Records.back() != I)
        D.Records.push_back(I);
      D.Hits += B.Count;
      CompileId Id = R.Id ? *R.Id : CompileId();
      Frames[It->second].insert(std::make_tuple(
          R.Log, R.Rank.getValueOr(-1), Id.CompiledAutogradId.getValueOr(-1),
          Id.FrameId.getValueOr(-1)));
      if (R.Rank)
        Ranks[It->second].insert(*R.Rank);
    }
  }
  for (size_t K = 0; K < Out.size(); ++K) {
    Out[K].Frames = Frames[K].size();
    Out[K].Ranks.assign(Ranks[K].begin(), Ranks[K].end());
  }
  // Most compiles first; first seen among equals (stable).
  std::stable_sort(Out.begin(), Out.end(),
                   [](const DistinctBreak &A, const DistinctBreak &B) {
                     return A.Records.size() > B.Records.size();
                   });
  return Out;
}

} // namespace tlp
