//===- IRCompactFuzzer.cpp - Fuzz the compact IR reader -------------------===//
//
// The input is compact IR (tlp-opt --compact). Whatever does not read
// must fail with an error diagnostic that says at which byte, never a
// crash. What reads and verifies must print as the same compact bytes
// (the form has one encoding of each module), round-trip through the text
// form, take the default pipeline and render as valid JSON.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tlp/IR/IRCompactIO.h"
#include "tlp/IR/IRDocumentReader.h"
#include "tlp/IR/IRYAML.h"
#include "tlp/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tlp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  // Text is tlp-fuzz-ir's.
  if (!looksLikeCompactIR(Bytes))
    return 0;
  DiagnosticEngine Diags;
  Expected<std::unique_ptr<Module>> M =
      parseModule(MemoryBufferRef(Bytes, "fuzz.tlpc"), Diags);
  for (const Diagnostic &D : Diags.diagnostics())
    if (D.Sev == Severity::Error &&
        !StringRef(D.Message).startswith("at byte "))
      fuzz::fail("an error about compact IR does not say at which byte",
                 D.Message);
  if (!M) {
    consumeError(M.takeError());
    if (!Diags.numErrors())
      fuzz::fail("compact IR was refused without an error diagnostic");
    return 0;
  }
  if (Diags.numErrors())
    return 0; // read with an error (cut short at a frame boundary)
  if (Error E = verifyModule(**M)) {
    consumeError(std::move(E));
    return 0;
  }
  std::string Again;
  raw_string_ostream OS(Again);
  printModule(**M, OS, IRForm::Compact);
  OS.flush();
  if (Again != Bytes) {
    // Bytes that read may still not be how tlp writes the module (keys in
    // another order, a value equal to its default written out): it must
    // read back to the same module, printed the same.
    DiagnosticEngine Diags2;
    Expected<std::unique_ptr<Module>> Back =
        parseModule(MemoryBufferRef(Again, "again.tlpc"), Diags2);
    if (!Back)
      fuzz::fail("printed compact IR does not read",
                 toString(Back.takeError()));
    std::string Third;
    raw_string_ostream OS3(Third);
    printModule(**Back, OS3, IRForm::Compact);
    OS3.flush();
    if (Third != Again)
      fuzz::fail("printed compact IR does not round-trip");
  }
  fuzz::checkValidModule(**M, Diags);
  return 0;
}
