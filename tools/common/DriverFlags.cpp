//===- DriverFlags.cpp - Command-line options of both tools ---------------===//

#include "DriverFlags.h"

using namespace llvm;

namespace tlp {

DriverFlags::DriverFlags(cl::OptionCategory &Category)
    : VerifyEach("verify-each", cl::desc("Verify the IR after every pass"),
                 cl::ZeroOrMore,
                 cl::cat(Category)),
      NoStream("no-stream",
               cl::desc("Hold the whole input in memory instead of streaming "
                        "units (for testing; the output is the same)"),
               cl::Hidden, cl::cat(Category)),
      Strict("strict",
             cl::desc("Treat warnings as errors (exit 1, write no output)"),
             cl::cat(Category)),
      Md5("md5", cl::desc("Which payload md5s to check (has_payload)"),
          cl::values(clEnumValN(ReadOptions::Md5Check::Used, "used",
                                "the payloads tlp reads (default)"),
                     clEnumValN(ReadOptions::Md5Check::All, "all",
                                "every payload, also of events tlp ignores"),
                     clEnumValN(ReadOptions::Md5Check::None, "none", "none")),
          cl::init(ReadOptions::Md5Check::Used), cl::cat(Category)),
      Threads("threads", cl::desc("Worker threads (default: one per core)"),
              cl::init(0), cl::cat(Category)),
      ChunkSize("chunk-size",
                cl::desc("Scan and merge a log in chunks of at most this "
                         "many bytes (for testing; the output is the same)"),
                cl::init(0), cl::Hidden, cl::cat(Category)) {}

void DriverFlags::apply(DriverOptions &Opts) const {
  Opts.VerifyEach = VerifyEach;
  Opts.Threads = Threads;
  Opts.ChunkBytes = ChunkSize;
  Opts.Md5 = Md5;
  // Under --strict nothing is written unless the run is clean, so nothing
  // may be written before the run is over.
  Opts.Stream = !NoStream;
  Opts.Strict = Strict;
}

} // namespace tlp
