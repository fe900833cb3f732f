//===- CompileDebugReader.h - TORCH_COMPILE_DEBUG folders -------*- C++ -*-===//
//
// Part of tlp. Reading the folders TORCH_COMPILE_DEBUG=1 writes
// (torch_compile_debug/run_*/torchinductor/model__0_forward_1.0/) into the
// IR: one compile unit per graph folder, its files as they are (no log
// payload decoding), each file a Module::Logs entry so that diagnostics
// name it. docs/inputs.md says what is read and how a folder is matched to
// the unit of a TORCH_TRACE log of the same run.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PARSE_COMPILEDEBUGREADER_H
#define TLP_PARSE_COMPILEDEBUGREADER_H

#include "tlp/IR/Module.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tlp {

/// Which part of a TORCH_COMPILE_DEBUG tree a directory is.
enum class DebugLayout {
  None,
  /// `torch_compile_debug/`: run folders.
  Root,
  /// `run_<date>-pid_<pid>/`: torchinductor/ (and torchdynamo/).
  Run,
  /// `torchinductor/`: graph folders.
  Inductor,
  /// `model__0_forward_1.0/`: one graph's files.
  Graph,
};

/// What \p Path is, by its name and its entries (a graph folder's files).
DebugLayout classifyDebugDirectory(llvm::StringRef Path);

/// The graph folders under \p Path (itself, if it is one), sorted by path;
/// empty if \p Path holds no TORCH_COMPILE_DEBUG tree. \p EmptyRuns, if
/// given, gets the run and torchinductor folders found with no graph
/// folder (a process whose compiles all hit the FX graph cache writes
/// none).
std::vector<std::string>
findDebugGraphFolders(llvm::StringRef Path,
                      std::vector<std::string> *EmptyRuns = nullptr);

/// Read the graph folders \p Folders into \p M: one unit each (in
/// M.Units, keyed by UnitKey::Folder), the files fx_graph_readable.py and
/// fx_graph_runnable.py as raw events of no compile (M.Raw). Each file's
/// bytes go to \p Sources, at its Module::Logs index; its artifact is
/// parsed when its unit is loaded (loadUnit), or now unless \p Lazy.
/// Problems are diagnostics; nothing fails.
void readDebugGraphFolders(llvm::ArrayRef<std::string> Folders, Module &M,
                           TraceSources &Sources, DiagnosticEngine &Diags,
                           bool Lazy);

} // namespace tlp

#endif // TLP_PARSE_COMPILEDEBUGREADER_H
