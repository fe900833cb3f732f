//===- ReplayMain.cpp - Run a fuzz target on files, without libFuzzer -----===//
//
// Built in when TLP_ENABLE_FUZZERS is off (any compiler): the target then
// runs every file named on its command line (directories: every file in
// them, sorted) once. The test suite uses this to replay the seed inputs
// and every input that once broke a property, in the normal and in the
// sanitizer build.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;

int main(int argc, char **argv) {
  std::vector<std::string> Files;
  for (int I = 1; I < argc; ++I) {
    StringRef Arg = argv[I];
    if (Arg.startswith("-"))
      continue; // libFuzzer flags, ignored here
    if (sys::fs::is_directory(Arg)) {
      std::error_code EC;
      std::vector<std::string> In;
      for (sys::fs::directory_iterator It(Arg, EC), End; It != End && !EC;
           It.increment(EC))
        if (sys::fs::is_regular_file(It->path()))
          In.push_back(It->path());
      llvm::sort(In);
      Files.insert(Files.end(), In.begin(), In.end());
    } else {
      Files.push_back(Arg.str());
    }
  }
  for (const std::string &F : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(F);
    if (!Buf) {
      errs() << "replay: error: cannot read '" << F
             << "': " << Buf.getError().message() << "\n";
      return 1;
    }
    StringRef B = (*Buf)->getBuffer();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(B.data()),
                           B.size());
  }
  outs() << "replayed " << Files.size() << " inputs\n";
  return 0;
}
