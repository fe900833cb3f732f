//===- TraceReader.h - Reading TORCH_TRACE logs into the IR -----*- C++ -*-===//
//
// Part of tlp. The reader splits a log into events (glog prefix, JSON
// envelope, tab-prefixed payload lines), checks payload md5s, resolves the
// `str` intern table, and lowers the events that matter for provenance into
// typed artifacts and compile events of a Module. Everything else is counted.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PARSE_TRACEREADER_H
#define TLP_PARSE_TRACEREADER_H

#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace tlp {

struct ReadOptions {
  /// Check `has_payload` md5s (a mismatch is a warning; the payload is
  /// still used).
  bool VerifyMd5 = true;
  /// Malformed lines reported one by one per log; the rest are counted.
  unsigned MaxLineReports = 20;
  /// Worker threads for payload parsing (0: one per core).
  unsigned Threads = 0;
};

/// Read the log(s) at \p Path: a file, a directory of logs (rank logs are
/// named dedicated_log_torch_trace_rank_N*.log), or "-" for stdin. Returns
/// an error only if nothing could be read; problems inside logs become
/// diagnostics in \p Diags.
llvm::Error readTrace(llvm::StringRef Path, Module &M, DiagnosticEngine &Diags,
                      const ReadOptions &Opts = ReadOptions());

/// Read one log held in memory; \p Name is used in diagnostics.
void readTraceBuffer(llvm::StringRef Buffer, llvm::StringRef Name,
                     llvm::Optional<int64_t> FileRank, Module &M,
                     DiagnosticEngine &Diags,
                     const ReadOptions &Opts = ReadOptions());

/// N from a `dedicated_log_torch_trace_rank_N...` file name.
llvm::Optional<int64_t> rankFromFileName(llvm::StringRef Path);

/// True if the first non-blank line of \p Text is a trace event line.
bool looksLikeTrace(llvm::StringRef Text);

/// Split an event line into its JSON envelope. Returns false if the line
/// does not have the `<L>MMDD hh:mm:ss.uuuuuu pid path:line] ` prefix.
bool splitEventLine(llvm::StringRef Line, llvm::StringRef &Json);

/// Load an input for a tool: tlp IR text, or a log / directory / stdin.
/// \p IsIR tells which it was.
llvm::Expected<std::unique_ptr<Module>>
loadInput(llvm::StringRef Path, DiagnosticEngine &Diags, bool &IsIR,
          const ReadOptions &Opts = ReadOptions());

} // namespace tlp

#endif // TLP_PARSE_TRACEREADER_H
