//===- DriverTest.cpp - The streaming driver library ----------------------===//
//
// lib/Driver without the tools: the same log through the IR printer gives
// the same text streamed or not, on one thread or several; the pipeline
// says which module passes may run before payloads are loaded.
//
//===----------------------------------------------------------------------===//

#include "FixtureLog.h"

#include "tlp/Driver/Driver.h"
#include "tlp/Passes/Pass.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tlp;

static std::string runOnFixture(llvm::StringRef Path, bool Stream,
                                unsigned Threads, int &Exit) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  DriverOptions Opts;
  Opts.Input = Path.str();
  Opts.Passes = defaultPipeline();
  Opts.Stream = Stream;
  Opts.Threads = Threads;
  EmitOptions EO;
  EO.Stream = &OS;
  Driver D("tlp-unittests");
  Exit = D.run(Opts, [&](DiagnosticEngine &Diags) {
    return createIREmitter(EO, Diags);
  });
  OS.flush();
  return Text;
}

TEST(Driver, StreamingDoesNotChangeTheOutput) {
  for (const char *Log : {"jit_cuda_train", "aot_cuda_v2", "broken"}) {
    int E1 = -1, E2 = -1, E3 = -1;
    std::string Path = unittest::fixtureLog(Log);
    std::string Streamed = runOnFixture(Path, true, 2, E1);
    std::string Whole = runOnFixture(Path, false, 2, E2);
    std::string OneThread = runOnFixture(Path, true, 1, E3);
    EXPECT_NE(Streamed.find("--- !tlp.unit"), std::string::npos) << Log;
    EXPECT_EQ(Streamed, Whole) << Log;
    EXPECT_EQ(Streamed, OneThread) << Log;
    EXPECT_EQ(E1, E2) << Log;
    EXPECT_EQ(E1, E3) << Log;
  }
}

TEST(Driver, MissingInputFails) {
  int Exit = 0;
  std::string Out = runOnFixture(
      (llvm::Twine(TLP_TEST_INPUTS) + "/no-such-file.log").str(), true, 1, Exit);
  EXPECT_EQ(Exit, 1);
  EXPECT_TRUE(Out.empty());
}

TEST(PassPipeline, OnlyGroupingRunsWithoutPayloads) {
  llvm::Expected<PassPipeline> P = buildPipeline(defaultPipeline());
  ASSERT_TRUE(static_cast<bool>(P));
  size_t ModulePasses = 0;
  ASSERT_TRUE(P->splitForUnits(ModulePasses));
  EXPECT_EQ(ModulePasses, 1u); // group-compile-ids
  EXPECT_FALSE(P->needsPayloads(0, ModulePasses));
  // Unit passes see loaded units: they count as needing payloads.
  EXPECT_TRUE(P->needsPayloads(ModulePasses, P->size()));
}
