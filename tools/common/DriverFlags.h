//===- DriverFlags.h - Command-line options of both tools -------*- C++ -*-===//
//
// Part of tlp. The options that tlp-opt and tlp-emit share (--verify-each,
// --no-stream, --strict, --md5, --threads, the hidden --chunk-size), declared once and registered
// under each tool's option category. --disable-verify is tlp-opt's only:
// the emitters rely on verified IR.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_TOOLS_DRIVERFLAGS_H
#define TLP_TOOLS_DRIVERFLAGS_H

#include "tlp/Driver/Driver.h"

#include "llvm/Support/CommandLine.h"

namespace tlp {

class DriverFlags {
public:
  /// Registers the options under \p Category; make one, of static storage
  /// duration, before the command line is parsed.
  explicit DriverFlags(llvm::cl::OptionCategory &Category);

  /// Set the fields of \p Opts these options decide.
  void apply(DriverOptions &Opts) const;
  bool strict() const { return Strict; }

private:
  llvm::cl::opt<bool> VerifyEach;
  llvm::cl::opt<bool> NoStream;
  llvm::cl::opt<bool> Strict;
  llvm::cl::opt<ReadOptions::Md5Check> Md5;
  llvm::cl::opt<unsigned> Threads;
  llvm::cl::opt<uint64_t> ChunkSize;
};

} // namespace tlp

#endif // TLP_TOOLS_DRIVERFLAGS_H
