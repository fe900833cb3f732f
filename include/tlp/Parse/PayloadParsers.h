//===- PayloadParsers.h - Parsers for artifact payloads ---------*- C++ -*-===//
//
// Part of tlp. Each parser lowers one payload (FX graph text, a Python or
// C++ wrapper, a provenance JSON) into its typed artifact. Parsers never
// fail outright: what they cannot read they report, with the log line, and
// skip.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PARSE_PAYLOADPARSERS_H
#define TLP_PARSE_PAYLOADPARSERS_H

#include "tlp/IR/Artifact.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace tlp {

/// Where a payload sits in its log, for diagnostics. Payload line N is log
/// line EnvelopeLine + N. At most MaxReports problems are reported one by
/// one; the rest are summed up by finish().
class PayloadContext {
public:
  PayloadContext(DiagnosticEngine &Diags, llvm::StringRef File,
                 uint32_t EnvelopeLine, llvm::StringRef ArtifactName)
      : Diags(Diags), File(File.str()), EnvelopeLine(EnvelopeLine),
        ArtifactName(ArtifactName.str()) {}
  /// A whole file (a TORCH_COMPILE_DEBUG folder's): its line N is line N
  /// of \p File, and messages do not name a payload line.
  static PayloadContext forFile(DiagnosticEngine &Diags,
                                llvm::StringRef File,
                                llvm::StringRef ArtifactName) {
    PayloadContext C(Diags, File, 0, ArtifactName);
    C.WholeFile = true;
    return C;
  }
  ~PayloadContext() { finish(); }

  void report(Severity Sev, uint32_t PayloadLine, const llvm::Twine &Msg,
              llvm::StringRef Excerpt = "");
  void warning(uint32_t PayloadLine, const llvm::Twine &Msg,
               llvm::StringRef Excerpt = "") {
    report(Severity::Warning, PayloadLine, Msg, Excerpt);
  }
  /// Report a JSON syntax error at byte \p Offset of \p Text.
  void jsonError(llvm::StringRef Text, size_t Offset, llvm::StringRef Msg);
  /// Print the count of problems not reported one by one.
  void finish();

  llvm::StringRef artifactName() const { return ArtifactName; }
  static constexpr unsigned MaxReports = 10;

private:
  DiagnosticEngine &Diags;
  std::string File;
  uint32_t EnvelopeLine;
  std::string ArtifactName;
  unsigned Reported = 0;
  unsigned Suppressed = 0;
  bool WholeFile = false;
};

/// FX graph text (print_readable, in G.Text) into nodes, comment lines and
/// the graph id. Reindexes G.
void parseFXGraph(GraphArtifact &G, PayloadContext &Ctx);

/// Set every node's Inputs (Node::Inputs) from its line of G.Text (and,
/// for the output node, the lines its return continues on): the names of
/// other nodes of the same scope that the right-hand side uses, not
/// attribute names, keyword names, callees or strings. parseFXGraph calls
/// it; G must be indexed (G.lines()).
void computeFXNodeInputs(GraphArtifact &G);

/// The Python wrapper module of inductor_output_code (in C.Text): kernel
/// definitions, the entry function and its launches (a module that embeds
/// a C++ wrapper is read by parseJitCppWrapper). Reindexes C.
void parsePythonWrapper(CodeArtifact &C, PayloadContext &Ctx);

/// AOTInductor C++ (in C.Text): the wrapper (run_impl, launches) or the
/// kernel file (definitions). Reindexes C.
void parseCppCode(CodeArtifact &C, PayloadContext &Ctx);

/// The module of a JIT compile with `cpp_wrapper = True` (in C.Text): the
/// C++ wrapper it embeds under `cpp_wrapper_src`, read as parseCppCode
/// reads AOTInductor's (entry `inductor_entry_impl`, the kernels defined
/// after it); its Python lines are not read. False, with C untouched, when
/// the module embeds no C++ wrapper. parsePythonWrapper calls it on a
/// module that names `cpp_wrapper_src`.
bool parseJitCppWrapper(CodeArtifact &C, PayloadContext &Ctx);

/// Inductor's scheduler IR (ir_pre_fusion.txt / ir_post_fusion.txt, in
/// A.Text): scheduler nodes, fused nodes' sub-nodes, their dependencies,
/// outputs and loop-body ops.
void parseSchedulerIR(SchedulerIRArtifact &A, PayloadContext &Ctx);

/// The provenance JSON artifacts. Each returns false (after reporting) if
/// the payload is not usable at all.
bool parseNodeMappings(llvm::StringRef Text, MappingArtifact &M,
                       PayloadContext &Ctx);
bool parseKernelStackTraces(llvm::StringRef Text, StackTraceArtifact &S,
                            PayloadContext &Ctx);
bool parseKernelInfo(llvm::StringRef Text, KernelInfoArtifact &K,
                     PayloadContext &Ctx);
bool parseNodeTree(llvm::StringRef Text, NodeTreeArtifact &T,
                   PayloadContext &Ctx);
bool parseKernelNodes(llvm::StringRef Text, KernelNodesArtifact &K,
                      PayloadContext &Ctx);

} // namespace tlp

#endif // TLP_PARSE_PAYLOADPARSERS_H
