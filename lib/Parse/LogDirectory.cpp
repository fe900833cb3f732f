//===- LogDirectory.cpp - Directories of rank logs ------------------------===//
//
// Part of tlp. A directory of logs, as a distributed run writes them (one
// `dedicated_log_torch_trace_rank_N*.log` per rank): which of its entries
// are read and which are skipped with a word, and the rank that a log's
// file name gives.
//
//===----------------------------------------------------------------------===//

#include "ReaderInternals.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tlp {

Optional<int64_t> rankFromFileName(StringRef Path) {
  StringRef Name = sys::path::filename(Path);
  static const char Marker[] = "dedicated_log_torch_trace_rank_";
  size_t P = Name.find(Marker);
  if (P == StringRef::npos)
    return None;
  StringRef Digits = Name.substr(P + sizeof(Marker) - 1).take_while([](char C) {
    return C >= '0' && C <= '9';
  });
  uint64_t R;
  if (!parseUnsigned(Digits, R) || R > INT32_MAX)
    return None;
  return static_cast<int64_t>(R);
}

namespace reader {

Expected<LogDirectory> listLogDirectory(StringRef Path,
                                        DiagnosticEngine &Diags) {
  LogDirectory Dir;
  std::error_code EC;
  std::vector<std::pair<std::string, std::string>> Skipped;
  for (sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef FileName = sys::path::filename(It->path());
    if (FileName.startswith("."))
      continue;
    bool LogName = FileName.startswith("dedicated_log_torch_trace");
    sys::fs::file_status St;
    if (std::error_code SEC = sys::fs::status(It->path(), St)) {
      // A link to nothing, or an entry that vanished: never silent.
      std::string Why = "skipped: " + SEC.message();
      if (Optional<std::string> Target = readSymbolicLink(It->path()))
        Why = "skipped: a symbolic link to '" + *Target +
              "', which cannot be read (" + SEC.message() + ")";
      Skipped.emplace_back(It->path(), Why);
      continue;
    }
    switch (St.type()) {
    case sys::fs::file_type::regular_file:
      Dir.Files.push_back(It->path());
      break;
    case sys::fs::file_type::directory_file:
      ++Dir.Subdirs;
      if (LogName)
        Skipped.emplace_back(It->path(),
                             "skipped: a directory named like a rank log "
                             "(subdirectories are not searched)");
      break;
    default:
      Skipped.emplace_back(
          It->path(), "skipped: not a regular file (a FIFO, socket or "
                      "device is not read from a directory)");
    }
  }
  if (EC)
    return createStringError(EC, "cannot read directory '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  llvm::sort(Skipped);
  for (auto &S : Skipped)
    Diags.warning(S.first, 0, S.second);
  llvm::sort(Dir.Files);
  return Dir;
}

} // namespace reader
} // namespace tlp
