//===- EmitTarget.h - The output an emitter writes into ---------*- C++ -*-===//
//
// Part of tlp. The driver opens an emitter's output before begin(), keeps
// it when the run succeeds and drops it when the run fails, as LLVM's
// ToolOutputFile does: an emitter writes into what it is given and never
// opens, commits or removes an output itself. What the output is (a file,
// stdout, a directory) comes from the emitter's EmitterTraits.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_EMIT_EMITTARGET_H
#define TLP_EMIT_EMITTARGET_H

#include "tlp/Support/FileUtilities.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace tlp {

struct EmitOptions;
class UnitSelector;

/// The shape of an emitter's output.
enum class OutputShape {
  /// One stream: a file, stdout ("-"), or the caller's stream.
  File,
  /// A directory of files (-o DIR).
  Directory,
};

/// What an emitter writes and what it reads; the driver opens the output
/// and reads the input by them.
struct EmitterTraits {
  OutputShape Shape = OutputShape::File;
  /// Directory: its index file, the text that marks an existing directory
  /// as one this emitter wrote (OutputDirectory::create), and the flag
  /// named when no directory is given ("--dump writes a directory").
  llvm::StringRef IndexFile, Signature, Flag;
  /// File on stdout: written as it is made (so that `tlp-opt | tlp-emit`
  /// runs both ends at once) unless the driver must hold it (--strict).
  bool StreamsStdout = false;
  /// False: the emitter reads no unit; the driver loads and runs none.
  bool NeedsUnits = true;
  /// The rank digests of ModuleFacts (the ranks compared).
  bool NeedsDigests = false;
  /// What the profile join reads of each unit (ModuleFacts::ProfileUnits;
  /// tlp-emit --profile).
  bool NeedsProfile = false;
  /// --unit: the units the emitter writes (ModuleFacts::Unit::Selected);
  /// null: all. FirstOnly: only the first unit it names (DOT draws one).
  const UnitSelector *Select = nullptr;
  bool FirstOnly = false;
};

/// An opened output, kept whole by commit() or dropped on destruction.
class EmitTarget {
public:
  /// Open the output \p Opts names for an emitter with \p Traits: the
  /// caller's stream (EmitOptions::Stream) when given, else the file or
  /// directory EmitOptions::Output names. \p HoldStdout: stdout is held
  /// until commit() even for an emitter that streams it.
  static llvm::Expected<std::unique_ptr<EmitTarget>>
  open(const EmitterTraits &Traits, const EmitOptions &Opts,
       bool HoldStdout = false);
  ~EmitTarget();

  /// The stream of a File output.
  llvm::raw_ostream &os() { return *OS; }
  /// The directory of a Directory output.
  OutputDirectory &dir() { return *Dir; }
  /// True if the output is stdout written as it is made.
  bool streamsStdout() const { return File && File->isStdout() && Streams; }
  /// Flush, check for write errors and keep the output.
  llvm::Error commit();

private:
  EmitTarget() = default;
  std::unique_ptr<OutputFile> File;
  std::unique_ptr<OutputDirectory> Dir;
  llvm::raw_ostream *OS = nullptr;
  bool Streams = false;
};

} // namespace tlp

#endif // TLP_EMIT_EMITTARGET_H
