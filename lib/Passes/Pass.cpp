//===- Pass.cpp - Pass registry and pipelines -----------------------------===//

#include "tlp/Passes/Pass.h"
#include "tlp/IR/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"
#include "tlp/Support/Parallel.h"
#include "llvm/Support/Threading.h"

#include <set>

using namespace llvm;

namespace tlp {

Pass::~Pass() = default;

static const PassInfo Registry[] = {
#define TLP_PASS(NAME, CREATE, REQUIRES, DESCRIPTION)                          \
  {NAME, REQUIRES, DESCRIPTION, &CREATE},
#include "tlp/Passes/Passes.def"
};

ArrayRef<PassInfo> getRegisteredPasses() { return Registry; }

const PassInfo *lookupPass(StringRef Name) {
  for (const PassInfo &P : Registry)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

std::vector<std::string> PassPipeline::names() const {
  std::vector<std::string> R;
  for (const auto &P : Passes)
    R.push_back(P->getName().str());
  return R;
}

Error PassPipeline::run(Module &M, PassContext &Ctx) {
  return runRange(M, Ctx, 0, Passes.size());
}

Error PassPipeline::runRange(Module &M, PassContext &Ctx, size_t Begin,
                             size_t End) {
  const VerifyPolicy &Policy = Ctx.Verify;
  auto Verify = [&](const Twine &What) -> Error {
    if (Error E = verifyModule(M))
      return createStringError(inconvertibleErrorCode(), "%s:\n%s",
                               What.str().c_str(),
                               toString(std::move(E)).c_str());
    return Error::success();
  };
  if (Policy.Input)
    if (Error E = Verify(Policy.InputWhat))
      return E;
  End = std::min(End, Passes.size());
  for (size_t I = Begin; I < End;) {
    if (Passes[I]->isUnitPass()) {
      // A stretch of unit passes: one nested pipeline over the units.
      std::vector<UnitPass *> Stretch;
      for (; I < End && Passes[I]->isUnitPass(); ++I)
        Stretch.push_back(cast<UnitPass>(Passes[I].get()));
      VerifyPolicy Nested;
      Nested.EachPass = Policy.EachPass;
      if (Error E = UnitPipeline(std::move(Stretch), std::move(Nested))
                        .runOnModule(M, Ctx.Threads, Ctx.Diags))
        return E;
      continue;
    }
    const auto &P = Passes[I++];
    if (Error E = P->run(M, Ctx))
      return E;
    if (Policy.EachPass)
      if (Error E = Verify("IR is invalid after pass '" + P->getName() + "'"))
        return E;
  }
  if (Policy.End && !Policy.EachPass && Begin < End)
    if (Error E = Verify("IR is invalid after the pipeline"))
      return E;
  return Error::success();
}

bool PassPipeline::needsPayloads(size_t Begin, size_t End) const {
  for (size_t I = Begin; I < End && I < Passes.size(); ++I)
    if (Passes[I]->needsPayloads())
      return true;
  return false;
}

bool PassPipeline::splitForUnits(size_t &ModulePasses) const {
  size_t I = 0;
  while (I < Passes.size() && !Passes[I]->isUnitPass())
    ++I;
  ModulePasses = I;
  for (; I < Passes.size(); ++I)
    if (!Passes[I]->isUnitPass())
      return false;
  return true;
}

UnitPipeline PassPipeline::unitPipeline(size_t Begin,
                                        VerifyPolicy Policy) const {
  std::vector<UnitPass *> Units;
  for (size_t I = Begin; I < Passes.size(); ++I)
    Units.push_back(cast<UnitPass>(Passes[I].get()));
  return UnitPipeline(std::move(Units), std::move(Policy));
}

Error UnitPipeline::run(const Module &M, CompileUnit &U,
                        DiagnosticEngine &Diags) const {
  if (Policy.Input)
    if (Error E = verifyUnit(M, U))
      return createStringError(inconvertibleErrorCode(), "%s:\n%s",
                               Policy.InputWhat.c_str(),
                               toString(std::move(E)).c_str());
  for (UnitPass *P : Passes) {
    P->runOnUnit(M, U, Diags);
    if (Policy.EachPass)
      if (Error E = verifyUnit(M, U))
        return createStringError(
            inconvertibleErrorCode(), "IR is invalid after pass '%s':\n%s",
            P->getName().str().c_str(), toString(std::move(E)).c_str());
  }
  if (Policy.End && !Policy.EachPass && !Passes.empty())
    if (Error E = verifyUnit(M, U))
      return createStringError(inconvertibleErrorCode(),
                               "IR is invalid after the pipeline:\n%s",
                               toString(std::move(E)).c_str());
  return Error::success();
}

namespace {
struct UnitWork : WindowItem {
  CompileUnit *U = nullptr;
  DiagnosticEngine Diags;
  std::string Failure;
};
} // namespace

Error UnitPipeline::runOnModule(Module &M, unsigned Threads,
                                DiagnosticEngine &Diags) const {
  size_t Next = 0;
  std::string Failure;
  runOrderedWindow<UnitWork>(
      Threads, 0,
      [&]() -> std::unique_ptr<UnitWork> {
        if (Next == M.Units.size())
          return nullptr;
        auto W = std::make_unique<UnitWork>();
        W->U = M.Units[Next++].get();
        return W;
      },
      [&](UnitWork &W) {
        if (Error E = run(M, *W.U, W.Diags))
          W.Failure = toString(std::move(E));
      },
      [&](UnitWork &W) {
        Diags.append(W.Diags);
        Failure = std::move(W.Failure);
        return Failure.empty();
      });
  if (!Failure.empty())
    return createStringError(inconvertibleErrorCode(), "%s", Failure.c_str());
  return Error::success();
}

Error UnitPass::run(Module &M, PassContext &Ctx) {
  VerifyPolicy Policy;
  Policy.EachPass = Ctx.Verify.EachPass;
  return UnitPipeline({this}, std::move(Policy))
      .runOnModule(M, Ctx.Threads, Ctx.Diags);
}

static Error schedule(StringRef Name, std::vector<std::string> &Order,
                      std::set<std::string> &Done,
                      std::set<std::string> &Visiting) {
  if (Done.count(Name.str()))
    return Error::success();
  const PassInfo *Info = lookupPass(Name);
  if (!Info)
    return createStringError(std::errc::invalid_argument, "unknown pass '%s'",
                             Name.str().c_str());
  if (!Visiting.insert(Name.str()).second)
    return createStringError(std::errc::invalid_argument,
                             "pass '%s' requires itself", Name.str().c_str());
  SmallVector<StringRef, 4> Reqs;
  Info->Requires.split(Reqs, ',', -1, /*KeepEmpty=*/false);
  for (StringRef R : Reqs)
    if (Error E = schedule(R.trim(), Order, Done, Visiting))
      return E;
  Visiting.erase(Name.str());
  Order.push_back(Name.str());
  Done.insert(Name.str());
  return Error::success();
}

Expected<PassPipeline> buildPipeline(ArrayRef<std::string> Names) {
  std::vector<std::string> Order;
  std::set<std::string> Done;
  for (const std::string &N : Names) {
    // A pass named explicitly runs again even if it already ran.
    if (Done.count(N)) {
      Order.push_back(N);
      continue;
    }
    std::set<std::string> Visiting;
    if (Error E = schedule(N, Order, Done, Visiting))
      return E;
  }
  PassPipeline P;
  for (const std::string &N : Order)
    P.Passes.push_back(lookupPass(N)->Create());
  return P;
}

Expected<std::vector<std::string>> parsePipelineText(StringRef Text) {
  std::vector<std::string> Names;
  if (Text.trim().empty())
    return Names;
  SmallVector<StringRef, 8> Parts;
  Text.split(Parts, ',');
  for (StringRef P : Parts) {
    P = P.trim();
    if (P.empty())
      return createStringError(std::errc::invalid_argument,
                               "empty pass name in pipeline '%s'",
                               Text.str().c_str());
    if (!lookupPass(P))
      return createStringError(std::errc::invalid_argument,
                               "unknown pass '%s' in pipeline '%s'",
                               P.str().c_str(), Text.str().c_str());
    Names.push_back(P.str());
  }
  return Names;
}

std::vector<std::string> defaultPipeline() {
  return {"link-provenance", "link-scheduler-ir"};
}

} // namespace tlp
