//===- CompileDebugReader.cpp - TORCH_COMPILE_DEBUG folders ---------------===//
//
// A graph folder (`model__0_forward_1.0`, named `{model}__{aot id}_{graph}_
// {nth graph}.{n}` by torch/_inductor/debug.py) becomes a compile unit:
// fx_graph_transformed.py the post-grad graph, output_code.py the wrapper
// (a .cpp file: AOTInductor's), the provenance JSON the mapping,
// ir_pre_fusion.txt / ir_post_fusion.txt the scheduler IR. Each file is an
// entry of Module::Logs (the folder itself one too, before its files), read
// whole and parsed as it is.
//
//===----------------------------------------------------------------------===//

#include "tlp/Parse/CompileDebugReader.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/IR/InductorNames.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;

namespace tlp {

namespace {

/// The files of a graph folder tlp reads, and what each becomes.
enum class DebugFileRole {
  PostGrad,
  Code,
  AOTCode,
  Mapping,
  KernelNodes,
  PreFusion,
  PostFusion,
  Raw,
  /// Known, not read (logs, profiles, diagrams).
  NotRead,
  Unknown,
};

DebugFileRole roleOf(StringRef Name) {
  if (Name == "fx_graph_transformed.py")
    return DebugFileRole::PostGrad;
  if (Name == "output_code.py")
    return DebugFileRole::Code;
  if (Name.endswith(".cpp"))
    return DebugFileRole::AOTCode;
  if (Name == "inductor_provenance_tracking_node_mappings.json")
    return DebugFileRole::Mapping;
  if (Name == "inductor_generated_kernel_to_post_grad_nodes.json")
    return DebugFileRole::KernelNodes;
  if (Name == "ir_pre_fusion.txt")
    return DebugFileRole::PreFusion;
  if (Name == "ir_post_fusion.txt")
    return DebugFileRole::PostFusion;
  if (Name == "fx_graph_readable.py" || Name == "fx_graph_runnable.py")
    return DebugFileRole::Raw;
  if (Name == "debug.log" || Name == "info.log" || Name == "compile.prof" ||
      Name == "compile.stats" || Name.endswith(".svg") ||
      Name.endswith(".tar.gz") || Name == "autotuning_result_json_list.txt" ||
      Name == "collective_schedule.json")
    return DebugFileRole::NotRead;
  return DebugFileRole::Unknown;
}

bool isDir(StringRef P) { return sys::fs::is_directory(P); }

/// `model__0_forward_1.0`: the AOT id (`0_forward`) and the graph kind.
bool parseGraphFolderName(StringRef Name, std::string &AotId,
                          GraphKind &Kind) {
  size_t Sep = Name.find("__");
  if (Sep == StringRef::npos)
    return false;
  StringRef Rest = Name.substr(Sep + 2);
  StringRef Digits = Rest.take_while([](char C) { return isDigit(C); });
  if (Digits.empty())
    return false;
  Rest = Rest.drop_front(Digits.size());
  for (auto [Word, K] : {std::make_pair("_forward_", GraphKind::Forward),
                         std::make_pair("_backward_", GraphKind::Backward),
                         std::make_pair("_inference_", GraphKind::Inference)})
    if (Rest.startswith(Word)) {
      StringRef Tail = Rest.drop_front(strlen(Word));
      StringRef Nth = Tail.take_while([](char C) { return isDigit(C); });
      if (Nth.empty() || !Tail.drop_front(Nth.size()).startswith("."))
        return false;
      AotId = Digits.str() + "_" + StringRef(Word).trim('_').str();
      Kind = K;
      return true;
    }
  return false;
}

/// The entries of \p Path, sorted; hidden ones left out.
std::vector<std::string> listDir(StringRef Path) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
       It.increment(EC))
    if (!sys::path::filename(It->path()).startswith("."))
      Out.push_back(It->path());
  llvm::sort(Out);
  return Out;
}

bool hasGraphFiles(StringRef Path) {
  for (const char *F : {"output_code.py", "fx_graph_transformed.py",
                        "ir_post_fusion.txt", "fx_graph_readable.py"}) {
    SmallString<256> P(Path);
    sys::path::append(P, F);
    if (sys::fs::exists(P))
      return true;
  }
  return false;
}

/// The pid in `run_2025_08_19_12_42_50_123456-pid_888578`, looked for in
/// the folders above \p Path.
Optional<int64_t> pidOf(StringRef Path) {
  for (StringRef P = Path; !P.empty(); P = sys::path::parent_path(P)) {
    StringRef Name = sys::path::filename(P);
    size_t At = Name.rfind("-pid_");
    if (!Name.startswith("run_") || At == StringRef::npos)
      continue;
    uint64_t Pid;
    if (parseUnsigned(Name.substr(At + 5), Pid))
      return static_cast<int64_t>(Pid);
    return None;
  }
  return None;
}

std::string md5Hex(StringRef Text) {
  MD5 H;
  H.update(Text);
  MD5::MD5Result R;
  H.final(R);
  return R.digest().str().str();
}

void collect(StringRef Path, unsigned Depth, std::vector<std::string> &Out,
             std::vector<std::string> *EmptyRuns) {
  DebugLayout L = classifyDebugDirectory(Path);
  if (L == DebugLayout::Graph) {
    Out.push_back(Path.str());
    return;
  }
  size_t Before = Out.size();
  if (Depth > 4)
    return;
  for (const std::string &E : listDir(Path)) {
    if (!isDir(E))
      continue;
    DebugLayout Sub = classifyDebugDirectory(E);
    // Below a layout, only its own kinds of folder; at the top, the
    // folders any layout has (a job directory holding torch_compile_debug).
    if (Sub == DebugLayout::None) {
      // A job directory's `work/torch_compile_debug`: one level more at
      // the top.
      SmallString<256> Root(E);
      sys::path::append(Root, "torch_compile_debug");
      if (Depth == 0 && L == DebugLayout::None && isDir(Root))
        collect(Root, Depth + 1, Out, EmptyRuns);
      continue;
    }
    if (L == DebugLayout::Inductor && Sub != DebugLayout::Graph)
      continue;
    collect(E, Depth + 1, Out, EmptyRuns);
  }
  if (EmptyRuns && L == DebugLayout::Run && Out.size() == Before)
    EmptyRuns->push_back(Path.str());
}

} // namespace

DebugLayout classifyDebugDirectory(StringRef Path) {
  if (!isDir(Path))
    return DebugLayout::None;
  StringRef Name = sys::path::filename(Path);
  if (Name.empty() || Name == ".")
    Name = sys::path::filename(sys::path::parent_path(Path));
  std::string AotId;
  GraphKind Kind;
  if (parseGraphFolderName(Name, AotId, Kind) || hasGraphFiles(Path))
    return DebugLayout::Graph;
  if (Name == "torchinductor")
    return DebugLayout::Inductor;
  SmallString<256> Sub(Path);
  sys::path::append(Sub, "torchinductor");
  if (Name.startswith("run_") || isDir(Sub))
    return isDir(Sub) ? DebugLayout::Run : DebugLayout::None;
  if (Name == "torch_compile_debug")
    return DebugLayout::Root;
  return DebugLayout::None;
}

std::vector<std::string>
findDebugGraphFolders(StringRef Path, std::vector<std::string> *EmptyRuns) {
  std::vector<std::string> Out;
  collect(Path, 0, Out, EmptyRuns);
  llvm::sort(Out);
  return Out;
}

void readDebugGraphFolders(ArrayRef<std::string> Folders, Module &M,
                           TraceSources &Sources, DiagnosticEngine &Diags,
                           bool Lazy) {
  // Folders of the same name (two runs): their unit ids name their log.
  std::map<std::string, unsigned> NameCount;
  for (const std::string &F : Folders)
    ++NameCount[sys::path::filename(F).str()];

  for (const std::string &Folder : Folders) {
    std::string Name = sys::path::filename(Folder).str();
    auto U = std::make_unique<CompileUnit>();
    U->Key.Folder = Name;
    U->Key.Log = M.Logs.size();
    U->Key.LogInId = NameCount[Name] > 1;
    Optional<int64_t> Pid = pidOf(Folder);
    LogFile Dir;
    Dir.Path = Folder;
    Dir.DebugFolder = true;
    Dir.Pid = Pid;
    M.Logs.push_back(Dir);
    std::string AotId;
    GraphKind Kind = GraphKind::Unknown;
    if (!parseGraphFolderName(Name, AotId, Kind))
      Diags.note(Folder, 0,
                 "graph kind unknown: the folder's name is not "
                 "'model__<aot id>_<forward|backward|inference>_<n>.<n>'");
    U->Key.Graph = Kind;

    std::vector<std::string> Unknown;
    for (const std::string &File : listDir(Folder)) {
      StringRef FileName = sys::path::filename(File);
      DebugFileRole Role = roleOf(FileName);
      if (Role == DebugFileRole::NotRead)
        continue;
      if (Role == DebugFileRole::Unknown) {
        Unknown.push_back(FileName.str());
        continue;
      }
      if (!sys::fs::is_regular_file(File)) {
        Diags.warning(File, 0, "not a regular file; not read");
        continue;
      }
      // Mapped when large; no second descriptor per file (a tree may hold
      // thousands): MappedFile::read copies from the mapping.
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
          MemoryBuffer::getFile(File, /*IsText=*/false,
                                /*RequiresNullTerminator=*/false);
      if (!Buf) {
        Diags.warning(File, 0, "cannot read: " + Buf.getError().message());
        continue;
      }
      uint32_t Log = M.Logs.size();
      LogFile L;
      L.Path = File;
      L.DebugFolder = true;
      M.Logs.push_back(L);
      // Module::Logs and the sources stay in step.
      while (Sources.size() < Log)
        Sources.add(nullptr);
      Sources.add(std::move(*Buf));
      StringRef Bytes = Sources.bytes(Log);
      if (Role == DebugFileRole::Raw) {
        // Shown raw, with its text (no loader reads a raw event of a file).
        RawEvent E;
        E.Name = internSpanText("file:" + FileName.str());
        E.Log = Log;
        E.Line = 1;
        std::string Text = Bytes.str();
        sanitizeUTF8(Text);
        E.PayloadLines =
            Text.empty() ? 0 : 1 + StringRef(Text).rtrim('\n').count('\n');
        auto T = std::make_shared<RawEvent::Texts>();
        T->EventLine = File;
        T->Text = std::move(Text);
        E.Loaded = std::move(T);
        M.Raw.push_back(std::move(E));
        continue;
      }
      Artifact::ArtifactKind K = Artifact::AK_PostGradGraph;
      switch (Role) {
      case DebugFileRole::PostGrad:
        K = Artifact::AK_PostGradGraph;
        break;
      case DebugFileRole::Code:
        K = Artifact::AK_OutputCode;
        break;
      case DebugFileRole::AOTCode:
        K = Artifact::AK_AOTWrapperCode;
        break;
      case DebugFileRole::Mapping:
        K = Artifact::AK_NodeMappings;
        break;
      case DebugFileRole::KernelNodes:
        K = Artifact::AK_KernelToPostGradNodes;
        break;
      case DebugFileRole::PreFusion:
        K = Artifact::AK_IRPreFusion;
        break;
      case DebugFileRole::PostFusion:
        K = Artifact::AK_IRPostFusion;
        break;
      case DebugFileRole::Raw:
      case DebugFileRole::NotRead:
      case DebugFileRole::Unknown:
        break;
      }
      UnitSlot Slot = unitSlotOf(K);
      if (Artifact *Had = U->slot(Slot)) {
        Diags.warning(File, 0,
                      "a second " + unitSlotTitle(Slot) +
                          " in the folder; '" + Had->Name +
                          "' is read, this one is not");
        continue;
      }
      std::unique_ptr<Artifact> A = createArtifact(K);
      A->Name = FileName.str();
      A->Log = Log;
      A->Line = 1; // the file begins the artifact
      // Loaded with its unit (loadArtifact reads a folder's file as it is).
      A->Payload.Offset = 0;
      A->Payload.Size = Bytes.size();
      A->Payload.Lines = Bytes.empty() ? 0 : 1;
      A->Payload.Loaded = false;
      if (auto *C = dyn_cast<CodeArtifact>(A.get())) {
        // What matching and grouping need before the code is parsed.
        C->Md5 = md5Hex(Bytes);
        if (Optional<std::string> Id = aotIdOfLine(
                Bytes.take_until([](char C) { return C == '\n'; })))
          C->AotId = std::move(*Id);
        if (C->AotId.empty()) {
          C->AotId = AotId;
          sanitizeUTF8(C->AotId); // the folder's name
        }
      }
      Artifact *Raw = A.get();
      U->setSlot(std::move(A));
      if (!Lazy)
        loadArtifact(*Raw, M, Sources, Diags);
    }
    if (!Unknown.empty())
      Diags.note(Folder, 0,
                 "files tlp does not know in a TORCH_COMPILE_DEBUG folder, "
                 "not read: " + llvm::join(Unknown, ", "));

    // What the folder lacks, said once.
    std::vector<std::string> Lacks;
    if (!U->PostGrad)
      Lacks.push_back("fx_graph_transformed.py (no post-grad graph)");
    if (!U->Code)
      Lacks.push_back("output_code.py (no kernels)");
    if (!U->PostFusion)
      Lacks.push_back("ir_post_fusion.txt (no scheduler nodes)");
    if (!U->Mapping && !U->KernelNodes)
      Lacks.push_back("the provenance mapping (links are inferred)");
    bool Any = false;
    U->forEachArtifact([&](UnitSlot, const Artifact &) { Any = true; });
    if (!Any) {
      Diags.warning(Folder, 0,
                    "nothing tlp reads in this TORCH_COMPILE_DEBUG folder; "
                    "no unit");
      continue;
    }
    std::string Msg = "unit " + U->Key.displayName() +
                      ": read from a TORCH_COMPILE_DEBUG folder, which has "
                      "no pre-grad graph and no compile id";
    if (Pid)
      Msg += " (process " + std::to_string(*Pid) + ")";
    if (!Lacks.empty())
      Msg += "; it lacks " + llvm::join(Lacks, ", ");
    Diags.note(Folder, 0, Msg);
    M.Units.push_back(std::move(U));
  }
}

} // namespace tlp
