//===- tlp-opt.cpp - Read logs or IR, run passes, print IR ----------------===//
//
// tlp-opt [--passes=a,b | --<pass> ...] [-o FILE] INPUT
//
// INPUT is a TORCH_TRACE log, a directory of logs, tlp IR, or "-".
// See docs/CommandGuide/tlp-opt.md.
//
//===----------------------------------------------------------------------===//

#include "DriverFlags.h"

#include "tlp/Driver/Driver.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/Passes/Pass.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
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
static cl::opt<bool> RawTexts(
    "raw-texts",
    cl::desc("Carry the texts of the events shown raw (Dynamo's graph, the "
             "AOT graphs, fx_graph_runnable, ...) in the IR; by default the "
             "IR points into the log and tlp-emit reads them from it"),
    cl::cat(OptCategory));
static cl::opt<bool> Compact(
    "compact",
    cl::desc("Write the IR in its compact binary form, for another tool to "
             "read (tlp-opt --compact | tlp-emit); the readable YAML text is "
             "the default"),
    cl::cat(OptCategory));
static cl::opt<bool>
    ListPasses("list-passes", cl::desc("Print the registered passes and exit"),
               cl::cat(OptCategory));

int main(int argc, char **argv) {
  InitLLVM X(argc, argv, /*InstallPipeSignalExitHandler=*/false);
  setUpToolProcess("tlp-opt");
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

  Driver D("tlp-opt");
  // Bytes that are not text would garble the terminal (as llvm-as refuses
  // to write bitcode there).
  if (Compact && OutputPath == "-" && sys::Process::StandardOutIsDisplayed())
    return D.fail("refusing to write compact IR to a terminal: redirect "
                  "stdout, pipe it to tlp-emit, or use -o FILE (without "
                  "--compact the IR is text)");
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
      return D.fail(toString(Names.takeError()));
    unsigned Pos = PassesText.getPosition();
    for (std::string &N : *Names)
      Ordered.emplace_back(Pos, std::move(N));
  }
  std::stable_sort(
      Ordered.begin(), Ordered.end(),
      [](const auto &A, const auto &B) { return A.first < B.first; });
  Opts.Passes.emplace();
  for (auto &P : Ordered)
    Opts.Passes->push_back(P.second);
  Opts.Output = OutputPath;

  EmitOptions EO;
  EO.Output = OutputPath;
  EO.EmbedRawTexts = RawTexts;
  EO.CompactIR = Compact;
  return D.run(Opts, [&](DiagnosticEngine &Diags) {
    return createIREmitter(EO, Diags);
  });
}
