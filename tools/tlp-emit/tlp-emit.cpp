//===- tlp-emit.cpp - Render tlp IR or logs -------------------------------===//
//
// tlp-emit FORMAT [-o OUT] [INPUT]
// tlp-emit --diff [--md|--json] [-o OUT] A [B] [--unit|--units|--ranks]
//
// FORMAT is one of the emitters of Emitters.def (--json, ...). INPUT is tlp
// IR, or a log / directory of logs, on which the default pipeline runs
// first. See docs/CommandGuide/tlp-emit.md.
//
//===----------------------------------------------------------------------===//

#include "DriverFlags.h"

#include "tlp/Driver/Driver.h"
#include "tlp/Emit/DiffReport.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/Passes/Pass.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
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
    SecondInput(cl::Positional, cl::desc("[second input (--diff)]"),
                cl::cat(EmitCategory));
static cl::opt<bool>
    DiffOpt("diff",
            cl::desc("Compare units: of two inputs, or two units or ranks "
                     "of one (--units, --ranks); Markdown, or --json"),
            cl::cat(EmitCategory));
static cl::opt<std::string>
    UnitsOpt("units",
             cl::desc("With --diff: the unit of each side, by id, name or "
                      "index"),
             cl::value_desc("a,b"), cl::cat(EmitCategory));
static cl::opt<std::string>
    RanksOpt("ranks", cl::desc("With --diff: the rank of each side"),
             cl::value_desc("a,b"), cl::cat(EmitCategory));
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
    cl::desc("Answer for one pre-grad node: where did it go (Markdown, "
             "or data with --json)"),
    cl::value_desc("name"), cl::cat(EmitCategory));
static cl::opt<std::string>
    SourceOpt("source",
              cl::desc("Answer for one user source line (Markdown, or data "
                       "with --json)"),
              cl::value_desc("file:line"), cl::cat(EmitCategory));
static cl::opt<std::string>
    RenderOpt("render",
              cl::desc("Markdown output: markdown (default) or html "
                       "(rendered with cmark)"),
              cl::value_desc("markdown|html"), cl::init("markdown"),
              cl::cat(EmitCategory));

static cl::opt<std::string> ProfileOpt(
    "profile",
    cl::desc("A torch.profiler Chrome trace (export_chrome_trace) whose "
             "time is joined onto the kernels, nodes and lines (--json, "
             "--md, --html; docs/profile.md)"),
    cl::value_desc("trace.json"), cl::cat(EmitCategory));

static std::string commandLine(int argc, char **argv) {
  std::string S;
  for (int I = 0; I < argc; ++I) {
    if (I)
      S += ' ';
    S += argv[I];
  }
  return S;
}

/// \p Text as two parts `a,b`, or None.
static Optional<std::pair<std::string, std::string>>
twoParts(StringRef Text) {
  std::pair<StringRef, StringRef> P = Text.split(',');
  if (P.first.empty() || P.second.empty() || P.second.contains(','))
    return None;
  return std::make_pair(P.first.str(), P.second.str());
}

/// tlp-emit --diff (docs/diff.md): read each input into digests, select,
/// pair, compare, write.
static int diffMain(Driver &D) {
  bool JSON = false;
  if (FormatFlag.getNumOccurrences() || FormatOpt.getNumOccurrences()) {
    EmitterKind K = FormatFlag.getNumOccurrences() ? FormatFlag.getValue()
                                                   : FormatOpt.getValue();
    if (K != EmitterKind::MarkdownEmitter && K != EmitterKind::JSONEmitter)
      return D.fail("--diff writes Markdown (--md, the default) or JSON "
                    "(--json)");
    JSON = K == EmitterKind::JSONEmitter;
  }
  // What each side selects: --unit (both), --units=A,B, --ranks=A,B.
  std::string UnitA = UnitOpt, UnitB = UnitOpt;
  Optional<int64_t> RankA, RankB;
  if (!UnitsOpt.empty()) {
    auto P = twoParts(UnitsOpt);
    if (!P)
      return D.fail("--units takes two units: --units=A,B");
    if (!UnitOpt.empty())
      return D.fail("--unit and --units cannot be used together");
    UnitA = P->first;
    UnitB = P->second;
  }
  if (!RanksOpt.empty()) {
    auto P = twoParts(RanksOpt);
    int64_t RA, RB;
    if (!P || StringRef(P->first).getAsInteger(10, RA) ||
        StringRef(P->second).getAsInteger(10, RB))
      return D.fail("--ranks takes two ranks: --ranks=A,B");
    RankA = RA;
    RankB = RB;
  }
  if (SecondInput.empty() && UnitsOpt.empty() && RanksOpt.empty())
    return D.fail("--diff needs two inputs, or --units=A,B or --ranks=A,B "
                  "to compare two parts of one");

  DriverOptions Opts;
  Flags.apply(Opts);
  Opts.Output = OutputPath;
  if (PassesText.getNumOccurrences())
    Opts.PassesText = PassesText.getValue();
  Opts.DefaultPassesForLogs = defaultPipeline();
  EmitOptions EO;
  EO.Output = OutputPath;
  DiffSide A, B;
  auto Read = [&](Driver &Drv, const std::string &Input, DiffSide &Side) {
    Side.Input = Input;
    Opts.Input = Input;
    return Drv.run(Opts, [&](DiagnosticEngine &Diags) {
      return createDigestCollector(EO, Diags, Side.Units);
    });
  };
  if (int RC = Read(D, InputPath, A))
    return RC;
  if (SecondInput.empty()) {
    B = A;
  } else {
    Driver DB("tlp-emit");
    if (int RC = Read(DB, SecondInput, B))
      return RC;
  }
  if (Error E = selectUnits(A.Units, UnitA, RankA, A.Input))
    return D.fail(toString(std::move(E)));
  if (Error E = selectUnits(B.Units, UnitB, RankB, B.Input))
    return D.fail(toString(std::move(E)));

  std::vector<UnitPair> Pairs = diffUnits(A.Units, B.Units);
  Expected<std::unique_ptr<OutputFile>> Out = openOutputFile(OutputPath);
  if (!Out)
    return D.fail(toString(Out.takeError()));
  writeDiff((*Out)->os(), A, B, Pairs, JSON, Pretty);
  if (Error E = (*Out)->commit())
    return D.fail(toString(std::move(E)));
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv, /*InstallPipeSignalExitHandler=*/false);
  setUpToolProcess("tlp-emit");
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

  Driver D("tlp-emit");
  if (DiffOpt)
    return diffMain(D);
  if (!SecondInput.empty())
    return D.fail("a second input needs --diff");
  if (!UnitsOpt.empty() || !RanksOpt.empty())
    return D.fail(Twine(UnitsOpt.empty() ? "--ranks" : "--units") +
                  " needs --diff");
  if (!FormatFlag.getNumOccurrences() && !FormatOpt.getNumOccurrences())
    return D.fail("no output format given (for example --json)");
  if (FormatFlag.getNumOccurrences() && FormatOpt.getNumOccurrences() &&
      FormatFlag != FormatOpt)
    return D.fail("two different output formats given");
  EmitterKind Kind = FormatFlag.getNumOccurrences() ? FormatFlag.getValue()
                                                    : FormatOpt.getValue();

  DriverOptions Opts;
  Opts.Input = InputPath;
  Flags.apply(Opts);
  Opts.Output = OutputPath;
  if (PassesText.getNumOccurrences())
    Opts.PassesText = PassesText.getValue();
  Opts.DefaultPassesForLogs = defaultPipeline();

  EmitOptions EO;
  EO.Output = OutputPath;
  EO.Threads = Opts.Threads;
  EO.Pretty = Pretty;
  EO.CommandLine = commandLine(argc, argv);
  EO.Unit = UnitSelector(UnitOpt);
  EO.CollapseKernels = CollapseKernels;
  if (!ProfileOpt.empty()) {
    if (Kind != EmitterKind::JSONEmitter &&
        Kind != EmitterKind::MarkdownEmitter &&
        Kind != EmitterKind::HTMLEmitter)
      return D.fail("--profile is read by --json, --md and --html");
    if (ProfileOpt == "-" && InputPath == "-")
      return D.fail("--profile and the input cannot both be stdin");
    EO.Profile = ProfileOpt;
  }
  // The enumerated options and the question are checked for the emitter
  // that reads them (another ignores them).
  if (Kind == EmitterKind::DOTEmitter) {
    Expected<DOTGraph> Graph = parseEmitOption<DOTGraph>(GraphOpt);
    if (!Graph)
      return D.fail(toString(Graph.takeError()));
    EO.Graph = *Graph;
  }
  if (Kind == EmitterKind::MarkdownEmitter) {
    Expected<RenderFormat> Render = parseEmitOption<RenderFormat>(RenderOpt);
    if (!Render)
      return D.fail(toString(Render.takeError()));
    EO.Render = *Render;
  }
  // The question: answered in Markdown, or as data with --json.
  if (Kind == EmitterKind::MarkdownEmitter ||
      Kind == EmitterKind::JSONEmitter) {
    if (!NodeOpt.empty() && !SourceOpt.empty())
      return D.fail("--node and --source cannot be used together");
    if (!SourceOpt.empty()) {
      Expected<ProvenanceQuery> Q = ProvenanceQuery::forSource(SourceOpt);
      if (!Q)
        return D.fail(toString(Q.takeError()));
      EO.Query = std::move(*Q);
    } else if (!NodeOpt.empty()) {
      EO.Query = ProvenanceQuery::forNode(NodeOpt);
    }
  }
  return D.run(Opts, [&](DiagnosticEngine &Diags) {
    std::unique_ptr<Emitter> E;
    switch (Kind) {
#define TLP_EMITTER(NAME, CLASS, DESCRIPTION)                                  \
  case EmitterKind::CLASS:                                                     \
    E = create##CLASS(EO, Diags);                                              \
    break;
#include "tlp/Emit/Emitters.def"
    }
    return E;
  });
}
