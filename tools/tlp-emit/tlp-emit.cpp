//===- tlp-emit.cpp - Render tlp IR or logs -------------------------------===//
//
// tlp-emit FORMAT [-o OUT] [INPUT]
//
// FORMAT is one of the emitters of Emitters.def (--json, ...). INPUT is tlp
// IR, or a log / directory of logs, on which the default pipeline runs
// first. See docs/CommandGuide/tlp-emit.md.
//
//===----------------------------------------------------------------------===//

#include "DriverFlags.h"
#include "ToolDriver.h"

#include "tlp/Emit/Emitter.h"
#include "tlp/Passes/Pass.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tlp;

namespace {
enum class EmitterKind {
#define TLP_EMITTER(NAME, CLASS, DESCRIPTION) CLASS,
#include "tlp/Emit/Emitters.def"
};
} // namespace

static cl::OptionCategory EmitCategory("tlp-emit options");
static DriverFlags Flags(EmitCategory);

static cl::opt<EmitterKind> FormatFlag(cl::desc("Output format:"),
                                       cl::cat(EmitCategory));
static cl::opt<EmitterKind>
    FormatOpt("format", cl::desc("Output format, by name (same as the flags)"),
              cl::value_desc("name"), cl::cat(EmitCategory));
static cl::opt<std::string> InputPath(cl::Positional, cl::desc("[input]"),
                                      cl::init("-"), cl::cat(EmitCategory));
static cl::opt<std::string>
    OutputPath("o", cl::desc("Output file or directory (default: stdout)"),
               cl::value_desc("path"), cl::init("-"), cl::cat(EmitCategory));
static cl::opt<bool> Pretty("pretty", cl::desc("Indent the output (JSON)"),
                            cl::cat(EmitCategory));
static cl::opt<std::string>
    PassesText("passes",
               cl::desc("Passes to run before emitting (default for a log: "
                        "link-provenance and what it requires; none for IR)"),
               cl::value_desc("a,b,..."), cl::cat(EmitCategory));
static cl::opt<std::string>
    UnitOpt("unit",
            cl::desc("One unit, by id (0-0-forward), name or index: the "
                     "unit DOT draws (default: the first), the only unit "
                     "of md and dump (default: all)"),
            cl::value_desc("id"), cl::cat(EmitCategory));
static cl::opt<std::string>
    GraphOpt("graph",
             cl::desc("What to draw (DOT): pre, post or provenance "
                      "(default)"),
             cl::value_desc("pre|post|provenance"), cl::init("provenance"),
             cl::cat(EmitCategory));
static cl::opt<bool>
    CollapseKernels("collapse-kernels",
                    cl::desc("Draw each kernel as one node (DOT)"),
                    cl::cat(EmitCategory));
static cl::opt<std::string> NodeOpt(
    "node",
    cl::desc("Answer for one pre-grad node: where did it go (Markdown)"),
    cl::value_desc("name"), cl::cat(EmitCategory));
static cl::opt<std::string>
    SourceOpt("source", cl::desc("Answer for one user source line (Markdown)"),
              cl::value_desc("file:line"), cl::cat(EmitCategory));
static cl::opt<std::string>
    RenderOpt("render",
              cl::desc("Markdown output: markdown (default) or html "
                       "(rendered with cmark)"),
              cl::value_desc("markdown|html"), cl::init("markdown"),
              cl::cat(EmitCategory));

static std::string commandLine(int argc, char **argv) {
  std::string S;
  for (int I = 0; I < argc; ++I) {
    if (I)
      S += ' ';
    S += argv[I];
  }
  return S;
}

namespace {
/// Hands units to an emitter.
class EmitterSink : public UnitSink {
public:
  explicit EmitterSink(Emitter &E) : E(E) {}
  Error begin(const Module &M) override { return E.begin(M); }
  std::string prepare(const Module &M, const CompileUnit &U) override {
    return E.prepareUnit(M, U);
  }
  Error unit(const Module &M, const CompileUnit &U,
             std::string Prepared) override {
    return E.preparedUnit(M, U, std::move(Prepared));
  }
  Error end(const Module &M) override { return E.end(M); }

private:
  Emitter &E;
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
#define TLP_EMITTER(NAME, CLASS, DESCRIPTION)                                  \
  FormatFlag.getParser().addLiteralOption(NAME, EmitterKind::CLASS,            \
                                          DESCRIPTION);                        \
  FormatOpt.getParser().addLiteralOption(NAME, EmitterKind::CLASS, DESCRIPTION);
#include "tlp/Emit/Emitters.def"
  cl::HideUnrelatedOptions(EmitCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { printToolVersion(OS, "tlp-emit"); });
  cl::ParseCommandLineOptions(argc, argv,
                              "tlp-emit: render tlp IR or TORCH_TRACE logs\n");

  ToolDriver Driver("tlp-emit");
  if (!FormatFlag.getNumOccurrences() && !FormatOpt.getNumOccurrences())
    return Driver.fail("no output format given (for example --json)");
  if (FormatFlag.getNumOccurrences() && FormatOpt.getNumOccurrences() &&
      FormatFlag != FormatOpt)
    return Driver.fail("two different output formats given");
  EmitterKind Kind = FormatFlag.getNumOccurrences() ? FormatFlag.getValue()
                                                    : FormatOpt.getValue();

  DriverOptions Opts;
  Opts.Input = InputPath;
  Flags.apply(Opts);
  bool IsIR = false;
  std::unique_ptr<Module> M = Driver.load(Opts, IsIR);
  if (!M)
    return 1;
  if (Error E = checkOutput(*M, Opts.Input, OutputPath))
    return Driver.fail(toString(std::move(E)));
  if (PassesText.getNumOccurrences()) {
    Expected<std::vector<std::string>> Names = parsePipelineText(PassesText);
    if (!Names)
      return Driver.fail(toString(Names.takeError()));
    Opts.Passes = *Names;
  } else if (!IsIR) {
    Opts.Passes = defaultPipeline();
  }

  EmitOptions EO;
  EO.Output = OutputPath;
  EO.Pretty = Pretty;
  EO.CommandLine = commandLine(argc, argv);
  EO.Unit = UnitOpt;
  EO.Graph = GraphOpt;
  EO.CollapseKernels = CollapseKernels;
  EO.Node = NodeOpt;
  EO.Source = SourceOpt;
  EO.Render = RenderOpt;
  std::unique_ptr<Emitter> E;
  switch (Kind) {
#define TLP_EMITTER(NAME, CLASS, DESCRIPTION)                                  \
  case EmitterKind::CLASS:                                                     \
    E = create##CLASS(EO, Driver.Diags);                                       \
    break;
#include "tlp/Emit/Emitters.def"
  }
  EmitterSink Sink(*E);
  if (!Driver.process(*M, Opts, Sink,
                      [&] { return !Driver.failsStrict(Flags.strict()); })) {
    Driver.finish(Flags.strict());
    return 1;
  }
  return Driver.finish(Flags.strict());
}
