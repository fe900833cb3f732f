//===- ArtifactLoader.cpp - Loading and parsing artifact payloads ---------===//
//
// The reader records where each payload is (Artifact::PayloadRef); loading
// decodes the payload lines from the log's bytes (drop the leading TAB and
// a trailing CR; a blank line is an empty payload line), repairs UTF-8, and
// runs the parser for the artifact's kind.
//
//===----------------------------------------------------------------------===//

#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Support/Parallel.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <mutex>

using namespace llvm;

namespace tlp {

static std::string decodePayload(StringRef Bytes) {
  std::string Text;
  Text.reserve(Bytes.size());
  const char *P = Bytes.begin(), *E = Bytes.end();
  bool First = true;
  while (true) {
    const char *NL = static_cast<const char *>(std::memchr(P, '\n', E - P));
    const char *LE = NL ? NL : E;
    StringRef L(P, LE - P);
    if (!L.empty() && L.back() == '\r')
      L = L.drop_back();
    if (!First)
      Text += '\n';
    First = false;
    if (!L.empty() && L[0] == '\t')
      Text.append(L.data() + 1, L.size() - 1);
    if (!NL)
      break;
    P = NL + 1;
  }
  return Text;
}

void loadArtifact(Artifact &A, const Module &M, const TraceSources &Sources,
                  DiagnosticEngine &Diags) {
  if (A.isLoaded())
    return;
  A.Payload.Loaded = true;
  std::string Name = M.logName(A.Log);
  // A file of a TORCH_COMPILE_DEBUG folder is the payload, as it is.
  bool File = A.Log < M.Logs.size() && M.Logs[A.Log].DebugFolder;
  std::string Text;
  if (A.Payload.Lines) {
    std::string Raw;
    if (!Sources.read(A.Log, A.Payload.Offset, A.Payload.Size, Raw)) {
      Diags.error(Name, A.Line,
                  "the payload of '" + A.Name + "' is no longer readable");
      return;
    }
    Text = File ? std::move(Raw) : decodePayload(Raw);
  }
  if (sanitizeUTF8(Text))
    Diags.warning(Name, File ? 0 : A.Line,
                  File ? std::string("not valid UTF-8; invalid bytes were "
                                     "replaced")
                       : "payload of '" + A.Name +
                             "' is not valid UTF-8; invalid bytes were "
                             "replaced");
  PayloadContext Ctx = File ? PayloadContext::forFile(Diags, Name, A.Name)
                            : PayloadContext(Diags, Name, A.Line, A.Name);
  if (auto *G = dyn_cast<GraphArtifact>(&A)) {
    G->Text = std::move(Text);
    parseFXGraph(*G, Ctx);
  } else if (auto *C = dyn_cast<CodeArtifact>(&A)) {
    C->Text = std::move(Text);
    if (A.getKind() == Artifact::AK_OutputCode)
      parsePythonWrapper(*C, Ctx);
    else
      parseCppCode(*C, Ctx);
  } else if (auto *Map = dyn_cast<MappingArtifact>(&A)) {
    parseNodeMappings(Text, *Map, Ctx);
  } else if (auto *S = dyn_cast<StackTraceArtifact>(&A)) {
    parseKernelStackTraces(Text, *S, Ctx);
  } else if (auto *K = dyn_cast<KernelInfoArtifact>(&A)) {
    parseKernelInfo(Text, *K, Ctx);
  } else if (auto *T = dyn_cast<NodeTreeArtifact>(&A)) {
    parseNodeTree(Text, *T, Ctx);
  } else if (auto *K = dyn_cast<KernelNodesArtifact>(&A)) {
    parseKernelNodes(Text, *K, Ctx);
  } else if (auto *S = dyn_cast<SchedulerIRArtifact>(&A)) {
    S->Text = std::move(Text);
    parseSchedulerIR(*S, Ctx);
  }
  Ctx.finish();
}

void loadUnit(CompileUnit &U, const Module &M, const TraceSources &Sources,
              DiagnosticEngine &Diags) {
  U.forEachArtifact(
      [&](UnitSlot, Artifact &A) { loadArtifact(A, M, Sources, Diags); });
}

void loadModule(Module &M, const TraceSources &Sources, DiagnosticEngine &Diags,
                unsigned Threads, bool WithUnits) {
  std::vector<Artifact *> Todo;
  for (std::unique_ptr<Artifact> &A : M.Artifacts)
    if (!A->isLoaded())
      Todo.push_back(A.get());
  if (WithUnits)
    for (std::unique_ptr<CompileUnit> &U : M.Units)
      U->forEachArtifact([&](UnitSlot, Artifact &A) {
        if (!A.isLoaded())
          Todo.push_back(&A);
      });
  parallelForOrdered(Todo.size(), Threads, Diags,
                     [&](size_t I, DiagnosticEngine &D) {
                       loadArtifact(*Todo[I], M, Sources, D);
                     });
}

namespace {
/// Reads a raw event's texts as byte ranges of its log: the event line
/// (checked against its hash when it has one) and the payload, decoded.
class SliceRawReader : public RawEventReader {
public:
  bool read(const RawEvent &E, std::string &Line,
            std::string &Text) const override {
    Line.clear();
    Text.clear();
    if (!slice(E.Log, E.LineOffset, E.LineSize, Line))
      return false;
    if (CheckHash && E.LineHash && xxHash64(Line) != E.LineHash)
      return false;
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    sanitizeUTF8(Line);
    if (E.PayloadLines) {
      std::string Raw;
      if (!slice(E.Log, E.PayloadOffset, E.PayloadSize, Raw))
        return false;
      Text = decodePayload(Raw);
      sanitizeUTF8(Text);
    }
    return true;
  }

protected:
  explicit SliceRawReader(bool CheckHash) : CheckHash(CheckHash) {}
  /// [Offset, Offset + Size) of log \p Log into \p Out; false if it is
  /// not there.
  virtual bool slice(uint32_t Log, uint64_t Offset, uint64_t Size,
                     std::string &Out) const = 0;

private:
  bool CheckHash;
};

/// The logs' bytes as the reader kept them (a log input).
class SourcesRawReader final : public SliceRawReader {
public:
  explicit SourcesRawReader(const TraceSources &Sources)
      : SliceRawReader(/*CheckHash=*/false), Sources(Sources) {}

private:
  bool slice(uint32_t Log, uint64_t Offset, uint64_t Size,
             std::string &Out) const override {
    return Log < Sources.size() && Sources.read(Log, Offset, Size, Out);
  }
  const TraceSources &Sources;
};

/// The logs opened again by their paths (an IR input that points into
/// them): positioned reads, the line checked against its hash.
class LogFileRawReader final : public SliceRawReader {
public:
  explicit LogFileRawReader(const Module &M)
      : SliceRawReader(/*CheckHash=*/true), M(M), Files(M.Logs.size()) {}
  ~LogFileRawReader() override {
    for (Optional<sys::fs::file_t> &F : Files)
      if (F && *F != sys::fs::kInvalidFile)
        sys::fs::closeFile(*F);
  }

private:
  bool slice(uint32_t Log, uint64_t Offset, uint64_t Size,
             std::string &Out) const override {
    if (Log >= Files.size())
      return false;
    sys::fs::file_t File;
    {
      // Opened once, by the first thread that asks (the HTML's raw pages
      // are rendered on the workers); the reads are positioned, so they
      // share the descriptor without a lock.
      std::lock_guard<std::mutex> Lock(FilesLock);
      Optional<sys::fs::file_t> &F = Files[Log];
      if (!F) {
        Expected<sys::fs::file_t> Opened =
            sys::fs::openNativeFileForRead(M.Logs[Log].Path);
        if (Opened) {
          F = *Opened;
        } else {
          consumeError(Opened.takeError());
          F = sys::fs::kInvalidFile;
        }
      }
      File = *F;
    }
    if (File == sys::fs::kInvalidFile)
      return false;
    Out.resize(Size);
    size_t Done = 0;
    while (Done < Size) {
      Expected<size_t> N = sys::fs::readNativeFileSlice(
          File, MutableArrayRef<char>(&Out[Done], Size - Done), Offset + Done);
      if (!N) {
        consumeError(N.takeError());
        return false;
      }
      if (*N == 0)
        return false; // the file is shorter now
      Done += *N;
    }
    return true;
  }
  const Module &M;
  mutable std::mutex FilesLock;
  mutable std::vector<Optional<sys::fs::file_t>> Files;
};
} // namespace

std::unique_ptr<RawEventReader> createLogFileRawReader(const Module &M) {
  return std::make_unique<LogFileRawReader>(M);
}

std::unique_ptr<RawEventReader>
createRawEventReader(const TraceSources &Sources) {
  return std::make_unique<SourcesRawReader>(Sources);
}

void loadRawEvents(Module &M, const TraceSources &Sources) {
  SourcesRawReader Reader(Sources);
  auto Load = [&](RawEvent &E) {
    if (E.Loaded)
      return;
    auto T = std::make_shared<RawEvent::Texts>();
    if (Reader.read(E, T->EventLine, T->Text))
      E.Loaded = std::move(T);
  };
  for (RawEvent &E : M.Raw)
    Load(E);
  for (CompileRecord &R : M.Compiles)
    for (RawEvent &E : R.Raw)
      Load(E);
}

} // namespace tlp
