//===- Configs.cpp - The configuration of each compile, and changes -------===//

#include "tlp/Analysis/Configs.h"
#include "tlp/IR/Module.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tlp {

namespace {

/// The members of a JSON object text in order, values as compact JSON;
/// false when \p Text is not a JSON object.
bool members(StringRef Text,
             std::vector<std::pair<std::string, std::string>> &Out) {
  Expected<json::Value> V = json::parse(Text);
  if (!V) {
    consumeError(V.takeError());
    return false;
  }
  const json::Object *O = V->getAsObject();
  if (!O)
    return false;
  // llvm::json::Object does not keep the order: find it in the text, by
  // the order the keys were written (they are sorted in PyTorch's dumps,
  // and json::Object iterates in hash order).
  std::vector<std::pair<std::string, std::string>> All;
  for (const auto &KV : *O) {
    std::string S;
    raw_string_ostream OS(S);
    OS << KV.second;
    All.emplace_back(KV.first.str(), OS.str());
  }
  llvm::sort(All, [](const auto &A, const auto &B) { return A.first < B.first; });
  Out = std::move(All);
  return true;
}

} // namespace

std::vector<ConfigChange> configChanges(const Module &M,
                                        const CompileRecord &Before,
                                        const CompileRecord &After) {
  std::vector<ConfigChange> Out;
  auto Text = [&](const CompileRecord &R, StringRef Name) -> const std::string * {
    for (const auto &C : R.Configs)
      if (C.first == Name && C.second < M.ConfigTexts.size())
        return &M.ConfigTexts[C.second];
    return nullptr;
  };
  std::vector<std::string> Names;
  for (const auto &C : After.Configs)
    Names.push_back(C.first);
  for (const auto &C : Before.Configs)
    if (!is_contained(Names, C.first))
      Names.push_back(C.first);
  for (const std::string &Name : Names) {
    const std::string *A = Text(Before, Name), *B = Text(After, Name);
    // Texts are kept once each: the same text is the same string.
    if (A == B)
      continue;
    std::vector<std::pair<std::string, std::string>> MA, MB;
    bool OA = A && members(*A, MA), OB = B && members(*B, MB);
    if ((A && !OA) || (B && !OB)) {
      Out.push_back({Name, "", A ? *A : "", B ? *B : ""});
      continue;
    }
    StringMap<const std::string *> InA;
    for (const auto &KV : MA)
      InA[KV.first] = &KV.second;
    StringMap<bool> Seen;
    for (const auto &KV : MB) {
      Seen[KV.first] = true;
      auto It = InA.find(KV.first);
      if (It == InA.end())
        Out.push_back({Name, KV.first, "", KV.second});
      else if (*It->second != KV.second)
        Out.push_back({Name, KV.first, *It->second, KV.second});
    }
    for (const auto &KV : MA)
      if (!Seen.count(KV.first))
        Out.push_back({Name, KV.first, KV.second, ""});
  }
  return Out;
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
