//===- FuzzCommon.h - Shared checks for the fuzz targets --------*- C++ -*-===//
//
// Part of tlp. Every fuzz target feeds its input to one entry point and then
// checks what must hold for any input, not just "no crash": the result
// verifies, prints as IR that parses back to the same text, and renders as
// valid JSON. A broken property aborts, so libFuzzer reports it as a crash
// with the input that caused it.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_FUZZ_FUZZCOMMON_H
#define TLP_FUZZ_FUZZCOMMON_H

#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include <cstddef>
#include <cstdint>

namespace tlp {
namespace fuzz {

/// Abort with \p What (and \p Detail) on stderr.
[[noreturn]] void fail(const char *What, const std::string &Detail = "");

/// verifyModule(M) must succeed.
void checkVerifies(const Module &M, const char *Stage);

/// printModule(M), parsed back and printed again, must give the same text;
/// so must M printed in the compact form, read back and printed as text.
void checkRoundTrip(const Module &M);

/// The JSON emitter's output for M must parse as JSON.
void checkJSON(const Module &M);

/// What must hold for any module that reads and verifies: it round-trips,
/// the default pipeline (one thread) runs on it and keeps it valid, and it
/// still round-trips and renders as valid JSON after.
void checkValidModule(Module &M, DiagnosticEngine &Diags);

} // namespace fuzz
} // namespace tlp

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

#endif // TLP_FUZZ_FUZZCOMMON_H
