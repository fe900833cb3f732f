//===- Input.h - Open a tool's input ----------------------------*- C++ -*-===//
//
// Part of tlp. The one place that tells a tool's inputs apart: a log file,
// a directory of rank logs, tlp IR (text or compact), or any of these on
// stdin. Nothing below the driver decides what an input is: the reader
// reads logs, the IR library reads IR, and openInput() picks which.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_DRIVER_INPUT_H
#define TLP_DRIVER_INPUT_H

#include "tlp/IR/IRDocumentReader.h"
#include "tlp/IR/Module.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace tlp {

enum class InputKind {
  /// A TORCH_TRACE log (a file, or stdin).
  Log,
  /// A directory of logs (rank logs).
  LogDirectory,
  /// tlp IR, text or compact (a file, or stdin).
  IR,
};

/// An opened input: the module read so far, and what is left to read.
struct OpenedInput {
  InputKind Kind = InputKind::Log;
  /// Logs: the module as read (payloads unloaded when ReadOptions::Lazy).
  /// IR: the module header, or the whole module when not streamed.
  std::unique_ptr<Module> M;
  /// IR read document by document: the documents after the header.
  std::unique_ptr<IRDocumentReader> IRStream;
  bool isIR() const { return Kind == InputKind::IR; }
};

/// True if \p Text starts (past blank lines) like an input tlp reads: a
/// trace event's glog prefix or an IR document marker or comment. The
/// bound check of a stream that is not a regular file (readStream).
bool startsLikeInput(llvm::StringRef Text);

/// Open \p Path ("-": stdin) for a tool. Logs are read as \p Opts says
/// (lazily or not). IR is parsed whole unless \p StreamIR: then only its
/// header is read, and the documents after it are left in
/// OpenedInput::IRStream (stdin is then parsed while it still arrives).
/// An error only if nothing could be read; problems inside the input are
/// diagnostics in \p Diags.
llvm::Expected<OpenedInput> openInput(llvm::StringRef Path,
                                      TraceSources &Sources,
                                      DiagnosticEngine &Diags,
                                      const ReadOptions &Opts, bool StreamIR);

} // namespace tlp

#endif // TLP_DRIVER_INPUT_H
