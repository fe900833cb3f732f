//===- HTMLRaw.h - The events shown raw in the HTML ---------------*- C++ -*-===//
//
// Part of tlp (private to lib/Emit). The events tlp does not interpret
// (RawEvent: Dynamo's graph, the AOT graphs, fx_graph_runnable, bytecode,
// artifacts of names no one knows yet), shown raw with their log line
// (docs/html.md, "Artifacts"): a compile's artifacts page in a directory,
// a section of the one page's overview.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_EMIT_HTMLRAW_H
#define TLP_LIB_EMIT_HTMLRAW_H

#include "tlp/IR/Module.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tlp {
namespace emit {

/// Reads the texts of a raw event (Emitter::rawTexts).
using RawTextsFn =
    llvm::function_ref<bool(const RawEvent &, std::string &, std::string &)>;

/// The page (or, with \p DirMode false, the anchor) that shows the raw
/// events of compile record \p R (null: those of no compile).
std::string rawLink(const CompileRecord *R, bool DirMode);

/// The events \p Raw, each shown raw: an event with a payload as a
/// <details class="raw-event"> (its log line, the event line, the payload
/// and a download button); events without one grouped by name, a table of
/// their event lines. Anchors are "raw-PREFIX-N".
void writeRawEvents(llvm::raw_ostream &OS, const Module &M,
                    llvm::ArrayRef<RawEvent> Raw, llvm::StringRef Prefix,
                    RawTextsFn Texts);

/// The index's "Artifacts" section: per compile, what it logged that is
/// shown raw (name and count) and the link to it; \p Inline (the one page)
/// writes the events themselves after the table.
void writeArtifactsSection(llvm::raw_ostream &OS, const Module &M,
                           bool DirMode, RawTextsFn Texts);

} // namespace emit
} // namespace tlp

#endif // TLP_LIB_EMIT_HTMLRAW_H
