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

/// Compare \p A and \p B with each run of digits taken as a number
/// (leading zeros aside): "rank_2" < "rank_10", "rank_02" == "rank_2".
static int compareNatural(StringRef A, StringRef B) {
  auto IsDigit = [](char C) { return C >= '0' && C <= '9'; };
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    if (IsDigit(A[I]) && IsDigit(B[J])) {
      StringRef X = A.substr(I).take_while(IsDigit);
      StringRef Y = B.substr(J).take_while(IsDigit);
      I += X.size();
      J += Y.size();
      X = X.ltrim('0');
      Y = Y.ltrim('0');
      if (X.size() != Y.size())
        return X.size() < Y.size() ? -1 : 1;
      if (int C = X.compare(Y))
        return C;
      continue;
    }
    if (A[I] != B[J])
      return static_cast<unsigned char>(A[I]) <
                     static_cast<unsigned char>(B[J])
                 ? -1
                 : 1;
    ++I;
    ++J;
  }
  if (I < A.size())
    return 1;
  return J < B.size() ? -1 : 0;
}

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
  // Numbers in names compare as numbers, so rank logs come in rank order
  // (rank_2 before rank_10, as a user reads them); names equal so (rank_02
  // and rank_2) fall back to byte order, so the order is total.
  llvm::sort(Dir.Files, [](const std::string &A, const std::string &B) {
    if (int C = compareNatural(A, B))
      return C < 0;
    return A < B;
  });
  return Dir;
}

} // namespace reader
} // namespace tlp
