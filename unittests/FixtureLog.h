//===- FixtureLog.h - The test fixtures' logs, made from their YAML -*- C++ -*-===//
//
// The fixture logs of test/Inputs are YAML descriptions (tlp-yaml2log,
// docs/testing.md); a unit test that reads one as a file makes it with
// lib/LogYAML, as a lit test does with tlp-yaml2log, into a directory of
// its own that is removed at exit.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_UNITTESTS_FIXTURELOG_H
#define TLP_UNITTESTS_FIXTURELOG_H

#include "tlp/LogYAML/LogYAML.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

namespace tlp {
namespace unittest {

/// The path of test/Inputs/<Name>.log made from test/Inputs/<Name>.yaml
/// (Name without ".log"); "" (and a test failure) if it cannot be made.
inline std::string fixtureLog(llvm::StringRef Name) {
  struct TempDir {
    llvm::SmallString<128> Path;
    TempDir() {
      if (llvm::sys::fs::createUniqueDirectory("tlp-unittests", Path))
        Path.clear();
    }
    ~TempDir() {
      if (!Path.empty())
        llvm::sys::fs::remove_directories(Path);
    }
  };
  static TempDir Dir;
  std::string YAMLPath = (llvm::Twine(TLP_TEST_INPUTS) + "/" + Name + ".yaml").str();
  llvm::SmallString<128> Out(Dir.Path);
  llvm::sys::path::append(Out, Name + ".log");
  if (llvm::sys::fs::exists(Out))
    return std::string(Out);
  auto In = llvm::MemoryBuffer::getFile(YAMLPath);
  if (Dir.Path.empty() || !In) {
    ADD_FAILURE() << "cannot read " << YAMLPath;
    return "";
  }
  std::string Bytes;
  llvm::raw_string_ostream OS(Bytes);
  llvm::yaml::Input YIn(**In);
  if (llvm::Error E = logyaml::convertYAML(YIn, OS)) {
    ADD_FAILURE() << YAMLPath << ": " << llvm::toString(std::move(E));
    return "";
  }
  std::error_code EC;
  llvm::raw_fd_ostream File(Out, EC);
  File << OS.str();
  File.close();
  if (EC || File.has_error()) {
    ADD_FAILURE() << "cannot write " << Out.str().str();
    return "";
  }
  return std::string(Out);
}

} // namespace unittest
} // namespace tlp

#endif // TLP_UNITTESTS_FIXTURELOG_H
