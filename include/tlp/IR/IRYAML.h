//===- IRYAML.h - Textual form of the provenance IR -------------*- C++ -*-===//
//
// Part of tlp. The IR text is a YAML stream (LLVM YAML I/O): a
// `--- !tlp.module` document, one `--- !tlp.unit` document per compile
// unit, and a closing `--- !tlp.diagnostics` document. Printing and parsing
// round-trip exactly. See docs/IR.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_IRYAML_H
#define TLP_IR_IRYAML_H

#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace tlp {

/// Print the whole module: header, units, diagnostics.
void printModule(const Module &M, llvm::raw_ostream &OS);

/// The three parts, for printers that stream units one at a time.
void printModuleHeader(const Module &M, llvm::raw_ostream &OS);
void printUnit(const CompileUnit &U, llvm::raw_ostream &OS);
void printDiagnosticsDocument(llvm::ArrayRef<Diagnostic> Diags,
                              llvm::raw_ostream &OS);

/// True if \p Text starts like tlp IR (a `--- !tlp.` document).
bool looksLikeIR(llvm::StringRef Text);

/// Parse IR text. Errors in the text are reported to \p Diags with their
/// location in \p Buffer; the returned Error then says that parsing failed.
llvm::Expected<std::unique_ptr<Module>>
parseModule(llvm::MemoryBufferRef Buffer, DiagnosticEngine &Diags);

} // namespace tlp

#endif // TLP_IR_IRYAML_H
