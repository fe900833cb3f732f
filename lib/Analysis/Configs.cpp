//===- Configs.cpp - The configuration of each compile, and changes -------===//

#include "tlp/Analysis/Configs.h"
#include "tlp/IR/Module.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>

using namespace llvm;

namespace tlp {

namespace {

/// \p Text parsed as JSON, or None.
Optional<json::Value> parseJSON(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  if (!V) {
    consumeError(V.takeError());
    return None;
  }
  return std::move(*V);
}

/// \p V as compact JSON.
std::string compact(const json::Value &V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << V;
  return OS.str();
}

/// The members of a JSON object text in order, values as compact JSON;
/// false when \p Text is not a JSON object.
bool members(StringRef Text,
             std::vector<std::pair<std::string, std::string>> &Out) {
  Optional<json::Value> V = parseJSON(Text);
  const json::Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return false;
  // llvm::json::Object iterates in hash order: the settings are put in
  // name order (PyTorch's dumps are sorted too), which comparing merges.
  std::vector<std::pair<std::string, std::string>> All;
  for (const auto &KV : *O)
    All.emplace_back(KV.first.str(), compact(KV.second));
  llvm::sort(All, [](const auto &A, const auto &B) { return A.first < B.first; });
  Out = std::move(All);
  return true;
}

/// Whether \p A and \p B (compact JSON) are arrays of the same items, as
/// a multiset, in another order.
bool sameItemsReordered(StringRef A, StringRef B) {
  if (!A.startswith("[") || !B.startswith("[") || A.size() != B.size())
    return false;
  // The items as compact JSON, sorted.
  auto Items = [](StringRef Text, std::vector<std::string> &Out) {
    Optional<json::Value> V = parseJSON(Text);
    const json::Array *Arr = V ? V->getAsArray() : nullptr;
    if (!Arr)
      return false;
    for (const json::Value &X : *Arr)
      Out.push_back(compact(X));
    llvm::sort(Out);
    return true;
  };
  std::vector<std::string> IA, IB;
  return Items(A, IA) && Items(B, IB) && IA == IB;
}

} // namespace

const ConfigComparer::Parsed &ConfigComparer::parsed(uint32_t Text) {
  // Each text parsed once, under the lock; a Parsed never moves once made,
  // so the reference stays valid while other threads add to the cache.
  std::lock_guard<std::mutex> Lock(CacheLock);
  if (Cache.size() <= Text)
    Cache.resize(Text + 1);
  if (!Cache[Text]) {
    Cache[Text] = std::make_unique<Parsed>();
    Cache[Text]->IsObject = members(M.ConfigTexts[Text], Cache[Text]->Members);
  }
  return *Cache[Text];
}

/// A scalar JSON value (true, false, null, a number, a string without
/// escapes) as Python's str() writes it, which is how an FX graph cache
/// key component writes a setting (`inductor_config[x]: True`, a string
/// unquoted); None for anything else.
static Optional<std::string> pythonStr(StringRef V) {
  if (V == "true")
    return std::string("True");
  if (V == "false")
    return std::string("False");
  if (V == "null")
    return std::string("None");
  if (V.size() >= 2 && V.front() == '"' && V.back() == '"') {
    StringRef S = V.drop_front().drop_back();
    if (S.contains('\\'))
      return None;
    return S.str();
  }
  double D;
  if (!V.empty() && (isDigit(V[0]) || V[0] == '-') && !V.getAsDouble(D))
    return V.str();
  return None;
}

std::vector<ConfigChange> ConfigComparer::patchedSettings(
    const CompileRecord &R) {
  std::vector<ConfigChange> Out;
  Optional<uint32_t> Dump;
  for (const auto &C : R.Configs)
    if (C.first == "inductor_config" && C.second < M.ConfigTexts.size())
      Dump = C.second;
  if (!Dump)
    return Out;
  // The records of a log share their dump and, across ranks and
  // recompiles of a frame, their lookups' component lists: the answer is
  // kept per dump and lists.
  std::string Key = std::to_string(*Dump);
  for (const CacheLookup &C : R.Caches)
    if (C.Cache == CacheLookup::FXGraph && !C.Components.empty())
      Key += "," + std::to_string(reinterpret_cast<uintptr_t>(
                       &C.Components.vec()));
  {
    std::lock_guard<std::mutex> Lock(CacheLock);
    auto It = PatchedCache.find(Key);
    if (It != PatchedCache.end())
      return It->second;
  }
  const Parsed &P = parsed(*Dump);
  if (P.IsObject) {
    // Each component's setting, split once for the whole module.
    std::call_once(SettingsOnce, [&] {
      Settings.resize(M.KeyComponents.size());
      for (size_t I = 0; I < M.KeyComponents.size(); ++I) {
        KeyComponent K = splitKeyComponent(M.KeyComponents[I]);
        StringRef Name = K.Name;
        if (Name.consume_front("inductor_config[") && Name.consume_back("]"))
          Settings[I] = {Name, K.Value.trim()};
      }
    });
    std::vector<std::pair<StringRef, StringRef>> Keyed;
    for (const CacheLookup &C : R.Caches)
      if (C.Cache == CacheLookup::FXGraph)
        for (uint32_t I : C.Components)
          if (I < Settings.size() && !Settings[I].first.empty())
            Keyed.push_back(Settings[I]);
    // The first lookup's value of a setting counts.
    llvm::stable_sort(Keyed, [](const auto &A, const auto &B) {
      return A.first < B.first;
    });
    size_t J = 0;
    for (const auto &KV : P.Members) {
      while (J < Keyed.size() && Keyed[J].first < KV.first)
        ++J;
      if (J == Keyed.size() || Keyed[J].first != KV.first)
        continue;
      StringRef Value = Keyed[J].second;
      Optional<std::string> Dumped = pythonStr(KV.second);
      if (!Dumped || *Dumped == Value)
        continue;
      // The same number written two ways (1.0, 1) is the same setting.
      double A, B;
      if (!StringRef(*Dumped).getAsDouble(A) && !Value.getAsDouble(B) &&
          A == B)
        continue;
      Out.push_back({"inductor_config", KV.first, KV.second, Value.str()});
    }
  }
  std::lock_guard<std::mutex> Lock(CacheLock);
  PatchedCache.emplace(std::move(Key), Out);
  return Out;
}

std::vector<ConfigChange> ConfigComparer::changes(const CompileRecord &Before,
                                                  const CompileRecord &After) {
  std::vector<ConfigChange> Out;
  auto Index = [&](const CompileRecord &R, StringRef Name) -> Optional<uint32_t> {
    for (const auto &C : R.Configs)
      if (C.first == Name && C.second < M.ConfigTexts.size())
        return C.second;
    return None;
  };
  std::vector<std::string> Names;
  for (const auto &C : After.Configs)
    Names.push_back(C.first);
  for (const auto &C : Before.Configs)
    if (!is_contained(Names, C.first))
      Names.push_back(C.first);
  for (const std::string &Name : Names) {
    Optional<uint32_t> IA = Index(Before, Name), IB = Index(After, Name);
    // Texts are kept once each: the same text is the same index.
    if (IA == IB)
      continue;
    const Parsed *PA = IA ? &parsed(*IA) : nullptr;
    const Parsed *PB = IB ? &parsed(*IB) : nullptr;
    if ((PA && !PA->IsObject) || (PB && !PB->IsObject)) {
      Out.push_back({Name, "", IA ? M.ConfigTexts[*IA] : "",
                     IB ? M.ConfigTexts[*IB] : ""});
      continue;
    }
    // Both in name order: one merge.
    static const std::vector<std::pair<std::string, std::string>> None_;
    const auto &MA = PA ? PA->Members : None_;
    const auto &MB = PB ? PB->Members : None_;
    std::vector<ConfigChange> OnlyBefore;
    size_t I = 0, J = 0;
    while (I < MA.size() || J < MB.size()) {
      if (J == MB.size() || (I < MA.size() && MA[I].first < MB[J].first)) {
        OnlyBefore.push_back({Name, MA[I].first, MA[I].second, ""});
        ++I;
      } else if (I == MA.size() || MB[J].first < MA[I].first) {
        Out.push_back({Name, MB[J].first, "", MB[J].second});
        ++J;
      } else {
        if (MA[I].second != MB[J].second) {
          Out.push_back({Name, MB[J].first, MA[I].second, MB[J].second});
          Out.back().Reordered =
              sameItemsReordered(MA[I].second, MB[J].second);
        }
        ++I, ++J;
      }
    }
    Out.insert(Out.end(), OnlyBefore.begin(), OnlyBefore.end());
  }
  return Out;
}

std::vector<ConfigChange>
ConfigComparer::changesFromPrevious(size_t Index, const CompileRecord *&Prev) {
  Prev = nullptr;
  if (Index >= M.Compiles.size() || M.Compiles[Index].Configs.empty())
    return {};
  Prev = previousInLog(Index);
  if (!Prev)
    return {};
  return changes(*Prev, M.Compiles[Index]);
}

std::vector<ConfigDump> groupConfigs(const Module &M,
                                     const std::vector<size_t> &Order) {
  std::vector<ConfigDump> Out;
  std::map<std::pair<std::string, uint32_t>, size_t> Index;
  for (size_t I : Order)
    for (const auto &C : M.Compiles[I].Configs) {
      auto [It, New] = Index.try_emplace(C, Out.size());
      if (New)
        Out.push_back({C.first, C.second, {}});
      Out[It->second].Records.push_back(I);
    }
  return Out;
}

const CompileRecord *ConfigComparer::previousInLog(size_t Index) {
  std::call_once(LogOrderOnce, [&] {
    std::vector<size_t> Order;
    for (size_t I = 0; I < M.Compiles.size(); ++I)
      if (!M.Compiles[I].Configs.empty())
        Order.push_back(I);
    llvm::stable_sort(Order, [&](size_t A, size_t B) {
      const CompileRecord &X = M.Compiles[A], &Y = M.Compiles[B];
      auto At = [](const CompileRecord &R) {
        return R.ConfigLine ? R.ConfigLine : R.Line;
      };
      return std::make_pair(X.Log, At(X)) < std::make_pair(Y.Log, At(Y));
    });
    PrevInLog.assign(M.Compiles.size(), SIZE_MAX);
    for (size_t J = 1; J < Order.size(); ++J)
      if (M.Compiles[Order[J]].Log == M.Compiles[Order[J - 1]].Log)
        PrevInLog[Order[J]] = Order[J - 1];
  });
  if (Index < PrevInLog.size() && PrevInLog[Index] != SIZE_MAX)
    return &M.Compiles[PrevInLog[Index]];
  return previousWithConfigs(M, Index);
}

const CompileRecord *previousWithConfigs(const Module &M, size_t Index) {
  for (size_t I = Index; I-- > 0;)
    if (!M.Compiles[I].Configs.empty())
      return &M.Compiles[I];
  return nullptr;
}

std::string configLines(StringRef Text) {
  std::vector<std::pair<std::string, std::string>> MS;
  if (!members(Text, MS))
    return Text.str();
  std::string Out;
  for (const auto &KV : MS)
    Out += KV.first + ": " + KV.second + "\n";
  return Out;
}

} // namespace tlp
