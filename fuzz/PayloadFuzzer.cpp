//===- PayloadFuzzer.cpp - Fuzz one payload parser ------------------------===//
//
// Built once per artifact kind (TLP_FUZZ_KIND, TLP_FUZZ_NAME). The input is
// a payload, decoded as the reader would have decoded it: made valid UTF-8,
// then parsed into its artifact as in loadArtifact(). The artifact must
// verify, round-trip as IR and render as valid JSON.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/StringUtils.h"

using namespace llvm;
using namespace tlp;

/// Parse \p Text into an artifact of kind \p K, as loadArtifact() does.
static std::unique_ptr<Artifact> parse(Artifact::ArtifactKind K,
                                       std::string Text, PayloadContext &Ctx) {
  switch (K) {
  case Artifact::AK_PreGradGraph:
  case Artifact::AK_PostGradGraph: {
    auto G = std::make_unique<GraphArtifact>(K);
    G->Text = std::move(Text);
    parseFXGraph(*G, Ctx);
    return G;
  }
  case Artifact::AK_OutputCode: {
    auto C = std::make_unique<CodeArtifact>(K);
    C->Text = std::move(Text);
    parsePythonWrapper(*C, Ctx);
    return C;
  }
  case Artifact::AK_AOTWrapperCode:
  case Artifact::AK_AOTKernelCode: {
    auto C = std::make_unique<CodeArtifact>(K);
    C->Text = std::move(Text);
    parseCppCode(*C, Ctx);
    return C;
  }
  case Artifact::AK_NodeMappings: {
    auto A = std::make_unique<MappingArtifact>();
    parseNodeMappings(Text, *A, Ctx);
    return A;
  }
  case Artifact::AK_KernelStackTraces: {
    auto A = std::make_unique<StackTraceArtifact>();
    parseKernelStackTraces(Text, *A, Ctx);
    return A;
  }
  case Artifact::AK_TritonKernelInfo: {
    auto A = std::make_unique<KernelInfoArtifact>();
    parseKernelInfo(Text, *A, Ctx);
    return A;
  }
  case Artifact::AK_PostToPreGradNodes: {
    auto A = std::make_unique<NodeTreeArtifact>();
    parseNodeTree(Text, *A, Ctx);
    return A;
  }
  case Artifact::AK_KernelToPostGradNodes: {
    auto A = std::make_unique<KernelNodesArtifact>();
    parseKernelNodes(Text, *A, Ctx);
    return A;
  }
  case Artifact::AK_IRPreFusion:
  case Artifact::AK_IRPostFusion: {
    auto A = std::make_unique<SchedulerIRArtifact>(K);
    A->Text = std::move(Text);
    parseSchedulerIR(*A, Ctx);
    return A;
  }
  }
  return nullptr;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  sanitizeUTF8(Text);
  Module M;
  LogFile L;
  L.Path = "fuzz.log";
  M.Logs.push_back(L);
  DiagnosticEngine Diags;
  std::unique_ptr<Artifact> A;
  {
    PayloadContext Ctx(Diags, "fuzz.log", 1, TLP_FUZZ_NAME);
    A = parse(Artifact::TLP_FUZZ_KIND, std::move(Text), Ctx);
  }
  A->Name = TLP_FUZZ_NAME;
  A->Line = 1;
  M.Artifacts.push_back(std::move(A));
  fuzz::checkVerifies(M, "the parsed artifact does not verify");
  M.Diagnostics = Diags.diagnostics();
  fuzz::checkRoundTrip(M);
  fuzz::checkJSON(M);
  return 0;
}
