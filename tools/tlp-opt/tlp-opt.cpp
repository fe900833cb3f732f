//===- tlp-opt.cpp - Read logs or IR, run passes, print IR ----------------===//
//
// tlp-opt [--passes=a,b | --<pass> ...] [-o FILE] INPUT
//
// INPUT is a TORCH_TRACE log, a directory of logs, tlp IR, or "-".
// See docs/CommandGuide/tlp-opt.md.
//
//===----------------------------------------------------------------------===//

#include "DriverFlags.h"
#include "ToolDriver.h"

#include "tlp/IR/IRYAML.h"
#include "tlp/Passes/Pass.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace tlp;

static cl::OptionCategory OptCategory("tlp-opt options");
static DriverFlags Flags(OptCategory);

static cl::opt<std::string> InputPath(cl::Positional, cl::desc("<input>"),
                                      cl::init("-"), cl::cat(OptCategory));
static cl::opt<std::string>
    OutputPath("o", cl::desc("Output file (default: stdout)"),
               cl::value_desc("file"), cl::init("-"), cl::cat(OptCategory));
static cl::opt<std::string>
    PassesText("passes",
               cl::desc("Comma-separated passes to run; each pass's "
                        "prerequisites are added before it"),
               cl::value_desc("a,b,..."), cl::cat(OptCategory));
namespace {
/// Index into getRegisteredPasses(); an enum so cl:: gives it literals.
enum class PassId : unsigned {};
} // namespace

static cl::list<PassId>
    PassFlags(cl::desc("Passes (run in command-line order, with what they "
                       "require):"),
              cl::cat(OptCategory));
static cl::opt<bool>
    DisableVerify("disable-verify",
                  cl::desc("Do not verify the input IR and the result"),
                  cl::cat(OptCategory));
static cl::opt<bool>
    ListPasses("list-passes", cl::desc("Print the registered passes and exit"),
               cl::cat(OptCategory));

namespace {
/// Prints the IR document by document. A file is put in place only when
/// complete (OutputFile). Stdout streams, so that `tlp-opt | tlp-emit`
/// runs both ends at once; if the run fails after the first document, a
/// last `--- !tlp.error` document says so, which every IR reader refuses:
/// what was printed can never pass for a whole module.
class IRSink : public UnitSink {
public:
  explicit IRSink(StringRef Path) : Path(Path.str()) {}
  Error begin(const Module &M) override {
    Expected<std::unique_ptr<OutputFile>> F =
        openOutputFile(Path, /*StreamStdout=*/true);
    if (!F)
      return F.takeError();
    Out = std::move(*F);
    printModuleHeader(M, Out->os());
    return Error::success();
  }
  std::string prepare(const Module &, const CompileUnit &U) override {
    std::string Text;
    raw_string_ostream OS(Text);
    printUnit(U, OS);
    return Text;
  }
  Error unit(const Module &, const CompileUnit &,
             std::string Prepared) override {
    Out->os() << Prepared;
    return Error::success();
  }
  Error end(const Module &M) override {
    printDiagnosticsDocument(M.Diagnostics, Out->os());
    if (Error E = Out->commit())
      return E;
    Done = true;
    return Error::success();
  }
  /// The run failed: end a stream that has begun with the error document.
  void abort() {
    if (Out && !Done && Out->isStdout()) {
      Out->os() << "--- !tlp.error\n"
                << "message: 'tlp-opt failed before the end of its output; "
                   "the documents above are incomplete'\n";
      Out->os().flush();
    }
  }

private:
  std::string Path;
  std::unique_ptr<OutputFile> Out;
  bool Done = false;
};
} // namespace

/// Refuse an output that would overwrite the input (or, for a directory
/// output, hold it): the input file, or any log read from a directory.
static Error checkOutput(const Module &M, StringRef Input, StringRef Output) {
  std::vector<std::string> Inputs{Input.str()};
  for (uint32_t I = 0; I < M.Logs.size(); ++I)
    Inputs.push_back(M.Logs[I].Path);
  return checkOutputIsNotInput(Output, Inputs,
                               sys::fs::is_directory(Output));
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  ArrayRef<PassInfo> Registered = getRegisteredPasses();
  for (unsigned I = 0; I < Registered.size(); ++I)
    PassFlags.getParser().addLiteralOption(
        Registered[I].Name, static_cast<PassId>(I), Registered[I].Description);
  cl::HideUnrelatedOptions(OptCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { printToolVersion(OS, "tlp-opt"); });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tlp-opt: read TORCH_TRACE logs or tlp IR, run passes, print IR\n");

  if (ListPasses) {
    for (const PassInfo &P : Registered) {
      outs() << P.Name << " - " << P.Description;
      if (!P.Requires.empty())
        outs() << " (requires " << P.Requires << ")";
      outs() << "\n";
    }
    return 0;
  }

  ToolDriver Driver("tlp-opt");
  DriverOptions Opts;
  Opts.Input = InputPath;
  Flags.apply(Opts);
  Opts.Verify = !DisableVerify;

  // Pass flags and --passes run in command-line order.
  std::vector<std::pair<unsigned, std::string>> Ordered;
  for (unsigned I = 0; I < PassFlags.size(); ++I)
    Ordered.emplace_back(
        PassFlags.getPosition(I),
        Registered[static_cast<unsigned>(PassFlags[I])].Name.str());
  if (PassesText.getNumOccurrences()) {
    Expected<std::vector<std::string>> Names = parsePipelineText(PassesText);
    if (!Names)
      return Driver.fail(toString(Names.takeError()));
    unsigned Pos = PassesText.getPosition();
    for (std::string &N : *Names)
      Ordered.emplace_back(Pos, std::move(N));
  }
  std::stable_sort(
      Ordered.begin(), Ordered.end(),
      [](const auto &A, const auto &B) { return A.first < B.first; });
  for (auto &P : Ordered)
    Opts.Passes.push_back(P.second);

  bool IsIR = false;
  std::unique_ptr<Module> M = Driver.load(Opts, IsIR);
  if (!M)
    return 1;
  if (Error E = checkOutput(*M, Opts.Input, OutputPath))
    return Driver.fail(toString(std::move(E)));
  IRSink Sink(OutputPath);
  if (!Driver.process(*M, Opts, Sink,
                      [&] { return !Driver.failsStrict(Flags.strict()); })) {
    Sink.abort();
    Driver.finish(Flags.strict());
    return 1;
  }
  return Driver.finish(Flags.strict());
}
