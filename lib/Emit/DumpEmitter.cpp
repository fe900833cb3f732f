//===- DumpEmitter.cpp - Readable files per unit, linked ------------------===//
//
// docs/dump.md describes the output. `-o DIR` gets a folder per unit, named
// by its id (0-0-forward), with the unit's graphs and code as files
// (pre_grad.py, post_grad.py, output_code.py or wrapper.cpp and kernel.cpp)
// and one file per kernel definition under kernels/. Lines keep their
// numbers: provenance notes are appended to node and call lines as
// comments that start with "tlp:", and kernel files start with a short
// header. A file whose content was already written (the pre-grad graph
// that a forward and a backward unit share, a kernel every rank compiled
// the same) is written once; later places get a relative symbolic link to
// it. DIR/index.md lists the units and their files.
//
//===----------------------------------------------------------------------===//

#include "EmitSupport.h"

#include "tlp/Emit/Emitter.h"
#include "tlp/IR/Provenance.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/StringUtils.h"
#include "tlp/Support/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace tlp {

using namespace emit;

namespace {

const size_t MaxNames = 8;

std::string joinNames(const std::vector<std::string> &Names,
                      size_t Max = MaxNames) {
  std::string S;
  for (size_t I = 0; I < Names.size() && I < Max; ++I)
    S += (I ? ", " : "") + Names[I];
  if (Names.size() > Max)
    S += " (+" + std::to_string(Names.size() - Max) + " more)";
  return S;
}

/// A file name made of [A-Za-z0-9_.-] only.
std::string safeFileName(StringRef Name) {
  std::string S;
  for (char C : Name)
    S += (isIdentChar(C) || C == '.' || C == '-') ? C : '_';
  if (S.empty() || S == "." || S == "..")
    S = "_" + S;
  // File names hold 255 bytes. A longer name keeps its first 180
  // characters and gets 16 hex digits of the full name's MD5: the same
  // name always gives the same file, two long names sharing a prefix do
  // not clash, and "-2", ".py" still fit.
  if (S.size() > 200) {
    MD5 Hash;
    Hash.update(Name);
    MD5::MD5Result R;
    Hash.final(R);
    SmallString<32> Hex = R.digest();
    S = S.substr(0, 180) + "-" + Hex.str().substr(0, 16).str();
  }
  return S;
}

/// Append " <comment> tlp: <note>" to the given lines of \p Text; the
/// result has the same lines. Lines that end in a backslash continuation
/// are left alone.
std::string annotate(StringRef Text,
                     const std::map<uint32_t, std::string> &Notes,
                     StringRef Comment) {
  std::vector<StringRef> Lines;
  splitLines(Text, Lines);
  std::string Out;
  Out.reserve(Text.size() + Notes.size() * 40);
  for (uint32_t I = 0; I < Lines.size(); ++I) {
    if (I)
      Out += '\n';
    StringRef L = Lines[I];
    Out += L.str();
    auto It = Notes.find(I + 1);
    if (It == Notes.end() || It->second.empty() || L.rtrim().endswith("\\"))
      continue;
    Out += "  " + Comment.str() + " tlp: " + It->second;
  }
  return Out;
}

/// \p Text, a line break if it does not end with one, and the footer.
std::string withFooter(std::string Text, StringRef Comment) {
  if (!Text.empty() && Text.back() != '\n')
    Text += '\n';
  return Text + Comment.str() +
         " tlp: notes that start with \"tlp:\" were added by tlp-emit --dump "
         "(tlp " TLP_VERSION_STRING
         "); every other line is as logged, at its line number.\n";
}

/// The text between the first line that ends with ''' and the next line
/// that starts with ''' (a Python wrapper's kernel source string), or None.
Optional<std::string> innerSource(StringRef Def) {
  size_t Open = Def.find("'''");
  if (Open == StringRef::npos)
    return None;
  size_t BodyStart = Def.find('\n', Open);
  if (BodyStart == StringRef::npos)
    return None;
  size_t Close = Def.find("'''", BodyStart);
  if (Close == StringRef::npos)
    return None;
  return Def.slice(BodyStart + 1, Close).str();
}

struct UnitFile {
  std::string Name;   ///< as shown in the index: "pre_grad.py"
  std::string Path;   ///< relative to DIR, where it is
  std::string Target; ///< relative to DIR, the file holding the content
};

struct UnitEntry {
  std::string Slug;
  std::string Display;
  std::string Folder;
  std::vector<UnitFile> Files;
};

/// A pre-grad graph waiting for the other units that share it.
struct PendingPre {
  uint32_t Log = 0, Line = 0;
  std::string Text;
  std::vector<size_t> Units; ///< indices into Entries
  std::vector<std::string> Labels;
  /// Per unit: line -> note.
  std::vector<std::map<uint32_t, std::string>> Notes;
};

class DumpEmitter : public Emitter {
public:
  using Emitter::Emitter;

  EmitterTraits traits() const override {
    EmitterTraits T;
    T.Shape = OutputShape::Directory;
    T.IndexFile = "index.md";
    T.Signature = "# tlp dump\n";
    T.Flag = "--dump";
    T.Select = &Opts.Unit;
    return T;
  }

  Error begin(const Module &M) override { return Error::success(); }

  Error unit(const Module &M, const CompileUnit &U) override {
    if (!facts().current().Selected)
      return Error::success();
    UnitEntry E;
    E.Slug = facts().current().Id;
    E.Display = facts().current().Name;
    E.Folder = E.Slug;
    Entries.push_back(std::move(E));
    size_t Me = Entries.size() - 1;
    UnitProvenance P(U);

    if (U.PreGrad) {
      const GraphArtifact &G = *U.PreGrad;
      if (!Pending || Pending->Log != G.Log || Pending->Line != G.Line ||
          Pending->Text != G.Text) {
        if (Error Err = flushPre())
          return Err;
        Pending = std::make_unique<PendingPre>();
        Pending->Log = G.Log;
        Pending->Line = G.Line;
        Pending->Text = G.Text;
      }
      Pending->Units.push_back(Me);
      Pending->Labels.push_back(Entries[Me].Slug);
      Pending->Notes.push_back(preNotes(U, P));
    } else if (Error Err = flushPre()) {
      return Err;
    }

    std::string Folder = Entries[Me].Folder;
    if (U.PostGrad)
      if (Error Err =
              put(Me, "post_grad.py",
                  withFooter(annotate(U.PostGrad->Text, postNotes(U, P), "#"),
                             "#")))
        return Err;
    if (U.Code) {
      bool Cpp = U.Code->Lang == Language::Cpp;
      StringRef C = Cpp ? "//" : "#";
      if (Error Err =
              put(Me, Cpp ? "wrapper.cpp" : "output_code.py",
                  withFooter(annotate(U.Code->Text, callNotes(U, P), C), C)))
        return Err;
    }
    if (U.KernelCode)
      if (Error Err =
              put(Me, "kernel.cpp", withFooter(U.KernelCode->Text, "//")))
        return Err;
    // The scheduler IR of a TORCH_COMPILE_DEBUG folder; after fusion, each
    // node's line says its kernel, what it fused, reads and writes.
    if (U.PreFusion)
      if (Error Err = put(Me, "ir_pre_fusion.txt",
                          withFooter(U.PreFusion->Text, "#")))
        return Err;
    if (U.PostFusion)
      if (Error Err = put(Me, "ir_post_fusion.txt",
                          withFooter(annotate(U.PostFusion->Text,
                                              schedulerNotes(U), "#"),
                                     "#")))
        return Err;
    return kernelFiles(Me, U, P);
  }

  Error end(const Module &M) override {
    if (Error Err = flushPre())
      return Err;
    std::string S;
    raw_string_ostream OS(S);
    OS << "# tlp dump\n\nMade by tlp " TLP_VERSION_STRING;
    if (!Opts.CommandLine.empty())
      OS << " with " << mdCode(Opts.CommandLine, false);
    OS << ". " << mdText(torchVersionText(M))
       << ". Notes that start with `tlp:` in these files were added by tlp; "
          "every other line is as logged, at its line number. A file listed "
          "as *same as* another is a symbolic link to it: it was written "
          "once.\n\n";
    if (Entries.empty())
      OS << "No compile units.\n";
    else
      OS << "| unit | folder | files |\n|---|---|---|\n";
    for (UnitEntry &E : Entries) {
      auto Rank = [](const UnitFile &F) {
        StringRef N = F.Name;
        return N == "pre_grad.py"      ? 0
               : N == "post_grad.py"   ? 1
               : N == "output_code.py" ? 2
               : N == "wrapper.cpp"    ? 2
               : N == "kernel.cpp"     ? 3
               : N == "ir_pre_fusion.txt"  ? 4
               : N == "ir_post_fusion.txt" ? 5
                                       : 6;
      };
      llvm::stable_sort(E.Files, [&](const UnitFile &A, const UnitFile &B) {
        return Rank(A) < Rank(B);
      });
      OS << "| " << mdText(E.Display) << " | [" << mdCode(E.Folder + "/")
         << "](" << E.Folder << "/) | ";
      for (size_t I = 0; I < E.Files.size(); ++I) {
        const UnitFile &F = E.Files[I];
        OS << (I ? ", " : "") << "[" << mdCode(F.Name) << "](" << F.Path << ")";
        if (F.Target != F.Path)
          OS << " (same as [" << mdCode(F.Target) << "](" << F.Target << "))";
      }
      OS << " |\n";
    }
    if (Error Err = rawFiles(M, OS))
      return Err;
    OS.flush();
    return outDir().write("index.md", S);
  }

  /// The events tlp does not interpret that have a payload, each as a file
  /// under artifacts/COMPILE/ (LINE-NAME.EXT, the payload as logged), listed
  /// in the index.
  Error rawFiles(const Module &M, raw_ostream &OS) {
    bool Any = false;
    auto Folder = [&](const CompileRecord *R, ArrayRef<RawEvent> Raw) -> Error {
      std::string Dir = "artifacts/" + (R ? R->slug() : std::string("log"));
      std::vector<std::string> Links;
      for (const RawEvent &E : Raw) {
        if (!E.PayloadLines)
          continue;
        std::string Line, Text;
        if (!rawTexts(E, Line, Text))
          continue;
        std::string Name = "L" + std::to_string(E.Line) + "-" +
                           rawFileName(E, rawLanguage(E, Text));
        // A file of a TORCH_COMPILE_DEBUG folder: named by its folder (and
        // log index: two runs have folders of the same name) and its file.
        if (E.Log < M.Logs.size() && M.Logs[E.Log].DebugFolder) {
          StringRef Path = M.Logs[E.Log].Path;
          Name = "F" + std::to_string(E.Log) + "-" +
                 sys::path::filename(sys::path::parent_path(Path)).str() +
                 "-" + sys::path::filename(Path).str();
          for (char &C : Name)
            if (!isAlnum(C) && C != '_' && C != '.' && C != '-')
              C = '_';
        }
        // As the pages show it: no control character from a log in a file
        // a user may print (docs/security.md).
        if (!isPrintable(Text))
          Text = printable(Text);
        if (!Text.empty() && Text.back() != '\n')
          Text += '\n';
        std::string Rel = Dir + "/" + Name, Target;
        if (Error Err = writeOnce(Rel, Text, Target))
          return Err;
        Links.push_back("[" + mdCode(Name) + "](" + Rel + ")" +
                        (Target != Rel ? " (same as [" + mdCode(Target) +
                                             "](" + Target + "))"
                                       : std::string()));
      }
      if (Links.empty())
        return Error::success();
      if (!Any)
        OS << "\n## Artifacts\n\nWhat each compile logged that tlp does not "
              "interpret, a file per event with a payload, named by its log "
              "line (`fx_graph_runnable` is a repro to run):\n\n"
              "| compile | files |\n|---|---|\n";
      Any = true;
      OS << "| " << mdText(R ? R->displayName() : "no compile") << " | ";
      for (size_t I = 0; I < Links.size(); ++I)
        OS << (I ? ", " : "") << Links[I];
      OS << " |\n";
      return Error::success();
    };
    // With --unit, those of the compile of the unit dumped only.
    std::set<size_t> Chosen;
    for (const auto &[Record, Units] : facts().UnitsOfRecord)
      for (size_t U : Units)
        if (facts().Units[U].Selected)
          Chosen.insert(Record);
    for (size_t I = 0; I < M.Compiles.size(); ++I)
      if (Opts.Unit.empty() || Chosen.count(I))
        if (Error Err = Folder(&M.Compiles[I], M.Compiles[I].Raw))
          return Err;
    return Opts.Unit.empty() ? Folder(nullptr, M.Raw) : Error::success();
  }

private:
  std::vector<UnitEntry> Entries;
  std::unique_ptr<PendingPre> Pending;
  /// MD5 of a content -> path relative to Dir of the file holding it.
  std::map<std::pair<uint64_t, uint64_t>, std::string> Written;

  /// Put \p Text at \p Name in unit \p Me's folder: written if new, a
  /// relative symbolic link to the first copy if not.
  Error put(size_t Me, StringRef Name, StringRef Text) {
    UnitEntry &E = Entries[Me];
    std::string Rel = E.Folder + "/" + Name.str();
    std::string Target;
    if (Error Err = writeOnce(Rel, Text, Target))
      return Err;
    E.Files.push_back({Name.str(), Rel, Target});
    return Error::success();
  }

  /// Write \p Text at \p Rel if no file holds it yet, else a relative
  /// symbolic link to the file that does; \p Target: the path (relative
  /// to Dir) of the file that holds it.
  Error writeOnce(const std::string &Rel, StringRef Text, std::string &Target) {
    MD5 Hash;
    Hash.update(Text);
    MD5::MD5Result R;
    Hash.final(R);
    auto Key = std::make_pair(R.high(), R.low());
    auto It = Written.find(Key);
    if (It == Written.end()) {
      Written[Key] = Rel;
      Target = Rel;
      return outDir().write(Rel, Text);
    }
    Target = It->second;
    std::string Link;
    for (size_t Depth = StringRef(Rel).count('/'); Depth; --Depth)
      Link += "../";
    Link += It->second;
    return outDir().link(Rel, Link);
  }

  std::map<uint32_t, std::string> preNotes(const CompileUnit &U,
                                           const UnitProvenance &P) {
    std::map<uint32_t, std::string> Notes;
    std::map<uint32_t, std::vector<std::pair<std::string, std::string>>> ByLine;
    const GraphArtifact &G = *U.PreGrad;
    // "Vanished" only with PyTorch's record of where the nodes of the
    // node's graph went.
    auto Unlinked = [&](uint32_t I) -> const char * {
      switch (P.unlinkedFate(I)) {
      case UnitProvenance::UnlinkedFate::Vanished:
        return "vanished: no post-grad node, no kernel";
      case UnitProvenance::UnlinkedFate::NoRecord:
        return "not linked: unknown (no provenance mapping for this graph)";
      case UnitProvenance::UnlinkedFate::ForwardGraph:
        return "not linked (the forward's node: no backward code may need "
               "it)";
      case UnitProvenance::UnlinkedFate::NoPreRecord:
        return "not linked: unknown (the provenance mapping names no "
               "pre-grad node)";
      case UnitProvenance::UnlinkedFate::HigherOrderOp:
        return "not linked: unknown (a higher-order op or an output of one: "
               "its work is its body's)";
      case UnitProvenance::UnlinkedFate::UnnamedBody:
        return "not linked: unknown (the mapping names no node of this "
               "body)";
      case UnitProvenance::UnlinkedFate::Bookkeeping:
        return "not linked: torch.func or autograd bookkeeping, no data of "
               "its own";
      case UnitProvenance::UnlinkedFate::ItemOfLinked:
        return "not linked: an item of a linked node's result";
      }
      return "";
    };
    for (uint32_t I = 0; I < G.Nodes.size(); ++I) {
      const Node &N = G.Nodes[I];
      if (!isComputeNode(N) || !N.Line)
        continue;
      std::vector<std::string> Post, Kern;
      if (U.PostGrad)
        for (uint32_t Q : P.postOfPre(I))
          Post.push_back(U.PostGrad->Nodes[Q].qualifiedName());
      for (uint32_t R : P.kernelsOfPre(I))
        Kern.push_back(U.Kernels[R].key());
      std::string S;
      if (Post.empty() && Kern.empty())
        S = Unlinked(I);
      if (!Post.empty())
        S = "post: " + joinNames(Post);
      if (!Kern.empty())
        S += (S.empty() ? "" : "; ") + std::string("kernels: ") +
             joinNames(Kern);
      ByLine[N.Line].push_back({N.qualifiedName(), S});
    }
    for (auto &KV : ByLine) {
      std::string &Slot = Notes[KV.first];
      for (auto &NS : KV.second)
        Slot += (Slot.empty() ? "" : " / ") +
                (KV.second.size() > 1 ? NS.first + ": " : std::string()) +
                NS.second;
    }
    return Notes;
  }

  /// For each top-level scheduler node after fusion, at its first line:
  /// the kernel that runs it, the nodes it fused, the buffers it reads
  /// and writes.
  std::map<uint32_t, std::string> schedulerNotes(const CompileUnit &U) const {
    std::map<uint32_t, std::string> Notes;
    const SchedulerIRArtifact &S = *U.PostFusion;
    for (const SchedulerNode &N : S.Nodes) {
      if (N.Parent)
        continue;
      std::string T =
          N.Kernel && *N.Kernel < U.Kernels.size()
              ? "kernel " + U.Kernels[*N.Kernel].key() + " (" + N.KernelBy +
                    ")"
              : std::string("no kernel found");
      if (!N.SubNodes.empty()) {
        std::vector<std::string> Fused;
        for (uint32_t I : N.SubNodes)
          if (I < S.Nodes.size())
            Fused.push_back(S.Nodes[I].Name);
        T += "; fused " + llvm::join(Fused, ", ");
      }
      if (U.PreFusion) {
        std::vector<std::string> Before;
        for (uint32_t I : N.PreFusionNodes)
          if (I < U.PreFusion->Nodes.size())
            Before.push_back(U.PreFusion->Nodes[I].Name);
        T += "; before fusion " + (Before.empty() ? std::string("none found")
                                                   : llvm::join(Before, ", "));
      }
      std::vector<std::string> Reads = S.readBuffers(N),
                               Writes = S.writtenBuffers(N);
      if (!Reads.empty())
        T += "; reads " + llvm::join(Reads, ", ");
      if (!Writes.empty())
        T += "; writes " + llvm::join(Writes, ", ");
      Notes[N.Line] = T;
      // Each fused node's share of the kernel's post-grad nodes, at its
      // header line.
      for (uint32_t I : N.SubNodes) {
        if (I >= S.Nodes.size())
          continue;
        const SchedulerNode &X = S.Nodes[I];
        std::vector<std::string> Post;
        for (uint32_t P : X.PostNodes)
          if (U.PostGrad && P < U.PostGrad->Nodes.size())
            Post.push_back(U.PostGrad->Nodes[P].Name);
        Notes[X.Line] =
            !X.PostNodesUnknown.empty()
                ? "post-grad nodes unknown: " + X.PostNodesUnknown
            : !Post.empty()
                ? "post-grad nodes " + llvm::join(Post, ", ") + " (" +
                      X.PostNodesBy + ", confidence " +
                      std::to_string(X.PostNodesConfidence) + ")"
                : std::string("post-grad nodes not linked");
      }
    }
    return Notes;
  }

  std::map<uint32_t, std::string> postNotes(const CompileUnit &U,
                                            const UnitProvenance &P) {
    std::map<uint32_t, std::string> Notes;
    const GraphArtifact &G = *U.PostGrad;
    for (uint32_t I = 0; I < G.Nodes.size(); ++I) {
      const Node &N = G.Nodes[I];
      if (!isComputeNode(N) || !N.Line)
        continue;
      std::vector<std::string> Pre, Kern;
      if (U.PreGrad)
        for (uint32_t Q : P.preOfPost(I))
          Pre.push_back(U.PreGrad->Nodes[Q].qualifiedName());
      for (uint32_t R : P.kernelsOfPost(I))
        Kern.push_back(U.Kernels[R].key());
      std::string S =
          Pre.empty() ? "no pre-grad node" : "pre: " + joinNames(Pre);
      S += Kern.empty() ? "; no kernel" : "; kernels: " + joinNames(Kern);
      std::string &Slot = Notes[N.Line];
      Slot += (Slot.empty() ? "" : " / ") + S;
    }
    return Notes;
  }

  std::map<uint32_t, std::string> callNotes(const CompileUnit &U,
                                            const UnitProvenance &P) {
    std::map<uint32_t, std::string> Notes;
    for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
      const Kernel &K = U.Kernels[R];
      std::vector<std::string> Pre, Post;
      if (U.PreGrad)
        for (uint32_t Q : P.preOfKernel(R))
          Pre.push_back(U.PreGrad->Nodes[Q].qualifiedName());
      if (U.PostGrad)
        for (uint32_t Q : P.postOfKernel(R))
          Post.push_back(U.PostGrad->Nodes[Q].qualifiedName());
      std::string S = K.key();
      if (!Post.empty())
        S += " <- post: " + joinNames(Post);
      if (!Pre.empty())
        S += (Post.empty() ? " <- " : "; ") + std::string("pre: ") +
             joinNames(Pre);
      std::vector<std::string> Src;
      for (uint32_t SI : P.sourcesOfKernel(R))
        Src.push_back(baseName(U.Sources[SI].File).str() + ":" +
                      std::to_string(U.Sources[SI].Line));
      if (!Src.empty())
        S += "; src: " + joinNames(Src);
      for (uint32_t L : K.CallLines) {
        std::string &Slot = Notes[L];
        Slot += (Slot.empty() ? "" : " / ") + S;
      }
    }
    return Notes;
  }

  Error kernelFiles(size_t Me, const CompileUnit &U, const UnitProvenance &P) {
    // One file per definition; rows that share it (several calls, several
    // handles) are listed together.
    struct DefFile {
      const CodeArtifact *Code;
      const KernelDef *Def;
      std::vector<uint32_t> Rows;
    };
    std::vector<DefFile> Defs;
    std::map<const KernelDef *, size_t> ByDef;
    for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
      const Kernel &K = U.Kernels[R];
      const CodeArtifact *C = nullptr;
      const KernelDef *D = nullptr;
      if (K.KernelCodeDef && U.KernelCode &&
          *K.KernelCodeDef < U.KernelCode->Defs.size()) {
        C = U.KernelCode.get();
        D = &C->Defs[*K.KernelCodeDef];
      } else if (K.Def && U.Code && *K.Def < U.Code->Defs.size()) {
        C = U.Code.get();
        D = &C->Defs[*K.Def];
      }
      if (!D)
        continue;
      auto It = ByDef.find(D);
      if (It == ByDef.end()) {
        ByDef[D] = Defs.size();
        Defs.push_back({C, D, {R}});
      } else {
        Defs[It->second].Rows.push_back(R);
      }
    }
    std::set<std::string> Names;
    for (const DefFile &F : Defs) {
      const KernelDef &D = *F.Def;
      const LineTable &LT = F.Code->lines();
      std::string DefText;
      for (uint32_t L = D.Begin; L && L <= D.End && L <= LT.size(); ++L)
        DefText += LT.line(F.Code->Text, L).str() + "\n";
      bool CppFile = F.Code->Lang == Language::Cpp;
      std::string Body = DefText;
      if (!CppFile)
        if (Optional<std::string> Inner = innerSource(DefText)) {
          Body = *Inner;
          CppFile = D.Kind == KernelKind::Cpp;
        }
      StringRef C = CppFile ? "//" : "#";
      std::string CodeFile =
          F.Code == U.KernelCode.get()
              ? "kernel.cpp"
              : (F.Code->Lang == Language::Cpp ? "wrapper.cpp"
                                               : "output_code.py");
      std::string H;
      H += C.str() + " tlp: kernel " + D.Name + " (" +
           kernelKindName(D.Kind).str() + "), defined at " + CodeFile + ":" +
           std::to_string(D.Begin) + "-" + std::to_string(D.End) + "\n";
      std::vector<std::string> Pre, Post, Src;
      std::set<std::string> SeenPre, SeenPost, SeenSrc;
      for (uint32_t R : F.Rows) {
        const Kernel &K = U.Kernels[R];
        std::vector<std::string> Lines;
        for (uint32_t L : K.CallLines)
          Lines.push_back(std::to_string(L));
        H += C.str() + " tlp: " + K.key() + " called at " +
             (U.Code ? (U.Code->Lang == Language::Cpp ? "wrapper.cpp"
                                                      : "output_code.py")
                     : std::string("?")) +
             ":" + (Lines.empty() ? std::string("?") : joinNames(Lines)) + "\n";
        if (U.PostGrad)
          for (uint32_t Q : P.postOfKernel(R))
            if (SeenPost.insert(U.PostGrad->Nodes[Q].qualifiedName()).second)
              Post.push_back(U.PostGrad->Nodes[Q].qualifiedName());
        if (U.PreGrad)
          for (uint32_t Q : P.preOfKernel(R))
            if (SeenPre.insert(U.PreGrad->Nodes[Q].qualifiedName()).second)
              Pre.push_back(U.PreGrad->Nodes[Q].qualifiedName());
        for (uint32_t SI : P.sourcesOfKernel(R)) {
          const SourceLoc &L = U.Sources[SI];
          std::string S = L.File + ":" + std::to_string(L.Line);
          if (SeenSrc.insert(S).second)
            Src.push_back(S);
        }
      }
      if (!Post.empty())
        H += C.str() + " tlp: post-grad nodes: " + joinNames(Post, 32) + "\n";
      if (!Pre.empty())
        H += C.str() + " tlp: pre-grad nodes: " + joinNames(Pre, 32) + "\n";
      if (!Src.empty())
        H += C.str() + " tlp: user lines: " + joinNames(Src, 32) + "\n";
      std::string Base = safeFileName(D.Name);
      std::string Name = Base;
      for (unsigned N = 2; !Names.insert(Name).second; ++N)
        Name = Base + "-" + std::to_string(N);
      if (Error Err =
              put(Me, "kernels/" + Name + (CppFile ? ".cpp" : ".py"), H + Body))
        return Err;
    }
    return Error::success();
  }

  /// Write the pending pre-grad graph once, annotated for every unit that
  /// shares it, and link it from the others' folders.
  Error flushPre() {
    if (!Pending)
      return Error::success();
    std::unique_ptr<PendingPre> Pre = std::move(Pending);
    std::map<uint32_t, std::string> Notes;
    bool Several = Pre->Units.size() > 1;
    for (size_t I = 0; I < Pre->Units.size(); ++I)
      for (auto &KV : Pre->Notes[I]) {
        std::string &Slot = Notes[KV.first];
        Slot += (Slot.empty() ? "" : " | ") +
                (Several ? Pre->Labels[I] + ": " : std::string()) + KV.second;
      }
    std::string Text = withFooter(annotate(Pre->Text, Notes, "#"), "#");
    for (size_t Me : Pre->Units)
      if (Error Err = put(Me, "pre_grad.py", Text))
        return Err;
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Emitter> createDumpEmitter(const EmitOptions &Opts,
                                           DiagnosticEngine &Diags) {
  return std::make_unique<DumpEmitter>(Opts, Diags);
}

} // namespace tlp
