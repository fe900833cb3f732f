//===- Emitter.h - Emitter interface ----------------------------*- C++ -*-===//
//
// Part of tlp. An emitter renders a Module. Emitters are free functions
// registered in Emitters.def; each reads only the IR.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_EMIT_EMITTER_H
#define TLP_EMIT_EMITTER_H

#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tlp {

struct EmitOptions {
  /// Output path: a file, "-" for stdout, or a directory for emitters that
  /// write several files.
  std::string Output = "-";
  /// Indent JSON and similar output for people and FileCheck.
  bool Pretty = false;
  /// The command that made the output (recorded by some emitters).
  std::string CommandLine;
};

#define TLP_EMITTER(NAME, FUNCTION, DESCRIPTION)                               \
  llvm::Error FUNCTION(const Module &M, const EmitOptions &Opts,               \
                       DiagnosticEngine &Diags);
#include "tlp/Emit/Emitters.def"

/// Current version of the JSON schema (docs/json.md).
extern const char *const JSONSchemaVersion;

} // namespace tlp

#endif // TLP_EMIT_EMITTER_H
