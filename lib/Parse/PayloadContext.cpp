//===- PayloadContext.cpp - Locations for payload diagnostics -------------===//

#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/StringUtils.h"

using namespace llvm;

namespace tlp {

void PayloadContext::report(Severity Sev, uint32_t PayloadLine,
                            const Twine &Msg, StringRef Excerpt) {
  if (Reported >= MaxReports) {
    ++Suppressed;
    return;
  }
  ++Reported;
  std::string Where = WholeFile ? std::string()
                                : " (payload line " +
                                      std::to_string(PayloadLine) + " of '" +
                                      ArtifactName + "')";
  Diags.report(Sev, File, EnvelopeLine + PayloadLine, Msg + Where,
               Excerpt.empty() ? "" : excerpt(Excerpt));
}

void PayloadContext::jsonError(StringRef Text, size_t Offset, StringRef Msg) {
  size_t Clamped = std::min(Offset, Text.size());
  uint32_t Line =
      1 + static_cast<uint32_t>(Text.take_front(Clamped).count('\n'));
  size_t LineStart = Text.take_front(Clamped).rfind('\n');
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  size_t Col = Clamped - LineStart + 1;
  report(Severity::Warning, Line,
         "invalid JSON in '" + ArtifactName + "': " + Msg + " at column " +
             Twine(Col));
}

void PayloadContext::finish() {
  if (!Suppressed)
    return;
  Diags.report(Severity::Warning, File, EnvelopeLine,
               Twine(Suppressed) + " more problems in '" + ArtifactName +
                   "' not shown");
  Suppressed = 0;
}

} // namespace tlp
