//===- ToolDriver.cpp - What tlp-opt and tlp-emit share -------------------===//

#include "ToolDriver.h"

#include "tlp/IR/Verifier.h"
#include "tlp/Passes/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"

#include <future>

using namespace llvm;

namespace tlp {

UnitSink::~UnitSink() = default;

bool verifyEachFromEnvironment() {
  Optional<std::string> V = sys::Process::GetEnv("TLP_VERIFY_EACH");
  return V && *V != "0" && !V->empty();
}

ToolDriver::ToolDriver(StringRef ToolName)
    : ToolName(ToolName.str()), Color(sys::Process::StandardErrHasColors()) {}

void ToolDriver::flush() { Diags.printNew(errs(), ToolName, Color); }

int ToolDriver::fail(const Twine &Message) {
  flush();
  WithColor::error(errs(), ToolName) << Message << "\n";
  return 1;
}

std::unique_ptr<Module> ToolDriver::load(const DriverOptions &Opts,
                                         bool &IsIR) {
  ReadOptions RO;
  RO.Threads = Opts.Threads;
  RO.Lazy = Opts.Stream;
  Expected<std::unique_ptr<Module>> M =
      loadInput(Opts.Input, Sources, Diags, IsIR, RO);
  if (!M) {
    fail(toString(M.takeError()));
    return nullptr;
  }
  if (IsIR) {
    // Diagnostics in the IR were printed by the tool that wrote it.
    flush();
    for (Diagnostic &D : (*M)->Diagnostics)
      Diags.add(std::move(D));
    (*M)->Diagnostics.clear();
    Diags.markPrinted();
  }
  if (Opts.Verify && (IsIR || Opts.VerifyEach || verifyEachFromEnvironment()))
    if (Error E = verifyModule(**M)) {
      fail(Twine(IsIR ? "input IR is invalid:\n"
                      : "IR is invalid after reading the input:\n") +
           toString(std::move(E)));
      return nullptr;
    }
  flush();
  return std::move(*M);
}

/// Diagnostics in a canonical order: by log (in Module::Logs order; others
/// first), then line, then report order; exact repeats dropped. The same
/// run gives the same list whether it streamed or not, on any thread count.
static std::vector<Diagnostic> canonical(std::vector<Diagnostic> Ds,
                                         const Module &M) {
  auto Rank = [&](const Diagnostic &D) -> int64_t {
    for (uint32_t I = 0; I < M.Logs.size(); ++I)
      if (D.File == M.logName(I))
        return I;
    return -1;
  };
  std::vector<std::pair<std::pair<int64_t, uint32_t>, size_t>> Keys;
  for (size_t I = 0; I < Ds.size(); ++I)
    Keys.push_back({{Rank(Ds[I]), Ds[I].Line}, I});
  llvm::stable_sort(
      Keys, [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<Diagnostic> Out;
  for (auto &K : Keys) {
    const Diagnostic &D = Ds[K.second];
    bool Dup = llvm::any_of(Out, [&](const Diagnostic &O) { return O == D; });
    if (!Dup)
      Out.push_back(D);
  }
  return Out;
}

void ToolDriver::attachDiagnostics(Module &M) {
  M.Diagnostics = canonical(Diags.diagnostics(), M);
}

bool ToolDriver::process(Module &M, const DriverOptions &Opts, UnitSink &Sink,
                         function_ref<bool()> Gate) {
  Expected<PassPipeline> P = buildPipeline(Opts.Passes);
  if (!P) {
    fail(toString(P.takeError()));
    return false;
  }
  bool VerifyEach = Opts.VerifyEach || verifyEachFromEnvironment();
  PassContext Ctx(Diags);
  Ctx.VerifyEach = VerifyEach;
  Ctx.Threads = Opts.Threads;
  size_t ModulePasses = 0;
  bool Streams = Opts.Stream && P->splitForUnits(ModulePasses) &&
                 ModulePasses > 0 && ModulePasses < P->size();

  if (!Streams) {
    loadModule(M, Sources, Diags, Opts.Threads);
    flush();
    if (Error E = P->run(M, Ctx)) {
      fail(toString(std::move(E)));
      return false;
    }
    if (Opts.Verify && !VerifyEach)
      if (Error E = verifyModule(M)) {
        fail("IR is invalid after the pipeline:\n" + toString(std::move(E)));
        return false;
      }
    flush();
    attachDiagnostics(M);
    if (Gate && !Gate())
      return false;
    Error E = Sink.begin(M);
    for (const std::unique_ptr<CompileUnit> &U : M.Units)
      if (!E)
        E = Sink.unit(M, *U);
    if (!E)
      E = Sink.end(M);
    if (E) {
      fail(toString(std::move(E)));
      return false;
    }
    return true;
  }

  // Module passes on the unloaded module (grouping needs no payloads).
  if (Error E = P->runRange(M, Ctx, 0, ModulePasses)) {
    fail(toString(std::move(E)));
    return false;
  }
  loadModule(M, Sources, Diags, Opts.Threads); // ungrouped leftovers, if any
  flush();
  if (Error E = Sink.begin(M)) {
    fail(toString(std::move(E)));
    return false;
  }

  std::vector<std::unique_ptr<CompileUnit>> Units = std::move(M.Units);
  M.Units.clear();
  size_t N = Units.size();
  std::vector<std::unique_ptr<DiagnosticEngine>> Local(N);
  std::vector<std::string> Failure(N);
  auto Work = [&](size_t I) {
    Local[I] = std::make_unique<DiagnosticEngine>();
    CompileUnit &U = *Units[I];
    loadUnit(U, M, Sources, *Local[I]);
    if (Error E = P->runOnUnit(M, U, *Local[I], ModulePasses, VerifyEach)) {
      Failure[I] = toString(std::move(E));
      return;
    }
    if (Opts.Verify && !VerifyEach)
      if (Error E = verifyUnit(M, U))
        Failure[I] =
            "IR is invalid after the pipeline:\n" + toString(std::move(E));
  };
  unsigned Threads = Opts.Threads
                         ? Opts.Threads
                         : llvm::hardware_concurrency().compute_thread_count();
  // A bounded window of units in flight, delivered in order.
  size_t Window = std::max<size_t>(2, Threads * 2);
  std::unique_ptr<ThreadPool> Pool;
  if (Threads > 1)
    Pool = std::make_unique<ThreadPool>(llvm::hardware_concurrency(Threads));
  std::vector<std::shared_future<void>> Done(N);
  size_t Next = 0;
  auto Submit = [&]() {
    if (Next >= N)
      return;
    size_t I = Next++;
    if (Pool)
      Done[I] = Pool->async([&Work, I] { Work(I); });
  };
  for (size_t I = 0; I < Window; ++I)
    Submit();
  bool OK = true;
  for (size_t I = 0; I < N; ++I) {
    if (Pool)
      Done[I].wait();
    else
      Work(I);
    Submit();
    if (OK) {
      Diags.append(*Local[I]);
      flush();
      if (!Failure[I].empty()) {
        fail(Failure[I]);
        OK = false;
      } else if (Error E = Sink.unit(M, *Units[I])) {
        fail(toString(std::move(E)));
        OK = false;
      }
    }
    Units[I].reset();
    Local[I].reset();
  }
  if (Pool)
    Pool->wait();
  if (!OK)
    return false;
  attachDiagnostics(M);
  if (Gate && !Gate())
    return false;
  if (Error E = Sink.end(M)) {
    fail(toString(std::move(E)));
    return false;
  }
  return true;
}

bool ToolDriver::failsStrict(bool Strict) const {
  return Diags.numErrors() || (Strict && Diags.numWarnings());
}

int ToolDriver::finish(bool Strict) {
  flush();
  if (Diags.numErrors())
    return 1;
  if (Strict && Diags.numWarnings()) {
    if (!StrictReported)
      WithColor::error(errs(), ToolName)
          << Diags.numWarnings() << " warning"
          << (Diags.numWarnings() == 1 ? "" : "s") << " with --strict\n";
    StrictReported = true;
    return 1;
  }
  return 0;
}

} // namespace tlp
