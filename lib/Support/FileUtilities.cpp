//===- FileUtilities.cpp - Opening input and output files -----------------===//

#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Version.h"

#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace tlp {

std::string displayName(StringRef Path) {
  return Path == "-" ? std::string("<stdin>") : Path.str();
}

Expected<std::unique_ptr<MemoryBuffer>> openInputFile(StringRef Path) {
  if (Path != "-" && sys::fs::is_directory(Path))
    return createStringError(std::make_error_code(std::errc::is_a_directory),
                             "'%s' is a directory", Path.str().c_str());
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (std::error_code EC = Buf.getError())
    return createStringError(EC, "cannot open '%s': %s",
                             displayName(Path).c_str(), EC.message().c_str());
  return std::move(*Buf);
}

Expected<std::unique_ptr<ToolOutputFile>> openOutputFile(StringRef Path) {
  std::error_code EC;
  auto Out = std::make_unique<ToolOutputFile>(Path, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(EC, "cannot open output file '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  return std::move(Out);
}

void printToolVersion(raw_ostream &OS, StringRef Tool) {
  OS << Tool << " (tlp) " << TLP_VERSION_STRING << "\n";
}

} // namespace tlp
