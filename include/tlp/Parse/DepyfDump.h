//===- DepyfDump.h - Reading depyf dumps into the IR ------------*- C++ -*-===//
//
// Part of tlp. A depyf dump (`depyf.prepare_debug(dir)`, vLLM's
// `debug_dump_path` with its `rank_N/` folders) is a folder of Python files:
// `__compiled_fn_N.<stage>.K.py` graphs, `__compiled_fn_N.kernel_K.py`
// modules Inductor loaded, `kernel_K.best_config`, `full_code_for_F_K.py`
// and `__transformed_code_K_for_F.py`. The reader lowers it into the units
// of the IR (docs/inputs.md): one unit per compile, with its graphs, output
// code, pass timeline (CompileUnit::Stages) and the files it keeps.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PARSE_DEPYFDUMP_H
#define TLP_PARSE_DEPYFDUMP_H

#include "tlp/IR/Module.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tlp {

/// True if \p Dir is a directory that holds files depyf writes
/// (`__compiled_fn_*`, `full_code_for_*`, `__transformed_code_*`), directly
/// or in `rank_N/` / `rank_N_dp_M/` folders.
bool looksLikeDepyfDump(llvm::StringRef Dir);

/// Read the depyf dump at \p Dir into \p M: the TORCH_TRACE logs of the
/// folder first (`dedicated_log_torch_trace*`, read as readTrace reads a
/// directory's logs), then the dump's files, each added to Module::Logs so
/// that diagnostics and outputs name it. Units of the dump whose output
/// code is the same text as an output code of those logs are marked
/// (CompileUnit::SameCodeAs) for group-compile-ids to join. An error only
/// if nothing could be read.
llvm::Error readDepyfDump(llvm::StringRef Dir, Module &M, TraceSources &Sources,
                          DiagnosticEngine &Diags,
                          const ReadOptions &Opts = ReadOptions());

/// The place of a stage of the pipeline in a pass timeline (lower is
/// earlier; docs/inputs.md), for a stage name as depyf's files write it,
/// in a timeline with a joint graph (\p Joint: training) or without;
/// unknown stages are last but for AFTER_POST_GRAD.
unsigned depyfStageOrder(llvm::StringRef Stage, bool Joint);

} // namespace tlp

#endif // TLP_PARSE_DEPYFDUMP_H
