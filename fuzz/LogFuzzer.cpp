//===- LogFuzzer.cpp - Fuzz the log reader and the whole pipeline ---------===//
//
// The input is a TORCH_TRACE log. It is read, every payload parsed, the
// default pipeline run; the result must verify after reading and after the
// pipeline, round-trip as IR and render as valid JSON.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tlp/Parse/TraceReader.h"
#include "tlp/Passes/Pass.h"

#include "llvm/ADT/StringRef.h"

using namespace llvm;
using namespace tlp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Module M;
  DiagnosticEngine Diags;
  ReadOptions Opts;
  Opts.Threads = 1;
  readTraceText(Text, "fuzz.log", M, Diags, Opts);
  fuzz::checkVerifies(M, "IR is invalid after reading");

  Expected<PassPipeline> P = buildPipeline(defaultPipeline());
  if (!P)
    fuzz::fail("the default pipeline does not build", toString(P.takeError()));
  PassContext Ctx(Diags);
  Ctx.Threads = 1;
  if (Error E = P->run(M, Ctx))
    fuzz::fail("the default pipeline failed", toString(std::move(E)));
  fuzz::checkVerifies(M, "IR is invalid after the pipeline");
  M.Diagnostics = Diags.diagnostics();
  fuzz::checkRoundTrip(M);
  fuzz::checkJSON(M);
  return 0;
}
