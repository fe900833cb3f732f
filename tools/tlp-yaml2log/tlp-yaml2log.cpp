//===- tlp-yaml2log.cpp - Make a TORCH_TRACE log from YAML ----------------===//
//
// tlp-yaml2log [--docnum=N] [-o OUT] [IN.yaml|-]
//
// Writes the log that a YAML description (include/tlp/LogYAML/LogYAML.h)
// stands for, byte for byte as PyTorch writes it; the tests make their
// fixture logs with it (docs/testing.md). See
// docs/CommandGuide/tlp-yaml2log.md.
//
//===----------------------------------------------------------------------===//

#include "tlp/LogYAML/LogYAML.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tlp;

static cl::OptionCategory Category("tlp-yaml2log options");
static cl::opt<std::string> InputFilename(cl::Positional,
                                          cl::desc("<input yaml>"),
                                          cl::init("-"), cl::cat(Category));
static cl::opt<std::string> OutputFilename("o", cl::desc("Output log"),
                                           cl::value_desc("file"),
                                           cl::init("-"), cl::cat(Category));
static cl::opt<unsigned>
    DocNum("docnum", cl::init(1),
           cl::desc("Read the Nth document of the input (from 1)"),
           cl::value_desc("N"), cl::cat(Category));

static int fail(const Twine &Msg) {
  WithColor::error(errs(), "tlp-yaml2log") << Msg << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv, /*InstallPipeSignalExitHandler=*/false);
  setUpToolProcess("tlp-yaml2log");
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { printToolVersion(OS, "tlp-yaml2log"); });
  cl::ParseCommandLineOptions(
      argc, argv, "tlp-yaml2log: make a TORCH_TRACE log from its YAML\n");
  if (DocNum == 0)
    return fail("--docnum counts from 1");

  Expected<std::unique_ptr<MemoryBuffer>> In = openInputFile(
      InputFilename, [](StringRef) { return true; });
  if (!In)
    return fail(toString(In.takeError()));
  // YAML errors print as file:line:col: error: message, with the line.
  bool HadYAMLError = false;
  auto Handler = [](const SMDiagnostic &D, void *Ctx) {
    *static_cast<bool *>(Ctx) = true;
    D.print(nullptr, errs());
  };
  std::string Name = displayName(InputFilename);
  MemoryBufferRef Ref((*In)->getBuffer(), Name);
  yaml::Input YIn(Ref, nullptr, Handler, &HadYAMLError);

  std::string Bytes;
  raw_string_ostream OS(Bytes);
  if (Error E = logyaml::convertYAML(YIn, OS, DocNum)) {
    std::string Msg = toString(std::move(E));
    // The handler has already said what is wrong and where.
    if (HadYAMLError)
      return 1;
    return fail(Name + ": " + Msg);
  }
  Expected<std::unique_ptr<OutputFile>> Out = openOutputFile(OutputFilename);
  if (!Out)
    return fail(toString(Out.takeError()));
  (*Out)->os() << OS.str();
  if (Error E = (*Out)->commit())
    return fail(toString(std::move(E)));
  return 0;
}
