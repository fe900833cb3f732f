//===- EmitSupport.h - Helpers shared by the text emitters ------*- C++ -*-===//
//
// Part of tlp (private to lib/Emit). Picking a unit with --unit, escaping
// log text for Markdown and DOT, short labels, and writing output files.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_EMIT_EMITSUPPORT_H
#define TLP_LIB_EMIT_EMITSUPPORT_H

#include "tlp/Analysis/PassTimeline.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/IR/Module.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tlp {
namespace emit {

/// tlp-emit --profile: the trace EmitOptions::Profile names, read (its
/// warnings and errors reported to \p Diags) into \p T; false when it
/// cannot be read at all (an error is reported). True, with \p T None,
/// when no profile was asked for.
bool readProfile(const EmitOptions &Opts, DiagnosticEngine &Diags,
                 llvm::Optional<ProfileTrace> &T);

/// The compile id of a unit as its compile shows it: "0/0", or "0/0 #2"
/// when the id begins more than once in the log (torch._dynamo.reset()).
std::string unitCompileName(const Module &M, const CompileUnit &U);

/// The PyTorch that wrote the logs, for a report's header (plain text):
/// "PyTorch 2.13.0+cpu (commit cf30153c4c13)"; the distinct versions when
/// the logs differ, "; some logs do not say" when some do not; "PyTorch
/// version: not in the log" when none says (torch_version artifact).
std::string torchVersionText(const Module &M);

/// Escape \p S for Markdown inline text: ASCII punctuation that Markdown or
/// GFM gives a meaning (emphasis, code spans, links and images `[ ] !`,
/// HTML and autolinks `< >`, entities `&`, tables `|`, ...) is
/// backslash-escaped; line breaks become spaces. '(' and ')' are left:
/// with no '[' they cannot make a link, and the report stays readable. Every text from a log that
/// is not in a code span or fenced block goes through this (docs/markdown.md,
/// Safety), so none becomes a link, image, HTML or code span.
std::string mdText(llvm::StringRef S);

/// \p S cut to at most \p Max bytes on a UTF-8 boundary, "..." appended
/// when cut.
std::string clip(llvm::StringRef S, size_t Max);

/// clip, but when \p S is longer than \p Max and \p Other (the value it
/// is compared with) first differs from it past the first Max - 40 bytes,
/// the cut starts 40 bytes before that difference with "..." in front, so
/// the part that differs shows.
std::string clipDifference(llvm::StringRef S, llvm::StringRef Other,
                           size_t Max);

/// mdText for a table cell: \p S cut to at most \p Max bytes (on a UTF-8
/// boundary, "..." appended when cut), then escaped.
std::string mdCell(llvm::StringRef S, size_t Max = 160);

/// What a pass timeline step changed, for people: "first stage", "same
/// text", "2 added, 1 removed, 3 changed", "no node changed (the text
/// differs)".
std::string timelineStepText(const TimelineStep &S);

/// The lines of a text file as `wc -l` counts them, and a last line
/// without its newline.
size_t textFileLines(llvm::StringRef Text);

/// The name of a kind of file a unit keeps, for people ("kernel module",
/// "autotune config", "Dynamo code").
llvm::StringRef unitFileTitle(UnitFile::FileKind K);

/// \p S as a code span. In a GFM table cell '|' is escaped as well (the
/// table extension splits cells before inline parsing). Line breaks become
/// spaces.
std::string mdCode(llvm::StringRef S, bool InTable = true);

/// \p Body as a fenced code block, with a fence longer than any backtick
/// run inside it.
std::string mdFence(llvm::StringRef Body, llvm::StringRef Info = "");

/// "; split by DDPOptimizer into 3 submodules: `submod_0`, `submod_1`,
/// `submod_2`" for a compile whose frame DDPOptimizer split
/// (CompileRecord::DdpSubmodules), the names as Markdown code for a table
/// cell when \p Markdown, plain otherwise; "" for none.
std::string ddpSplitText(const CompileRecord &R, bool Markdown);

/// "3 succeeded, 1 failed, 0 restarted, 0 unknown" for the compile records
/// \p Order (indices of M.Compiles), and ", 2 compiled autograd captures"
/// for the captures (CompileRecord::isCompiledAutogradCapture) apart from
/// the unknown ones.
std::string statusCountsText(const Module &M, llvm::ArrayRef<size_t> Order);

/// " (`example_inputs`: 7 entries -> 9, compared by value: 5 the same at
/// another index)" for the lists a cache miss diff aligned
/// (Module::AlignedList), \p Code writing a name as code; "" for none.
template <typename CodeFn>
std::string alignedText(llvm::ArrayRef<Module::AlignedList> Lists,
                        CodeFn Code) {
  std::string S;
  for (const Module::AlignedList &A : Lists) {
    S += S.empty() ? " (" : "; ";
    S += Code(A.Name) + ": " + std::to_string(A.Before) +
         (A.Before == 1 ? " entry -> " : " entries -> ") +
         std::to_string(A.After) + ", compared by value: " +
         std::to_string(A.Moved) + " the same at another index";
  }
  return S.empty() ? S : S + ")";
}

/// Escape \p S for HTML element content and attribute values, made
/// printable() first (no control character, valid UTF-8).
std::string escapeHTML(llvm::StringRef S);

/// escapeHTML(\p S) for a <pre>, each line break as "&#10;": a row keeps
/// to one line of the page's source.
std::string escapePreHTML(llvm::StringRef S);

/// A text written to a stream escaped as escapeHTML (escapePreHTML with
/// Pre), without a copy of the whole: `OS << HTMLText{S}` for the long
/// texts of a log (payloads, event lines).
struct HTMLText {
  llvm::StringRef Text;
  bool Pre = false;
};
llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, const HTMLText &T);

/// \p S as a DOT quoted string: '"' and '\' escaped, line breaks as "\n"
/// (so labels keep them), other control characters dropped.
std::string dotString(llvm::StringRef S);

/// \p Path's last component.
llvm::StringRef baseName(llvm::StringRef Path);

/// Names joined as code spans with ", ", at most \p Max of them, then
/// "and N more".
std::string mdCodeList(llvm::ArrayRef<std::string> Names, size_t Max = 16,
                       bool InTable = true);

/// The language a payload is coloured and saved as: "py" (FX graphs, the
/// runnable repro, wrappers), "cpp", "json" (encoding json, or a text that
/// is an object or array) or "text" (bytecode listings, anything else).
llvm::StringRef rawLanguage(const RawEvent &E, llvm::StringRef Text);
/// The file name a payload is saved as: "fx_graph_runnable.py".
std::string rawFileName(const RawEvent &E, llvm::StringRef Lang);

} // namespace emit
} // namespace tlp

#endif // TLP_LIB_EMIT_EMITSUPPORT_H
