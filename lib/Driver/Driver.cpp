//===- Driver.cpp - Load, run the pipeline, emit --------------------------===//

#include "tlp/Driver/Driver.h"

#include "tlp/IR/Verifier.h"
#include "tlp/Passes/Pass.h"
#include "tlp/Support/FileUtilities.h"
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

bool verifyEachFromEnvironment() {
  Optional<std::string> V = sys::Process::GetEnv("TLP_VERIFY_EACH");
  return V && *V != "0" && !V->empty();
}

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

bool Driver::verifyIRInput(const Module &M) {
  if (Error E = verifyModule(M)) {
    fail("input IR is invalid:\n" + toString(std::move(E)));
    return false;
  }
  return true;
}

std::unique_ptr<Module> Driver::load(const DriverOptions &Opts,
                                         bool &IsIR) {
  ReadOptions RO;
  RO.Threads = Opts.Threads;
  RO.Lazy = Opts.Stream;
  RO.Md5 = Opts.Md5;
  Expected<std::unique_ptr<Module>> M = loadInput(
      Opts.Input, Sources, Diags, IsIR, RO, Opts.Stream ? &IRStream : nullptr);
  if (!M) {
    fail(toString(M.takeError()));
    return nullptr;
  }
  if (IsIR && !IRStream) {
    adoptInputDiagnostics(std::move((*M)->Diagnostics));
    (*M)->Diagnostics.clear();
  }
  // With IR streaming in, this checks the header; units are checked as
  // they arrive.
  if (Opts.Verify && IsIR && !verifyIRInput(**M))
    return nullptr;
  if (Opts.Verify && !IsIR && (Opts.VerifyEach || verifyEachFromEnvironment()))
    if (Error E = verifyModule(**M)) {
      fail("IR is invalid after reading the input:\n" + toString(std::move(E)));
      return nullptr;
    }
  flush();
  return std::move(*M);
}

bool Driver::readRestOfIR(Module &M) {
  std::unique_ptr<IRDocumentReader> R = std::move(IRStream);
  bool SeenDiags = false;
  Optional<IREndCounts> End;
  unsigned EndLine = 0;
  IREndCounts Read;
  Read.Compiles = M.Compiles.size();
  IRDocumentText T;
  while (true) {
    Expected<bool> More = R->next(T);
    if (!More) {
      fail(toString(More.takeError()));
      return false;
    }
    if (!*More)
      break;
    Expected<ParsedIRDocument> D = parseIRDocument(T, R->name(), M, Diags);
    if (D && (D->Kind == IRDocumentKind::Header ||
              D->Kind == IRDocumentKind::Compile || End ||
              (SeenDiags && D->Kind != IRDocumentKind::End)))
      D = outOfOrder(T, R->count(), R->name(), Diags);
    if (!D) {
      fail(toString(D.takeError()));
      return false;
    }
    if (D->Kind == IRDocumentKind::Unit) {
      M.Units.push_back(std::move(D->Unit));
    } else if (D->Kind == IRDocumentKind::End) {
      End = D->End;
      EndLine = T.Line;
    } else {
      SeenDiags = true;
      Read.Diagnostics = D->Diagnostics.size();
      adoptInputDiagnostics(std::move(D->Diagnostics));
    }
  }
  // Cut short: what was read goes on, with an error (as for a cut log).
  Read.Units = M.Units.size();
  checkIREnd(End, EndLine, Read, R->name(), R->lines(), Diags);
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

namespace {
/// One unit on its way through the streaming driver.
struct InFlight {
  std::unique_ptr<CompileUnit> U;
  /// IR input: the document, its number and, if it was the diagnostics
  /// document, what it held.
  IRDocumentText Doc;
  unsigned DocNo = 0;
  bool IsDiagnostics = false;
  std::vector<Diagnostic> InputDiags;
  /// IR input: the end document's counts, if it was that.
  llvm::Optional<IREndCounts> End;

  DiagnosticEngine Diags;
  std::string Failure;
  std::string Prepared;
  std::shared_future<void> Done;
};
} // namespace

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
  auto Gate = [&] { return !failsStrict(Opts.Strict); };
  Expected<PassPipeline> P = buildPipeline(Passes);
  if (!P) {
    fail(toString(P.takeError()));
    return false;
  }
  bool VerifyEach = Opts.VerifyEach || verifyEachFromEnvironment();
  PassContext Ctx(Diags);
  Ctx.VerifyEach = VerifyEach;
  Ctx.Threads = Opts.Threads;
  size_t ModulePasses = 0;
  bool UnitsSplit = P->splitForUnits(ModulePasses);
  bool FromIR = IRStream != nullptr;
  // From logs, the module passes run before the payloads are loaded, so
  // they must say they need none.
  bool Streams =
      Opts.Stream && UnitsSplit &&
      (FromIR ? ModulePasses == 0
              : ModulePasses > 0 && ModulePasses < P->size() &&
                    !P->needsPayloads(0, ModulePasses));

  if (!Streams) {
    if (FromIR) {
      if (!readRestOfIR(M))
        return false;
      if (Opts.Verify && !verifyIRInput(M))
        return false;
    } else {
      loadModule(M, Sources, Diags, Opts.Threads);
    }
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
    if (!Gate())
      return false;
    Error E = Em.begin(M);
    for (const std::unique_ptr<CompileUnit> &U : M.Units)
      if (!E)
        E = Em.preparedUnit(M, *U, Em.prepareUnit(M, *U));
    if (!E)
      E = Em.end(M);
    if (E) {
      fail(toString(std::move(E)));
      return false;
    }
    return true;
  }

  if (!FromIR) {
    // Module passes on the unloaded module (grouping needs no payloads).
    if (Error E = P->runRange(M, Ctx, 0, ModulePasses)) {
      fail(toString(std::move(E)));
      return false;
    }
    // Ungrouped leftovers only: units are loaded one by one below.
    loadModule(M, Sources, Diags, Opts.Threads, /*WithUnits=*/false);
  }
  flush();
  if (Error E = Em.begin(M)) {
    fail(toString(std::move(E)));
    return false;
  }

  std::vector<std::unique_ptr<CompileUnit>> Units = std::move(M.Units);
  M.Units.clear();
  std::string InputFile = FromIR ? IRStream->name().str() : std::string();
  // Runs on a worker: read (IR) or load (logs) the unit, run the unit
  // passes, verify, prepare the output.
  auto Work = [&](InFlight &F) {
    if (FromIR) {
      Expected<ParsedIRDocument> D =
          parseIRDocument(F.Doc, InputFile, M, F.Diags);
      F.Doc.Storage.clear();
      F.Doc.Text = StringRef();
      if (!D) {
        F.Failure = toString(D.takeError());
        return;
      }
      if (D->Kind == IRDocumentKind::Header ||
          D->Kind == IRDocumentKind::Compile) {
        F.Failure = toString(outOfOrder(F.Doc, F.DocNo, InputFile, F.Diags));
        return;
      }
      if (D->Kind == IRDocumentKind::Diagnostics) {
        F.IsDiagnostics = true;
        F.InputDiags = std::move(D->Diagnostics);
        return;
      }
      if (D->Kind == IRDocumentKind::End) {
        F.End = D->End;
        return;
      }
      F.U = std::move(D->Unit);
      if (Opts.Verify)
        if (Error E = verifyUnit(M, *F.U)) {
          F.Failure = "input IR is invalid:\n" + toString(std::move(E));
          return;
        }
    } else {
      loadUnit(*F.U, M, Sources, F.Diags);
    }
    if (Error E = P->runOnUnit(M, *F.U, F.Diags, ModulePasses, VerifyEach)) {
      F.Failure = toString(std::move(E));
      return;
    }
    if (Opts.Verify && !VerifyEach && P->size() > ModulePasses)
      if (Error E = verifyUnit(M, *F.U)) {
        F.Failure =
            "IR is invalid after the pipeline:\n" + toString(std::move(E));
        return;
      }
    F.Prepared = Em.prepareUnit(M, *F.U);
  };

  unsigned Threads = Opts.Threads
                         ? Opts.Threads
                         : llvm::hardware_concurrency().compute_thread_count();
  // A bounded window of units in flight, delivered in order.
  size_t Window = std::max<size_t>(2, Threads * 2);
  std::unique_ptr<ThreadPool> Pool;
  if (Threads > 1)
    Pool = std::make_unique<ThreadPool>(llvm::hardware_concurrency(Threads));
  std::deque<std::unique_ptr<InFlight>> Queue;
  size_t NextUnit = 0;
  std::string ReadFailure;
  bool Exhausted = false;
  // Take the next unit (or IR document) and start work on it.
  auto Submit = [&]() {
    if (Exhausted)
      return;
    auto F = std::make_unique<InFlight>();
    if (FromIR) {
      Expected<bool> More = IRStream->next(F->Doc);
      if (!More)
        ReadFailure = toString(More.takeError());
      if (!More || !*More) {
        Exhausted = true;
        return;
      }
      F->DocNo = IRStream->count();
    } else {
      if (NextUnit == Units.size()) {
        Exhausted = true;
        return;
      }
      F->U = std::move(Units[NextUnit++]);
    }
    InFlight *Raw = F.get();
    if (Pool)
      F->Done = Pool->async([&Work, Raw] { Work(*Raw); });
    Queue.push_back(std::move(F));
  };
  for (size_t I = 0; I < Window; ++I)
    Submit();
  bool OK = true;
  bool SeenInputDiags = false;
  Optional<IREndCounts> InputEnd;
  unsigned InputEndLine = 0;
  IREndCounts InputRead;
  InputRead.Compiles = M.Compiles.size();
  Optional<UnitKey> LastKey;
  while (!Queue.empty()) {
    std::unique_ptr<InFlight> F = std::move(Queue.front());
    Queue.pop_front();
    if (Pool)
      F->Done.wait();
    else
      Work(*F);
    if (OK)
      Submit();
    if (!OK)
      continue;
    if (FromIR && (InputEnd || (SeenInputDiags && !F->End))) {
      // Nothing but the end may follow the diagnostics, and nothing the
      // end, whatever it holds.
      fail(toString(outOfOrder(F->Doc, F->DocNo, InputFile, Diags)));
      OK = false;
      continue;
    }
    Diags.append(F->Diags);
    flush();
    if (!F->Failure.empty()) {
      fail(F->Failure);
      OK = false;
      continue;
    }
    if (F->IsDiagnostics) {
      SeenInputDiags = true;
      InputRead.Diagnostics = F->InputDiags.size();
      adoptInputDiagnostics(std::move(F->InputDiags));
      continue;
    }
    if (F->End) {
      InputEnd = F->End;
      InputEndLine = F->Doc.Line;
      continue;
    }
    if (FromIR && Opts.Verify && LastKey && !(*LastKey < F->U->Key)) {
      fail("input IR is invalid:\nunit " + F->U->Key.slug() +
           ": units are not sorted by key or a key is repeated (after '" +
           LastKey->slug() + "')");
      OK = false;
      continue;
    }
    if (Error E = Em.preparedUnit(M, *F->U, std::move(F->Prepared))) {
      fail(toString(std::move(E)));
      OK = false;
      continue;
    }
    if (FromIR) {
      LastKey = F->U->Key;
      ++InputRead.Units;
    }
  }
  if (Pool)
    Pool->wait();
  if (OK && !ReadFailure.empty()) {
    fail(ReadFailure);
    OK = false;
  }
  if (!OK)
    return false;
  if (FromIR) {
    // Cut short: what was read goes on, with an error (as for a cut log).
    checkIREnd(InputEnd, InputEndLine, InputRead, InputFile,
               IRStream->lines(), Diags);
    flush();
  }
  IRStream.reset();
  attachDiagnostics(M);
  if (!Gate())
    return false;
  if (Error E = Em.end(M)) {
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
