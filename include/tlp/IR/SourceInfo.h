//===- SourceInfo.h - User source locations in IR strings -------*- C++ -*-===//
//
// Part of tlp. Parsers for the two ways user source lines appear in the
// artifacts the IR keeps verbatim: FX `# File:` comments and Python stack
// trace strings (kernel stack traces).
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_SOURCEINFO_H
#define TLP_IR_SOURCEINFO_H

#include "tlp/IR/Types.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tlp {

/// Parse an FX summary comment: `# File: /a/b.py:79 in forward, code: x = f(x)`
/// (any indentation, optional `Annotation: {...}` before `File:`). Returns
/// None for other comments, such as `# No stacktrace found ...`, and for a
/// line number of 0.
llvm::Optional<SourceLoc> parseFXFileComment(llvm::StringRef Line);

/// Parse a Python traceback text: pairs of `File "p", line N, in fn` and the
/// code line after it, and the span of the code that a line of `^` and `~`
/// under it underlines (SourceLoc::SpanBegin/SpanEnd; none when there is
/// no such line, or the code is not ASCII). Frames come out outermost
/// first, as written. A
/// literal backslash-n (a trace escaped twice on its way into the log) is a
/// newline, as tlparse reads it (decodeStackTraceText).
std::vector<SourceLoc> parseStackTrace(llvm::StringRef Text);

/// \p Text with every literal `\n` (a backslash and an n) turned into a
/// newline, as tlparse's readable stack-trace page does.
std::string decodeStackTraceText(llvm::StringRef Text);

} // namespace tlp

#endif // TLP_IR_SOURCEINFO_H
