//===- tlp-docs.cpp - Render the docs to HTML -----------------------------===//
//
// tlp-docs -o OUTDIR SRCDIR
//
// Renders every .md file under SRCDIR to OUTDIR/<same path>.html with
// cmark-gfm, links between pages pointed at the .html files; README.html
// is also written as index.html. The `docs` build target runs it. See
// docs/CommandGuide/tlp-docs.md.
//
//===----------------------------------------------------------------------===//

#include "tlp/Emit/MarkdownRender.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace tlp;

static cl::OptionCategory DocsCategory("tlp-docs options");
static cl::opt<std::string> SourceDir(cl::Positional, cl::desc("<docs dir>"),
                                      cl::Required, cl::cat(DocsCategory));
static cl::opt<std::string> OutputDir("o",
                                      cl::desc("Output directory (required)"),
                                      cl::value_desc("dir"), cl::Required,
                                      cl::cat(DocsCategory));

static int fail(const Twine &Msg) {
  WithColor::error(errs(), "tlp-docs") << Msg << "\n";
  return 1;
}

static bool writeFile(StringRef Path, StringRef Text, std::string &Err) {
  Expected<std::unique_ptr<OutputFile>> F = openOutputFile(Path);
  if (!F) {
    Err = toString(F.takeError());
    return false;
  }
  (*F)->os() << Text;
  if (Error E = (*F)->commit()) {
    Err = toString(std::move(E));
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv, /*InstallPipeSignalExitHandler=*/false);
  setUpToolProcess("tlp-docs");
  cl::HideUnrelatedOptions(DocsCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { printToolVersion(OS, "tlp-docs"); });
  cl::ParseCommandLineOptions(argc, argv,
                              "tlp-docs: render tlp's Markdown docs to HTML\n");

  if (!sys::fs::is_directory(SourceDir))
    return fail("'" + SourceDir + "' is not a directory");
  std::vector<std::string> Pages;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator I(SourceDir, EC), E; I != E && !EC;
       I.increment(EC))
    if (StringRef(I->path()).endswith(".md"))
      Pages.push_back(I->path());
  if (EC)
    return fail("cannot read '" + SourceDir + "': " + EC.message());
  llvm::sort(Pages);
  for (const std::string &Page : Pages) {
    Expected<std::unique_ptr<MemoryBuffer>> In = openInputFile(Page, [](StringRef) { return true; });
    if (!In)
      return fail(toString(In.takeError()));
    SmallString<256> Rel(Page);
    sys::path::replace_path_prefix(Rel, SourceDir, "");
    StringRef R = sys::path::relative_path(Rel);
    SmallString<256> Out(OutputDir);
    sys::path::append(Out, R);
    sys::path::replace_extension(Out, ".html");
    if (std::error_code E2 =
            sys::fs::create_directories(sys::path::parent_path(Out)))
      return fail("cannot create '" + sys::path::parent_path(Out) +
                  "': " + E2.message());
    MarkdownRenderOptions Opts;
    Opts.RewriteMarkdownLinks = true;
    Opts.TrustedLinks = true;
    std::string HTML = renderMarkdownToHTML((*In)->getBuffer(), Opts);
    std::string Err;
    if (!writeFile(Out, HTML, Err))
      return fail(Err);
    if (R == "README.md") {
      SmallString<256> Index(OutputDir);
      sys::path::append(Index, "index.html");
      if (!writeFile(Index, HTML, Err))
        return fail(Err);
    }
  }
  outs() << Pages.size() << " pages rendered to " << OutputDir << "\n";
  return 0;
}
