//===- IRFuzzer.cpp - Fuzz the IR reader and the passes on any valid IR ---===//
//
// The input is IR text. If it parses and verifies, it must round-trip, the
// default pipeline must run on it and keep it valid, and it must render as
// valid JSON. Whatever does not parse must fail with a diagnostic, never a
// crash.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tlp/IR/IRDocumentReader.h"
#include "tlp/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace tlp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  DiagnosticEngine Diags;
  Expected<std::unique_ptr<Module>> M =
      parseModule(MemoryBufferRef(Text, "fuzz.yaml"), Diags);
  if (!M) {
    consumeError(M.takeError());
    if (!Diags.numErrors())
      fuzz::fail("IR was refused without an error diagnostic");
    return 0;
  }
  if (Error E = verifyModule(**M)) {
    consumeError(std::move(E));
    return 0; // tlp-opt refuses it with the verifier's message
  }
  fuzz::checkValidModule(**M, Diags);
  return 0;
}
