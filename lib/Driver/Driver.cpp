//===- Driver.cpp - Load, run the pipeline, emit --------------------------===//

#include "tlp/Driver/Driver.h"

#include "tlp/Driver/Input.h"
#include "tlp/Driver/UnitSource.h"

#include "tlp/Passes/Pass.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Memory.h"
#include "tlp/Support/Parallel.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"

#include <deque>
#include <unordered_set>
#include <future>

using namespace llvm;

namespace tlp {

Error checkOutputAgainstInputs(const Module &M, StringRef Input,
                               StringRef Output) {
  std::vector<std::string> Inputs{Input.str()};
  for (uint32_t I = 0; I < M.Logs.size(); ++I)
    Inputs.push_back(M.Logs[I].Path);
  return checkOutputIsNotInput(Output, Inputs, sys::fs::is_directory(Output));
}

Driver::Driver(StringRef ToolName)
    : ToolName(ToolName.str()), Color(sys::Process::StandardErrHasColors()) {}

void Driver::flush() { Diags.printNew(errs(), ToolName, Color); }

int Driver::fail(const Twine &Message) {
  flush();
  // An error can quote the log (a name, a key): printed as printable()
  // makes it, as diagnostics are.
  WithColor::error(errs(), ToolName) << printable(Message.str()) << "\n";
  return 1;
}

void Driver::adoptInputDiagnostics(std::vector<Diagnostic> Ds) {
  flush();
  InputDiagsBegin = Diags.size();
  for (Diagnostic &D : Ds)
    Diags.add(std::move(D));
  InputDiagsEnd = Diags.size();
  Diags.markPrinted();
}

std::unique_ptr<Module> Driver::load(const DriverOptions &Opts, bool &IsIR) {
  ReadOptions RO;
  RO.Threads = Opts.Threads;
  if (Opts.ChunkBytes)
    RO.ChunkBytes = Opts.ChunkBytes;
  RO.Lazy = Opts.Stream;
  RO.Md5 = Opts.Md5;
  Expected<OpenedInput> In =
      openInput(Opts.Input, Sources, Diags, RO, /*StreamIR=*/Opts.Stream);
  if (!In) {
    fail(toString(In.takeError()));
    return nullptr;
  }
  IsIR = InputIsIR = In->isIR();
  std::unique_ptr<Module> M = std::move(In->M);
  // The scan's chunks are freed: their pages go back before the units are
  // read (else the run keeps the scan's peak to its end).
  returnFreedMemory();
  IRStream = std::move(In->IRStream);
  if (IsIR && !IRStream) {
    adoptInputDiagnostics(std::move(M->Diagnostics));
    M->Diagnostics.clear();
  }
  flush();
  return M;
}

bool Driver::readRestOfIR(Module &M) {
  bool IsUnit = false;
  std::unique_ptr<UnitSource> Src = createIRUnitSource(
      M, std::move(IRStream), /*Verify=*/false, Diags,
      [this](std::vector<Diagnostic> Ds) {
        adoptInputDiagnostics(std::move(Ds));
      });
  while (std::unique_ptr<UnitInFlight> W = Src->next()) {
    Src->materialize(*W);
    Diags.append(W->Diags);
    Error E = W->Failure.empty() ? Src->check(*W)
                                 : createStringError(inconvertibleErrorCode(),
                                                     "%s", W->Failure.c_str());
    if (!E)
      E = Src->accept(*W, IsUnit);
    if (E) {
      fail(toString(std::move(E)));
      return false;
    }
    if (IsUnit)
      M.Units.push_back(std::move(W->U));
  }
  if (Error E = Src->finish()) {
    fail(toString(std::move(E)));
    return false;
  }
  flush();
  return true;
}

/// Diagnostics in a canonical order: by log (in Module::Logs order; others
/// first), then line, then report order; exact repeats dropped. The same
/// run gives the same list whether it streamed or not, on any thread count.
static std::vector<Diagnostic> canonical(std::vector<Diagnostic> Ds,
                                         const Module &M) {
  // Linear: a map from log name to rank, and a hash set for repeats (a run
  // with 100,000 warnings took minutes with a scan per diagnostic).
  StringMap<int64_t> LogRank;
  for (uint32_t I = 0; I < M.Logs.size(); ++I)
    LogRank.try_emplace(M.logName(I), I);
  auto Rank = [&](const Diagnostic &D) -> int64_t {
    auto It = LogRank.find(D.File);
    return It == LogRank.end() ? -1 : It->second;
  };
  std::vector<std::pair<std::pair<int64_t, uint32_t>, size_t>> Keys;
  Keys.reserve(Ds.size());
  for (size_t I = 0; I < Ds.size(); ++I)
    Keys.push_back({{Rank(Ds[I]), Ds[I].Line}, I});
  llvm::stable_sort(
      Keys, [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<Diagnostic> Out;
  Out.reserve(Ds.size());
  std::unordered_set<std::string> Seen;
  for (auto &K : Keys) {
    Diagnostic &D = Ds[K.second];
    std::string Id;
    raw_string_ostream OS(Id);
    OS << static_cast<int>(D.Sev) << '\0' << D.File << '\0' << D.Line << '\0'
       << D.Message << '\0' << D.Excerpt;
    if (Seen.insert(std::move(OS.str())).second)
      Out.push_back(std::move(D));
  }
  return Out;
}

void Driver::attachDiagnostics(Module &M) {
  std::vector<Diagnostic> Ds = Diags.diagnostics();
  // Those that came with IR input go first (when streaming they arrive
  // last), so that ties in the canonical order break the same way.
  std::rotate(Ds.begin(), Ds.begin() + InputDiagsBegin,
              Ds.begin() + InputDiagsEnd);
  M.Diagnostics = canonical(std::move(Ds), M);
}

int Driver::run(const DriverOptions &Opts, EmitterFactory Make) {
  bool IsIR = false;
  std::unique_ptr<Module> M = load(Opts, IsIR);
  if (!M)
    return 1;
  if (!Opts.Output.empty())
    if (Error E = checkOutputAgainstInputs(*M, Opts.Input, Opts.Output))
      return fail(toString(std::move(E)));
  std::vector<std::string> Passes;
  if (Opts.Passes) {
    Passes = *Opts.Passes;
  } else if (Opts.PassesText) {
    Expected<std::vector<std::string>> Names =
        parsePipelineText(*Opts.PassesText);
    if (!Names)
      return fail(toString(Names.takeError()));
    Passes = std::move(*Names);
  } else if (!IsIR) {
    Passes = Opts.DefaultPassesForLogs;
  }
  std::unique_ptr<Emitter> E = Make(Diags);
  if (!process(*M, Opts, Passes, *E)) {
    finish(Opts.Strict);
    return 1;
  }
  return finish(Opts.Strict);
}

bool Driver::process(Module &M, const DriverOptions &Opts,
                     ArrayRef<std::string> Passes, Emitter &E) {
  if (processUnchecked(M, Opts, Passes, E))
    return true;
  E.abort();
  return false;
}

bool Driver::processUnchecked(Module &M, const DriverOptions &Opts,
                              ArrayRef<std::string> Passes, Emitter &Em) {
  Expected<PassPipeline> P = buildPipeline(Passes);
  if (!P) {
    fail(toString(P.takeError()));
    return false;
  }
  bool VerifyEach = Opts.Verify && Opts.VerifyEach;
  PassContext Ctx(Diags);
  Ctx.Threads = Opts.Threads;
  // The module part verifies the module: IR input as read (with its units
  // when they are read before the passes; its header when they stream),
  // a log as read under --verify-each, and after the module passes.
  Ctx.Verify.Input = Opts.Verify && (InputIsIR || VerifyEach);
  if (!InputIsIR)
    Ctx.Verify.InputWhat = "IR is invalid after reading the input";
  Ctx.Verify.EachPass = VerifyEach;
  // The pipeline as module passes then unit passes (a pipeline with a
  // module pass after a unit pass is all "module part": its stretches of
  // unit passes run as nested pipelines over the whole module).
  size_t ModulePasses = 0;
  if (!P->splitForUnits(ModulePasses))
    ModulePasses = P->size();
  bool FromIR = IRStream != nullptr;
  // Units come one by one, read as they are needed, when the module part
  // needs no unit: nothing (IR), or passes that read no payloads (logs).
  bool OneByOne = Opts.Stream && (FromIR ? ModulePasses == 0
                                         : ModulePasses > 0 &&
                                               !P->needsPayloads(0, ModulePasses));

  std::unique_ptr<UnitSource> Src;
  if (OneByOne && FromIR) {
    // The header, as read; each unit is verified as it arrives.
    if (Error E = P->runRange(M, Ctx, 0, 0)) {
      fail(toString(std::move(E)));
      return false;
    }
    Src = createIRUnitSource(M, std::move(IRStream), Opts.Verify, Diags,
                             [this](std::vector<Diagnostic> Ds) {
                               adoptInputDiagnostics(std::move(Ds));
                             });
  } else if (OneByOne) {
    // Module passes on the unloaded module (grouping needs no payloads).
    if (Error E = P->runRange(M, Ctx, 0, ModulePasses)) {
      fail(toString(std::move(E)));
      return false;
    }
    if (Em.traits().NeedsUnits) {
      // Ungrouped leftovers only: units are loaded one by one.
      loadModule(M, Sources, Diags, Opts.Threads, /*WithUnits=*/false);
      Src = createLogUnitSource(M, Sources);
    } else {
      // The emitter reads no unit (the Chrome trace): none is loaded.
      M.Units.clear();
      Src = createMemoryUnitSource(M);
    }
  } else {
    if (FromIR) {
      if (!readRestOfIR(M))
        return false;
    } else {
      loadModule(M, Sources, Diags, Opts.Threads);
    }
    flush();
    // Units in memory: the module is verified after the module passes
    // (streamed units are verified by the unit pipeline instead).
    Ctx.Verify.End = Opts.Verify;
    if (Error E = P->runRange(M, Ctx, 0, ModulePasses)) {
      fail(toString(std::move(E)));
      return false;
    }
    Src = createMemoryUnitSource(M);
  }
  flush();

  // The rest runs on each unit: the one unit pipeline.
  VerifyPolicy Policy;
  Policy.Input = Opts.Verify && OneByOne && FromIR;
  Policy.EachPass = VerifyEach;
  Policy.End = Opts.Verify;
  UnitPipeline UnitPasses = P->unitPipeline(ModulePasses, std::move(Policy));
  return runUnits(M, *Src, UnitPasses, Opts, Em);
}

bool Driver::runUnits(Module &M, UnitSource &Src, const UnitPipeline &UnitPasses,
                      const DriverOptions &Opts, Emitter &Em) {
  // The output: opened here, kept only if the whole run succeeds (under
  // --strict, stdout is held so that a failing run prints nothing).
  Expected<std::unique_ptr<EmitTarget>> Target =
      EmitTarget::open(Em.traits(), Em.options(), /*HoldStdout=*/Opts.Strict);
  if (!Target) {
    fail(toString(Target.takeError()));
    return false;
  }
  Em.setTarget(Target->get());
  // The texts of the events shown raw come from the logs' bytes (an IR
  // input carries them).
  std::unique_ptr<RawEventReader> Raw =
      InputIsIR ? createLogFileRawReader(M) : createRawEventReader(Sources);
  Em.setRawReader(Raw.get());
  bool OK = emitUnits(M, Src, UnitPasses, Opts, Em, **Target);
  Em.setRawReader(nullptr);
  if (!OK)
    Em.abort();
  // Dropped unless committed.
  Em.setTarget(nullptr);
  return OK;
}

bool Driver::emitUnits(Module &M, UnitSource &Src,
                       const UnitPipeline &UnitPasses,
                       const DriverOptions &Opts, Emitter &Em,
                       EmitTarget &Target) {
  // The module-wide facts every emitter reads (ids, units of each
  // compile, rank digests, the --unit selection), gathered once.
  ModuleFactsBuilder Facts(Em.traits());
  Em.setFacts(&Facts.facts());
  if (Error E = Em.begin(M)) {
    fail(toString(std::move(E)));
    return false;
  }
  bool OK = true;
  runOrderedWindow<UnitInFlight>(
      Opts.Threads, 0, [&] { return Src.next(); },
      // On a worker: read the unit, run the unit passes, verify, prepare
      // the output.
      [&](UnitInFlight &W) {
        Src.materialize(W);
        if (!W.Failure.empty() || !W.U)
          return;
        if (Error E = UnitPasses.run(M, *W.U, W.Diags)) {
          W.Failure = toString(std::move(E));
          return;
        }
        W.Digest = Facts.digest(M, *W.U);
        W.Prepared = Em.prepareUnit(M, *W.U);
      },
      // On this thread, in order: report, then emit.
      [&](UnitInFlight &W) {
        if (Error E = Src.check(W)) {
          fail(toString(std::move(E)));
          return OK = false;
        }
        Diags.append(W.Diags);
        flush();
        if (!W.Failure.empty()) {
          fail(W.Failure);
          return OK = false;
        }
        bool IsUnit = false;
        if (Error E = Src.accept(W, IsUnit)) {
          fail(toString(std::move(E)));
          return OK = false;
        }
        if (!IsUnit)
          return true;
        Facts.add(M, *W.U, std::move(W.Digest));
        if (Error E = Em.preparedUnit(M, *W.U, std::move(W.Prepared))) {
          fail(toString(std::move(E)));
          return OK = false;
        }
        Src.emitted(std::move(W.U));
        return true;
      });
  if (!OK)
    return false;
  if (Error E = Src.finish()) {
    fail(toString(std::move(E)));
    return false;
  }
  flush();
  // The units are freed as written: what is left for the end of the run
  // is the module's records.
  returnFreedMemory();
  attachDiagnostics(M);
  if (failsStrict(Opts.Strict))
    return false;
  if (Error E = Facts.finish()) {
    fail(toString(std::move(E)));
    return false;
  }
  if (Error E = Em.end(M)) {
    fail(toString(std::move(E)));
    return false;
  }
  if (Error E = Target.commit()) {
    fail(toString(std::move(E)));
    return false;
  }
  return true;
}

bool Driver::failsStrict(bool Strict) const {
  return Diags.numErrors() || (Strict && Diags.numWarnings());
}

int Driver::finish(bool Strict) {
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
