//===- TraceReader.h - Reading TORCH_TRACE logs into the IR -----*- C++ -*-===//
//
// Part of tlp. The reader splits a log into events (glog prefix, JSON
// envelope, tab-prefixed payload lines), checks payload md5s, resolves the
// `str` intern table, and lowers the events that matter for provenance into
// typed artifacts and compile events of a Module. Everything else is counted.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PARSE_TRACEREADER_H
#define TLP_PARSE_TRACEREADER_H

#include "tlp/IR/IRYAML.h"
#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"
#include "tlp/Support/MappedFile.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <deque>
#include <memory>
#include <shared_mutex>
#include <vector>

namespace tlp {

struct ReadOptions {
  /// Which `has_payload` md5s to check (a mismatch is a warning; the
  /// payload is still used). Used: the payloads tlp reads (graphs, code,
  /// provenance); the payloads of events it ignores (chromium_event, cache
  /// records, ...) are most of a log's bytes and are not hashed. All: every
  /// payload. None: no hashing at all.
  enum class Md5Check { Used, All, None };
  Md5Check Md5 = Md5Check::Used;
  /// Malformed lines and md5 mismatches reported one by one per log; the
  /// rest are counted.
  unsigned MaxLineReports = 20;
  /// Worker threads for scanning and payload parsing (0: one per core).
  unsigned Threads = 0;
  /// The most bytes of a log scanned as one chunk (about: chunks end at
  /// event lines). The scan merges each chunk into the module once
  /// scanned and frees its events, so this and the threads bound the
  /// events it holds, whatever the log's size.
  uint64_t ChunkBytes = 32u << 20;
  /// Leave payloads unloaded (Artifact::PayloadRef): the caller loads each
  /// unit's artifacts with loadUnit() when it processes the unit.
  bool Lazy = false;
};

/// The bytes of the logs read, in Module::Logs order, kept so that unloaded
/// artifacts can be loaded. Large files are memory-mapped; the reader tells
/// the OS to drop the pages it is done with, so resident memory stays small
/// however large the log.
class TraceSources {
public:
  TraceSources() = default;
  TraceSources(const TraceSources &) = delete;
  TraceSources &operator=(const TraceSources &) = delete;
  ~TraceSources();

  /// Add a log's bytes. \p Path, if it names a regular file, is opened once
  /// more so that payloads can be read with positioned reads later instead
  /// of through the mapping (MappedFile).
  uint32_t add(std::unique_ptr<llvm::MemoryBuffer> Buffer,
               llvm::StringRef Path = "");
  size_t size() const;
  llvm::StringRef bytes(uint32_t Log) const;
  /// Let the OS drop the pages of [Offset, Offset + Size) (mapped files
  /// only; a no-op for memory the process owns).
  void release(uint32_t Log, uint64_t Offset, uint64_t Size) const;
  /// Copy [Offset, Offset + Size) of a log into \p Out; false if the
  /// bytes are not there (a file that shrank).
  bool read(uint32_t Log, uint64_t Offset, uint64_t Size,
            std::string &Out) const;

private:
  /// The log \p Log, or null. add() may run while workers read other logs
  /// (a directory's logs are opened on one thread and scanned on others):
  /// the table is guarded, and a deque keeps its entries in place.
  MappedFile *get(uint32_t Log) const;
  mutable std::shared_mutex Mutex;
  std::deque<std::unique_ptr<MappedFile>> Logs;
};

/// Read the log(s) at \p Path: a file, a directory of logs (rank logs are
/// named dedicated_log_torch_trace_rank_N*.log), or "-" for stdin. Returns
/// an error only if nothing could be read; problems inside logs become
/// diagnostics in \p Diags. The logs' bytes are added to \p Sources.
llvm::Error readTrace(llvm::StringRef Path, Module &M, TraceSources &Sources,
                      DiagnosticEngine &Diags,
                      const ReadOptions &Opts = ReadOptions());

/// Read one log; \p Name is used in diagnostics, \p Path (if a regular
/// file) is opened again for positioned payload reads. False if the bytes
/// cannot be a log at all (compressed, binary), after an error.
bool readTraceBuffer(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                     llvm::StringRef Name, llvm::StringRef Path,
                     llvm::Optional<int64_t> FileRank,
                     Module &M, TraceSources &Sources, DiagnosticEngine &Diags,
                     const ReadOptions &Opts = ReadOptions());

/// Read a log held in a string, loading everything (tests, fuzzers).
void readTraceText(llvm::StringRef Text, llvm::StringRef Name, Module &M,
                   DiagnosticEngine &Diags,
                   const ReadOptions &Opts = ReadOptions());

/// Load and parse the payload of \p A (a no-op if it is loaded).
void loadArtifact(Artifact &A, const Module &M, const TraceSources &Sources,
                  DiagnosticEngine &Diags);
/// Load every artifact of \p U.
void loadUnit(CompileUnit &U, const Module &M, const TraceSources &Sources,
              DiagnosticEngine &Diags);
/// Load every artifact of the module and (unless !\p WithUnits: only the
/// ungrouped ones) of its units, in parallel; diagnostics keep log order.
void loadModule(Module &M, const TraceSources &Sources, DiagnosticEngine &Diags,
                unsigned Threads = 0, bool WithUnits = true);

/// Reads the texts of the module's RawEvents from \p Sources (which must
/// outlive it).
std::unique_ptr<RawEventReader>
createRawEventReader(const TraceSources &Sources);
/// Reads the texts of \p M's RawEvents from their logs, opened again by
/// the paths in Module::Logs (an IR input that points into its logs): a
/// line whose xxHash64 is not the event's LineHash (the log changed or
/// moved) is not read. \p M must outlive it.
std::unique_ptr<RawEventReader> createLogFileRawReader(const Module &M);
/// Load the texts of every RawEvent of \p M (readTraceText, whose sources
/// do not outlive the read).
void loadRawEvents(Module &M, const TraceSources &Sources);

/// N from a `dedicated_log_torch_trace_rank_N...` file name.
llvm::Optional<int64_t> rankFromFileName(llvm::StringRef Path);

/// True if the first non-blank line of \p Text is a trace event line.
bool looksLikeTrace(llvm::StringRef Text);

/// Split an event line into its JSON envelope. Returns false if the line
/// does not have the `<L>MMDD hh:mm:ss.uuuuuu pid path:line] ` prefix.
bool splitEventLine(llvm::StringRef Line, llvm::StringRef &Json);

} // namespace tlp

#endif // TLP_PARSE_TRACEREADER_H
