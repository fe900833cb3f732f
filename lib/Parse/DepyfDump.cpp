//===- DepyfDump.cpp - Reading depyf dumps into the IR --------------------===//
//
// Part of tlp. The files of a depyf dump by name (PEERS.md section 3;
// docs/inputs.md):
//   __compiled_fn_N.<stage>.K.py    a graph as a stage of the pipeline left
//                                   it (K counts different contents)
//   __compiled_fn_N.kernel_K.py     a module Inductor loaded: the output
//                                   code (it has `def call(`) or a kernel's
//   __compiled_fn_N.kernel_K.best_config   the autotuner's choice
//   __transformed_code_K_for_F.py   Dynamo's code of cache entry K of F
//   full_code_for_F_K.py            F's dispatch, with the guards
// A unit is one output-code module with the AFTER_POST_GRAD graph of the
// same order in its graph's files (depyf writes the graph, then Inductor
// loads the module it generates from it).
//
//===----------------------------------------------------------------------===//

#include "tlp/Parse/DepyfDump.h"

#include "tlp/IR/InductorNames.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <tuple>
#include <set>

using namespace llvm;

namespace tlp {

/// depyfStageOrder() of a stage tlp does not know.
static constexpr unsigned UnknownStageOrder = 17;

namespace {

/// A number of a file name: digits only, at most 19 of them.
bool isDigits(StringRef S) {
  uint64_t V;
  return parseUnsigned(S, V);
}

/// The number \p S, which isDigits() accepted.
uint64_t num(StringRef S) {
  uint64_t V = 0;
  parseUnsigned(S, V);
  return V;
}

/// What a file name says it is.
struct DumpName {
  enum NameKind { Graph, KernelModule, BestConfig, DynamoCode, FullCode,
                  Bytecode, Lock, TraceLog, Unknown };
  NameKind Kind = Unknown;
  uint64_t Fn = 0;     ///< N of __compiled_fn_N
  std::string Stage;   ///< Graph: the stage as the name writes it
  uint64_t Counter = 0; ///< K
  std::string Function; ///< F of DynamoCode and FullCode
};

DumpName classify(StringRef Name) {
  DumpName D;
  if (Name.startswith("dedicated_log_torch_trace")) {
    D.Kind = DumpName::TraceLog;
    return D;
  }
  if (Name.endswith(".lock")) {
    D.Kind = DumpName::Lock;
    return D;
  }
  for (StringRef Suffix : {".original_bytecode", ".transformed_bytecode",
                           ".decompiled_and_compiled_back_bytecode"})
    if (Name.endswith(Suffix)) {
      D.Kind = DumpName::Bytecode;
      return D;
    }
  if (Name.consume_front("__transformed_code_")) {
    // K_for_F.py
    size_t For = Name.find("_for_");
    if (For == StringRef::npos || !Name.endswith(".py") ||
        !isDigits(Name.take_front(For)))
      return D;
    D.Kind = DumpName::DynamoCode;
    D.Counter = num(Name.take_front(For));
    D.Function = Name.substr(For + 5).drop_back(3).str();
    return D;
  }
  if (Name.consume_front("full_code_for_")) {
    // F_K.py
    if (!Name.consume_back(".py"))
      return D;
    size_t U = Name.rfind('_');
    if (U == StringRef::npos || !isDigits(Name.substr(U + 1)))
      return D;
    D.Kind = DumpName::FullCode;
    D.Function = Name.take_front(U).str();
    D.Counter = num(Name.substr(U + 1));
    return D;
  }
  if (!Name.consume_front("__compiled_fn_"))
    return D;
  StringRef N = Name.take_while([](char C) { return isDigit(C); });
  if (N.empty() || N.size() > 18)
    return D;
  D.Fn = num(N);
  Name = Name.drop_front(N.size());
  // Older depyf: `__compiled_fn_0 AFTER POST GRAD 0.py`.
  char Sep = Name.startswith(" ") ? ' ' : '.';
  if (Name.empty() || Name[0] != Sep)
    return D;
  Name = Name.drop_front();
  if (Name.consume_back(".best_config")) {
    if (!Name.consume_front("kernel_") || !isDigits(Name))
      return D;
    D.Kind = DumpName::BestConfig;
    D.Counter = num(Name);
    return D;
  }
  if (!Name.consume_back(".py"))
    return D;
  if (Name.startswith("kernel_") && isDigits(Name.drop_front(7))) {
    D.Kind = DumpName::KernelModule;
    D.Counter = num(Name.drop_front(7));
    return D;
  }
  size_t Dot = Name.rfind(Sep);
  if (Dot == StringRef::npos || !isDigits(Name.substr(Dot + 1)) || Dot == 0)
    return D;
  D.Kind = DumpName::Graph;
  D.Counter = num(Name.substr(Dot + 1));
  std::string Stage = Name.take_front(Dot).str();
  if (Sep == ' ')
    std::replace(Stage.begin(), Stage.end(), ' ', '_');
  D.Stage = Stage;
  return D;
}

/// `rank_3` -> 3, `rank_3_dp_1` -> 3 and DP 1.
bool rankFolder(StringRef Name, int64_t &Rank, Optional<int64_t> &DP) {
  if (!Name.consume_front("rank_"))
    return false;
  StringRef R = Name.take_while([](char C) { return isDigit(C); });
  if (R.empty() || R.size() > 9)
    return false;
  Name = Name.drop_front(R.size());
  Rank = static_cast<int64_t>(num(R));
  DP = None;
  if (Name.empty())
    return true;
  if (!Name.consume_front("_dp_") || !isDigits(Name) || Name.size() > 9)
    return false;
  DP = static_cast<int64_t>(num(Name));
  return true;
}

/// A dump folder: the dump's root or one of its rank folders.
struct Folder {
  std::string Path;
  Optional<int64_t> Rank;
  Optional<int64_t> DP;
  std::vector<std::string> Files;
};

std::vector<std::string> listFiles(StringRef Dir,
                                   std::vector<std::string> *Subdirs,
                                   DiagnosticEngine &Diags) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Name.startswith("."))
      continue;
    sys::fs::file_status St;
    if (std::error_code SEC = sys::fs::status(It->path(), St)) {
      Diags.warning(It->path(), 0, "skipped: " + SEC.message());
      continue;
    }
    if (St.type() == sys::fs::file_type::regular_file)
      Files.push_back(It->path());
    else if (St.type() == sys::fs::file_type::directory_file && Subdirs)
      Subdirs->push_back(It->path());
  }
  if (EC)
    Diags.warning(Dir, 0, "cannot list the folder: " + EC.message());
  llvm::sort(Files);
  if (Subdirs)
    llvm::sort(*Subdirs);
  return Files;
}

bool anyDumpFile(ArrayRef<std::string> Files) {
  return llvm::any_of(Files, [](const std::string &F) {
    DumpName::NameKind K = classify(sys::path::filename(F)).Kind;
    return K == DumpName::Graph || K == DumpName::KernelModule ||
           K == DumpName::DynamoCode || K == DumpName::FullCode;
  });
}

/// A file read, with its index in Module::Logs.
struct ReadFile {
  std::string Path;
  std::string Name; ///< display name
  uint32_t Log = 0;
  std::string Text;
  DumpName What;
};

/// The reader of one dump.
class DumpReader {
public:
  DumpReader(Module &M, DiagnosticEngine &Diags) : M(M), Diags(Diags) {}

  void readFolder(const Folder &F);
  void matchLogUnits(StringRef Dir, const TraceSources &Sources,
                     uint32_t FirstDumpLog);

  unsigned Units = 0, Files = 0, Skipped = 0, Bytecode = 0;

private:
  bool readFile(const std::string &Path, const DumpName &What,
                Optional<int64_t> Rank, ReadFile &Out);
  std::unique_ptr<GraphArtifact> graphOf(const ReadFile &F,
                                         Artifact::ArtifactKind K);

  Module &M;
  DiagnosticEngine &Diags;
  /// Units made so far (the first of this reader's in M.Units).
  size_t FirstUnit = SIZE_MAX;
};

bool DumpReader::readFile(const std::string &Path, const DumpName &What,
                          Optional<int64_t> Rank, ReadFile &Out) {
  Out.Path = Path;
  Out.Name = Path;
  Out.What = What;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf) {
    Diags.warning(Path, 0, "cannot read the file: " + Buf.getError().message());
    ++Skipped;
    return false;
  }
  if ((*Buf)->getBuffer().contains('\0')) {
    Diags.warning(Path, 0, "skipped: a binary file, not the Python text depyf "
                           "writes");
    ++Skipped;
    return false;
  }
  Out.Text = (*Buf)->getBuffer().str();
  Out.Log = static_cast<uint32_t>(M.Logs.size());
  LogFile L;
  L.Path = Path;
  L.Rank = Rank;
  L.DumpFile = true;
  M.Logs.push_back(L);
  ++Files;
  if (sanitizeUTF8(Out.Text))
    Diags.warning(Path, 0, "not valid UTF-8; invalid bytes were replaced");
  return true;
}

std::unique_ptr<GraphArtifact> DumpReader::graphOf(const ReadFile &F,
                                                   Artifact::ArtifactKind K) {
  auto G = std::make_unique<GraphArtifact>(K);
  G->Name = sys::path::filename(F.Path).str();
  G->Log = F.Log;
  G->Line = 1;
  G->Text = F.Text;
  PayloadContext Ctx(Diags, F.Name, 0, G->Name);
  parseFXGraph(*G, Ctx);
  Ctx.finish();
  if (G->Nodes.empty() && !trimWS(F.Text).empty())
    Diags.warning(F.Name, 1,
                  "no FX graph found (expected `class GraphModule` with a "
                  "`def forward`)");
  return G;
}

/// The name of the first `def NAME(` of \p Text, or "".
StringRef firstDefName(StringRef Text) {
  for (size_t P = Text.find("def "); P != StringRef::npos;
       P = Text.find("def ", P + 4)) {
    if (P && !(Text[P - 1] == '\n' || Text[P - 1] == ' '))
      continue;
    StringRef Rest = Text.substr(P + 4);
    StringRef Name = Rest.take_while(isIdentChar);
    if (!Name.empty() && Rest.drop_front(Name.size()).startswith("("))
      return Name;
  }
  return "";
}

/// The guard functions of a full_code file: (K, F) -> guards.
using GuardTable =
    std::map<std::pair<uint64_t, std::string>, std::vector<DynamoGuard>>;

void parseGuards(const ReadFile &F, GuardTable &Out) {
  std::vector<StringRef> Lines;
  splitLines(F.Text, Lines);
  std::vector<DynamoGuard> *Cur = nullptr;
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    StringRef T = L.ltrim(" ");
    if (L.startswith("def __guard_")) {
      // def __guard_K_for_F(L, G, ...):
      StringRef Name = L.drop_front(12).take_while(isIdentChar);
      size_t For = Name.find("_for_");
      Cur = nullptr;
      if (For == StringRef::npos || !isDigits(Name.take_front(For)))
        continue;
      Cur = &Out[{num(Name.take_front(For)),
                  Name.substr(For + 5).str()}];
      continue;
    }
    if (!L.empty() && L[0] != ' ' && L[0] != '#')
      Cur = nullptr;
    static const char Prefix[] = "__guard_hit = __guard_hit and ";
    if (!Cur || !T.startswith(Prefix))
      continue;
    StringRef Rest = T.drop_front(sizeof(Prefix) - 1);
    DynamoGuard G;
    G.Line = static_cast<uint32_t>(I + 1);
    // depyf pads the guard and puts its source after `  # `.
    size_t Hash = Rest.find("  # ");
    if (Hash != StringRef::npos) {
      G.Comment = Rest.substr(Hash + 4).trim().str();
      Rest = Rest.take_front(Hash);
    }
    G.Code = Rest.rtrim().str();
    Cur->push_back(std::move(G));
  }
}

void DumpReader::readFolder(const Folder &Dir) {
  if (FirstUnit == SIZE_MAX)
    FirstUnit = M.Units.size();
  // Files by graph (N), and the Dynamo files.
  struct FnFiles {
    std::map<std::string, std::vector<ReadFile>> Stages; // by stage
    std::vector<ReadFile> Kernels;                       // by K
    std::map<uint64_t, ReadFile> Configs;                // by K
  };
  std::map<uint64_t, FnFiles> Fns;
  std::vector<ReadFile> Dynamo, Full;
  for (const std::string &Path : Dir.Files) {
    DumpName What = classify(sys::path::filename(Path));
    switch (What.Kind) {
    case DumpName::TraceLog:
    case DumpName::Lock:
      continue;
    case DumpName::Bytecode:
      ++Bytecode;
      continue;
    case DumpName::Unknown:
      Diags.note(Path, 0, "skipped: not a file depyf writes");
      ++Skipped;
      continue;
    default:
      break;
    }
    ReadFile F;
    if (!readFile(Path, What, Dir.Rank, F))
      continue;
    switch (What.Kind) {
    case DumpName::Graph:
      Fns[What.Fn].Stages[What.Stage].push_back(std::move(F));
      break;
    case DumpName::KernelModule:
      Fns[What.Fn].Kernels.push_back(std::move(F));
      break;
    case DumpName::BestConfig:
      Fns[What.Fn].Configs[What.Counter] = std::move(F);
      break;
    case DumpName::DynamoCode:
      Dynamo.push_back(std::move(F));
      break;
    case DumpName::FullCode:
      Full.push_back(std::move(F));
      break;
    default:
      break;
    }
  }
  auto ByCounter = [](const ReadFile &A, const ReadFile &B) {
    return A.What.Counter < B.What.Counter;
  };
  for (auto &FnIt : Fns) {
    for (auto &S : FnIt.second.Stages)
      llvm::stable_sort(S.second, ByCounter);
    llvm::stable_sort(FnIt.second.Kernels, ByCounter);
  }

  std::string FnPrefix = Dir.DP ? "dp" + std::to_string(*Dir.DP) + "-" : "";
  auto FnName = [&](uint64_t N) {
    return FnPrefix + "__compiled_fn_" + std::to_string(N);
  };

  // The units: each output-code module with the AFTER_POST_GRAD graph of
  // the same order.
  struct Made {
    std::unique_ptr<CompileUnit> U;
    uint64_t FiledUnder = 0; ///< the N whose files hold it
    uint64_t Home = 0;       ///< the N of its graph (its AOT id's forward)
    std::string AotNumber;
    const ReadFile *Code = nullptr;
  };
  std::vector<Made> Out;
  std::map<std::string, uint64_t> ForwardOfAot; // AOT number -> N
  for (auto &FnIt : Fns) {
    FnFiles &FF = FnIt.second;
    std::vector<const ReadFile *> Codes, Others;
    for (const ReadFile &K : FF.Kernels)
      (StringRef(K.Text).contains("def call(") ? Codes : Others).push_back(&K);
    // The graph's AFTER_POST_GRAD files, none when it has none (looked up,
    // not made: an entry erased here would leave the reference dangling).
    static const std::vector<ReadFile> NoPosts;
    auto PostsIt = FF.Stages.find("AFTER_POST_GRAD");
    if (PostsIt != FF.Stages.end() && PostsIt->second.empty()) {
      FF.Stages.erase(PostsIt);
      PostsIt = FF.Stages.end();
    }
    const std::vector<ReadFile> &Posts =
        PostsIt == FF.Stages.end() ? NoPosts : PostsIt->second;
    size_t N = std::max(Codes.size(), Posts.size());
    if (Codes.size() != Posts.size() && !Codes.empty() && !Posts.empty())
      Diags.warning(Dir.Path, 0,
                    FnName(FnIt.first) + ": " + std::to_string(Posts.size()) +
                        " AFTER_POST_GRAD graphs and " +
                        std::to_string(Codes.size()) +
                        " output-code modules: paired in order as far as "
                        "they go (depyf writes a file once for the same "
                        "content, so a compile may have reused another's)");
    for (size_t I = 0; I < N; ++I) {
      Made D;
      D.U = std::make_unique<CompileUnit>();
      D.FiledUnder = D.Home = FnIt.first;
      if (I < Posts.size())
        D.U->PostGrad = graphOf(Posts[I], Artifact::AK_PostGradGraph);
      if (I < Codes.size()) {
        const ReadFile &C = *Codes[I];
        auto CA = std::make_unique<CodeArtifact>(Artifact::AK_OutputCode);
        CA->Name = sys::path::filename(C.Path).str();
        CA->Log = C.Log;
        CA->Line = 1;
        CA->Text = C.Text;
        PayloadContext Ctx(Diags, C.Name, 0, CA->Name);
        parsePythonWrapper(*CA, Ctx);
        Ctx.finish();
        D.Code = &C;
        D.U->Key.Graph = graphKindOfAotId(CA->AotId);
        StringRef Aot = CA->AotId;
        D.AotNumber = Aot.take_while([](char C) { return isDigit(C); }).str();
        D.U->Code = std::move(CA);
      }
      if (D.U->Key.Graph != GraphKind::Backward && !D.AotNumber.empty())
        ForwardOfAot.emplace(D.AotNumber, FnIt.first);
      Out.push_back(std::move(D));
    }
    // Kernel modules and configs that are not output code: the unit whose
    // code names the module's first function, else the graph's first unit.
    for (const ReadFile *K : Others) {
      StringRef Def = firstDefName(K->Text);
      Made *Owner = nullptr;
      for (Made &D : Out)
        if (D.FiledUnder == FnIt.first && !Owner)
          Owner = &D;
      for (Made &D : Out)
        if (D.U->Code && !Def.empty() &&
            findToken(D.U->Code->Text, Def) != StringRef::npos) {
          Owner = &D;
          break;
        }
      if (!Owner) {
        Diags.warning(K->Name, 0,
                      "a kernel module of a graph without output code; "
                      "not shown");
        continue;
      }
      UnitFile UF;
      UF.Kind = UnitFile::KernelModule;
      UF.Log = K->Log;
      UF.Text = K->Text;
      Owner->U->Files.push_back(std::move(UF));
      auto Cfg = FF.Configs.find(K->What.Counter);
      if (Cfg != FF.Configs.end()) {
        UnitFile CF;
        CF.Kind = UnitFile::BestConfig;
        CF.Log = Cfg->second.Log;
        CF.Text = Cfg->second.Text;
        Owner->U->Files.push_back(std::move(CF));
        FF.Configs.erase(Cfg);
      }
    }
    for (auto &Cfg : FF.Configs)
      Diags.warning(Cfg.second.Name, 0,
                    "an autotune config without its kernel module "
                    "(kernel_" + std::to_string(Cfg.first) + ".py); not shown");
  }

  // A backward that depyf filed under a later graph (compiled lazily, when
  // that graph was current): its AOT id names its forward's graph.
  for (Made &D : Out) {
    if (D.U->Key.Graph != GraphKind::Backward || D.AotNumber.empty())
      continue;
    auto It = ForwardOfAot.find(D.AotNumber);
    if (It == ForwardOfAot.end() || It->second == D.FiledUnder)
      continue;
    D.Home = It->second;
    Diags.note(D.Code->Name, 1,
               "depyf filed this backward under " + FnName(D.FiledUnder) +
                   " (the graph current when it was compiled); its AOT ID '" +
                   D.U->Code->AotId + "' is that of " + FnName(D.Home) +
                   "'s forward, so it is read as " + FnName(D.Home) +
                   "'s backward");
  }

  // Stages, pre-grad graphs and keys, per home graph.
  for (auto &FnIt : Fns) {
    uint64_t N = FnIt.first;
    std::vector<Made *> Fwd, Bwd;
    for (Made &D : Out)
      if (D.Home == N)
        (D.U->Key.Graph == GraphKind::Backward ? Bwd : Fwd).push_back(&D);
    if (Fwd.empty() && Bwd.empty()) {
      if (!FnIt.second.Stages.empty())
        Diags.note(Dir.Path, 0,
                   FnName(N) + ": graphs without output code (no "
                               "kernel_K.py with `def call(`): no unit");
      continue;
    }
    for (auto &S : FnIt.second.Stages) {
      if (S.first == "AFTER_POST_GRAD")
        continue;
      bool Backward = S.first == "Backward_graph";
      // The joint graph (and tensorify_python_scalars, which runs on it in
      // training, or on the inference graph) comes before the partition:
      // it is in the timelines of both the forward and the backward.
      bool Joint = S.first == "Joint_graph";
      bool Both = Joint || S.first == "tensorify_python_scalars";
      std::vector<Made *> Takers;
      if (Backward || Both)
        Takers.insert(Takers.end(), Bwd.begin(), Bwd.end());
      if (!Backward) {
        std::vector<Made *> F = Fwd;
        if (Joint)
          llvm::erase_if(F, [](Made *D) {
            return D->U->Key.Graph == GraphKind::Inference;
          });
        Takers.insert(Takers.begin(), F.begin(), F.end());
      }
      std::vector<ReadFile> &Files = S.second;
      bool Paired = Files.size() == Takers.size() ||
                    (Both && Files.size() == Bwd.size() && !Bwd.empty());
      if (!Paired && Files.size() > 1 && !Takers.empty())
        Diags.note(Files.front().Name, 0,
                   FnName(N) + ": " + std::to_string(Files.size()) + " '" +
                       S.first + "' graphs for " +
                       std::to_string(Takers.size()) +
                       " compiles: each compile's timeline lists them all");
      for (size_t I = 0; I < Takers.size(); ++I) {
        Made &D = *Takers[I];
        size_t Lo = 0, Hi = Files.size();
        if (Paired) {
          size_t J = I;
          if (Both && Files.size() == Bwd.size() &&
              Files.size() != Takers.size())
            J = D.U->Key.Graph == GraphKind::Backward
                    ? llvm::find(Bwd, &D) - Bwd.begin()
                    : std::min<size_t>(I, Files.size() - 1);
          Lo = J;
          Hi = J + 1;
        }
        for (size_t J = Lo; J < Hi && J < Files.size(); ++J) {
          Artifact::ArtifactKind K = depyfStageOrder(S.first, false) <=
                                             depyfStageOrder("BEFORE_PRE_GRAD",
                                                             false)
                                         ? Artifact::AK_PreGradGraph
                                         : Artifact::AK_PostGradGraph;
          PassStage PS;
          PS.Stage = S.first;
          PS.Graph = graphOf(Files[J], K);
          if (S.first == "BEFORE_PRE_GRAD" && !D.U->PreGrad)
            D.U->PreGrad.reset(
                cast<GraphArtifact>(PS.Graph->clone().release()));
          D.U->Stages.push_back(std::move(PS));
        }
      }
    }
    for (Made *D : Bwd)
      if (!D->U->PreGrad) {
        // Inductor's backward has the forward's pre-grad graph, as a log's
        // units of a compile id share it.
        for (Made *F : Fwd)
          if (F->U->PreGrad) {
            D->U->PreGrad.reset(
                cast<GraphArtifact>(F->U->PreGrad->clone().release()));
            break;
          }
      }
    for (Made *D : llvm::concat<Made *>(Fwd, Bwd)) {
      if (D->U->PostGrad) {
        PassStage PS;
        PS.Stage = "AFTER_POST_GRAD";
        PS.Graph.reset(cast<GraphArtifact>(D->U->PostGrad->clone().release()));
        D->U->Stages.push_back(std::move(PS));
      }
      bool Joint = llvm::any_of(D->U->Stages, [](const PassStage &S) {
        return S.Stage == "Joint_graph";
      });
      llvm::stable_sort(D->U->Stages,
                        [Joint](const PassStage &A, const PassStage &B) {
                          unsigned OA = depyfStageOrder(A.Stage, Joint),
                                   OB = depyfStageOrder(B.Stage, Joint);
                          if (OA != OB)
                            return OA < OB;
                          return OA == UnknownStageOrder &&
                                 A.Graph->Name < B.Graph->Name;
                        });
    }
  }

  // Dynamo's code and guards, with the units of the graph it calls.
  GuardTable Guards;
  std::map<std::pair<uint64_t, std::string>, uint32_t> GuardLogs;
  for (const ReadFile &F : Full) {
    GuardTable One;
    parseGuards(F, One);
    for (auto &G : One) {
      GuardLogs[G.first] = F.Log;
      Guards[G.first] = std::move(G.second);
    }
  }
  for (const ReadFile &F : Dynamo) {
    size_t P = F.Text.find("__compiled_fn_");
    StringRef Digits =
        P == std::string::npos
            ? StringRef()
            : StringRef(F.Text).substr(P + 14).take_while(
                  [](char C) { return isDigit(C); });
    std::vector<Made *> Takers;
    for (Made &D : Out)
      if (!Digits.empty() && Digits.size() < 19 &&
          D.Home == num(Digits) &&
          D.U->Key.Graph != GraphKind::Backward)
        Takers.push_back(&D);
    if (Takers.empty()) {
      Diags.note(F.Name, 0,
                 "Dynamo's code calls no graph of the dump that has a unit; "
                 "not shown");
      continue;
    }
    std::pair<uint64_t, std::string> Key{F.What.Counter, F.What.Function};
    for (Made *D : Takers) {
      UnitFile UF;
      UF.Kind = UnitFile::DynamoCode;
      UF.Log = F.Log;
      UF.Text = F.Text;
      auto G = Guards.find(Key);
      if (G != Guards.end()) {
        UF.GuardLog = GuardLogs[Key];
        UF.Guards = G->second;
      }
      D->U->Files.push_back(std::move(UF));
    }
  }

  // Keys: graph kind order within the home graph.
  std::map<std::pair<uint64_t, GraphKind>, uint32_t> Ordinals;
  llvm::stable_sort(Out, [](const Made &A, const Made &B) {
    return A.Home < B.Home;
  });
  for (Made &D : Out) {
    D.U->Key.Log = D.U->Code ? D.U->Code->Log : D.U->PostGrad->Log;
    D.U->Key.Rank = Dir.Rank;
    D.U->Key.Fn = FnName(D.Home);
    D.U->Key.Ordinal = Ordinals[{D.Home, D.U->Key.Graph}]++;
    if (D.U->Key.Graph == GraphKind::Unknown && D.U->Code)
      Diags.warning(D.Code->Name, 1,
                    "graph kind unknown: no '# AOT ID:' line in the output "
                    "code");
    else if (!D.U->Code)
      Diags.warning(M.logName(D.U->PostGrad->Log), 0,
                    "graph kind unknown: no output code to say which");
    ++Units;
    M.Units.push_back(std::move(D.U));
  }
}

void DumpReader::matchLogUnits(StringRef Dir, const TraceSources &Sources,
                               uint32_t FirstDumpLog) {
  if (FirstDumpLog == 0 || FirstUnit == SIZE_MAX)
    return;
  // The output codes of the logs, by text.
  std::map<std::string, std::pair<uint32_t, uint32_t>, std::less<>> Codes;
  for (std::unique_ptr<Artifact> &A : M.Artifacts) {
    if (A->getKind() != Artifact::AK_OutputCode || A->Log >= FirstDumpLog)
      continue;
    // Loaded now (its diagnostics now, once), not again with its unit.
    if (!A->isLoaded())
      loadArtifact(*A, M, Sources, Diags);
    auto *C = cast<CodeArtifact>(A.get());
    Codes.emplace(StringRef(C->Text).rtrim("\n").str(),
                  std::make_pair(A->Log, A->Line));
  }
  unsigned Matched = 0;
  for (size_t I = FirstUnit; I < M.Units.size(); ++I) {
    CompileUnit &U = *M.Units[I];
    if (!U.Code)
      continue;
    auto It = Codes.find(StringRef(U.Code->Text).rtrim("\n"));
    if (It == Codes.end())
      continue;
    U.SameCodeAs = It->second;
    ++Matched;
  }
  if (!Codes.empty())
    Diags.note(Dir, 0,
               "depyf dump and TORCH_TRACE log of the same folder: " +
                   std::to_string(Matched) + " of " +
                   std::to_string(M.Units.size() - FirstUnit) +
                   " depyf compiles have the same output code as a log's "
                   "compile and are read as that compile");
}

} // namespace

unsigned depyfStageOrder(StringRef Stage, bool Joint) {
  // PyTorch 2.13: Dynamo's graph, its runtime asserts inserted, (vLLM's
  // split), Inductor's pre-grad passes (compile_fx, before AOTAutograd),
  // AOTAutograd's joint graph (logged before tensorify_python_scalars
  // runs on it), its partition; in inference the forward graph is logged
  // before tensorify_python_scalars runs on it. Then Inductor's post-grad
  // passes.
  if (Stage == "Captured_Graph" || Stage.startswith("__compiled_fn_"))
    return 0;
  if (Stage.startswith("pre_insert_deferred_runtime_asserts"))
    return 2;
  if (Stage == "before_split")
    return 4;
  if (Stage == "after_split")
    return 6;
  if (Stage == "BEFORE_PRE_GRAD")
    return 8;
  if (Stage == "Joint_graph")
    return 10;
  if (Stage == "tensorify_python_scalars")
    return Joint ? 12 : 15;
  if (Stage == "Forward_graph" || Stage == "Backward_graph")
    return 14;
  if (Stage == "AFTER_POST_GRAD")
    return 18;
  // A stage tlp does not know (a pass of its own a user logged with
  // lazy_format_graph_code): before the unit's post-grad graph, which ends
  // every timeline.
  return UnknownStageOrder;
}

bool looksLikeDepyfDump(StringRef Dir) {
  if (!sys::fs::is_directory(Dir))
    return false;
  DiagnosticEngine Quiet;
  std::vector<std::string> Subdirs;
  if (anyDumpFile(listFiles(Dir, &Subdirs, Quiet)))
    return true;
  for (const std::string &S : Subdirs) {
    int64_t Rank;
    Optional<int64_t> DP;
    if (rankFolder(sys::path::filename(S), Rank, DP) &&
        anyDumpFile(listFiles(S, nullptr, Quiet)))
      return true;
  }
  return false;
}

Error readDepyfDump(StringRef Dir, Module &M, TraceSources &Sources,
                    DiagnosticEngine &Diags, const ReadOptions &Opts) {
  std::vector<std::string> Subdirs;
  Folder Root;
  Root.Path = Dir.str();
  Root.Files = listFiles(Dir, &Subdirs, Diags);
  // The logs of the folder first: their indices in Module::Logs are those
  // of the reader's sources.
  for (const std::string &F : Root.Files) {
    if (classify(sys::path::filename(F)).Kind != DumpName::TraceLog)
      continue;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(F, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!Buf) {
      Diags.warning(F, 0, "cannot read the log: " + Buf.getError().message());
      continue;
    }
    readTraceBuffer(std::move(*Buf), F, F, rankFromFileName(F), M, Sources,
                    Diags, Opts);
  }
  uint32_t FirstDumpLog = static_cast<uint32_t>(M.Logs.size());
  DumpReader R(M, Diags);
  std::vector<Folder> Folders;
  Folders.push_back(std::move(Root));
  for (const std::string &S : Subdirs) {
    Folder F;
    int64_t Rank;
    if (!rankFolder(sys::path::filename(S), Rank, F.DP)) {
      Diags.note(S, 0, "skipped: a folder not named rank_N or rank_N_dp_M");
      continue;
    }
    F.Rank = Rank;
    F.Path = S;
    F.Files = listFiles(S, nullptr, Diags);
    Folders.push_back(std::move(F));
  }
  for (const Folder &F : Folders)
    R.readFolder(F);
  R.matchLogUnits(Dir, Sources, FirstDumpLog);
  if (FirstDumpLog == 0) // else group-compile-ids sorts the units
    llvm::stable_sort(M.Units, [](const std::unique_ptr<CompileUnit> &A,
                                  const std::unique_ptr<CompileUnit> &B) {
      return A->Key < B->Key;
    });
  if (!R.Files && FirstDumpLog == 0)
    return createStringError(std::errc::no_such_file_or_directory,
                             "no file of a depyf dump could be read in '%s'",
                             Dir.str().c_str());
  std::string What =
      "depyf dump: " + std::to_string(R.Units) + " compile" +
      (R.Units == 1 ? "" : "s") + " from " + std::to_string(R.Files) +
      " file" + (R.Files == 1 ? "" : "s") +
      "; a dump has no provenance mapping (graphs, nodes and kernels are "
      "linked by inference) and no compile ids (__compiled_fn_N is "
      "Dynamo's counter of graphs, not a compile id)";
  if (R.Bytecode)
    What += "; " + std::to_string(R.Bytecode) +
            " bytecode file(s) (dill pickles) not read";
  if (R.Skipped)
    What += "; " + std::to_string(R.Skipped) + " file(s) skipped (said above)";
  Diags.note(Dir, 0, What);
  return Error::success();
}

} // namespace tlp
