//===- FuzzCommon.cpp - Shared checks for the fuzz targets ----------------===//

#include "FuzzCommon.h"

#include "tlp/Emit/Emitter.h"
#include "tlp/IR/IRDocumentReader.h"
#include "tlp/IR/IRYAML.h"
#include "tlp/IR/Verifier.h"
#include "tlp/Passes/Pass.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>

using namespace llvm;

namespace tlp {
namespace fuzz {

void fail(const char *What, const std::string &Detail) {
  fprintf(stderr, "tlp-fuzz: property broken: %s\n%s\n", What, Detail.c_str());
  abort();
}

void checkVerifies(const Module &M, const char *Stage) {
  if (Error E = verifyModule(M))
    fail(Stage, toString(std::move(E)));
}

static std::string print(const Module &M, IRForm Form = IRForm::Text) {
  std::string S;
  raw_string_ostream OS(S);
  printModule(M, OS, Form);
  return S;
}

void checkRoundTrip(const Module &M) {
  std::string First = print(M);
  DiagnosticEngine Diags;
  Expected<std::unique_ptr<Module>> Back =
      parseModule(MemoryBufferRef(First, "printed.yaml"), Diags);
  if (!Back) {
    std::string Msg = toString(Back.takeError());
    for (const Diagnostic &D : Diags.diagnostics())
      Msg += "\n" + D.File + ":" + std::to_string(D.Line) + ": " + D.Message;
    fail("printed IR does not parse", Msg + "\n--- IR:\n" + First);
  }
  std::string Second = print(**Back);
  if (First != Second)
    fail("printed IR does not round-trip",
         "--- first:\n" + First + "\n--- second:\n" + Second);
  // The compact form holds the same module.
  std::string Compact = print(M, IRForm::Compact);
  DiagnosticEngine CDiags;
  Expected<std::unique_ptr<Module>> FromCompact =
      parseModule(MemoryBufferRef(Compact, "printed.tlpc"), CDiags);
  if (!FromCompact) {
    std::string Msg = toString(FromCompact.takeError());
    for (const Diagnostic &D : CDiags.diagnostics())
      Msg += "\n" + D.File + ": " + D.Message;
    fail("printed compact IR does not parse", Msg + "\n--- IR:\n" + First);
  }
  if (CDiags.numErrors())
    fail("printed compact IR reads with errors",
         CDiags.diagnostics().front().Message);
  std::string Third = print(**FromCompact);
  if (First != Third)
    fail("compact IR does not round-trip to the same text",
         "--- first:\n" + First + "\n--- through compact:\n" + Third);
}

void checkJSON(const Module &M) {
  std::string Text;
  raw_string_ostream OS(Text);
  EmitOptions Opts;
  Opts.Stream = &OS;
  DiagnosticEngine Diags;
  std::unique_ptr<Emitter> E = createJSONEmitter(Opts, Diags);
  if (Error Err = emitModule(*E, M))
    fail("the JSON emitter failed", toString(std::move(Err)));
  OS.flush();
  nlohmann::json J = nlohmann::json::parse(Text.begin(), Text.end(), nullptr,
                                           /*allow_exceptions=*/false);
  if (J.is_discarded())
    fail("the JSON emitter wrote invalid JSON", Text);
}

void checkValidModule(Module &M, DiagnosticEngine &Diags) {
  checkRoundTrip(M);
  Expected<PassPipeline> P = buildPipeline(defaultPipeline());
  if (!P)
    fail("the default pipeline does not build", toString(P.takeError()));
  PassContext Ctx(Diags);
  Ctx.Threads = 1;
  if (Error E = P->run(M, Ctx))
    fail("the default pipeline failed", toString(std::move(E)));
  checkVerifies(M, "IR is invalid after the pipeline");
  checkRoundTrip(M);
  checkJSON(M);
}

} // namespace fuzz
} // namespace tlp
