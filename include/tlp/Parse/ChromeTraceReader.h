//===- ChromeTraceReader.h - Read a torch.profiler Chrome trace -*- C++ -*-===//
//
// Part of tlp. Reads the timed events of a Chrome trace
// (`{"traceEvents": [...]}` or a bare array of events, as torch.profiler's
// export_chrome_trace writes it) into a ProfileTrace. Tolerant: each event
// is checked on its own, and a damaged one gets a located warning
// (`trace.json:LINE: warning: ...`) while the others are still read.
// docs/inputs.md, docs/profile.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PARSE_CHROMETRACEREADER_H
#define TLP_PARSE_CHROMETRACEREADER_H

#include "tlp/IR/ProfileTrace.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

namespace tlp {

/// Read the trace in \p Text (the contents of \p Path) into \p T.
/// Returns false, with an error reported, when \p Text holds no list of
/// events at all; damaged events are warnings.
bool readChromeTrace(llvm::StringRef Path, llvm::StringRef Text,
                     ProfileTrace &T, DiagnosticEngine &Diags);

/// Open \p Path ("-": stdin) and read it; an error when it cannot be read.
bool readChromeTraceFile(llvm::StringRef Path, ProfileTrace &T,
                         DiagnosticEngine &Diags);

} // namespace tlp

#endif // TLP_PARSE_CHROMETRACEREADER_H
