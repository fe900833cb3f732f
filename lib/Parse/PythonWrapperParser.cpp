//===- PythonWrapperParser.cpp - The JIT Python wrapper -------------------===//
//
// Reads the module Inductor writes for a JIT compile (FORMAT.md 6.1):
//   <name> = async_compile.<backend>('<name>', '''<source>''', ...)
//       kernel definitions at column 0, after a `#` header block;
//   def call(args):  or  class Runner: ... def call(self, args):
//       the entry function, whose body launches kernels:
//       <name>.run(...)             Triton
//       <name>(...)                 C++ kernel
//       extern_kernels.<op>(...)    extern call
//       torch.ops.<ns>.<op>.<ov>(...) fallback or collective
// Comments in the body (`# Topologically Sorted Source Nodes`, `#
// [Provenance debug handles] k:N`) attach to the launches after them.
//
//===----------------------------------------------------------------------===//

#include "WrapperCommon.h"

#include "tlp/IR/InductorNames.h"
#include "tlp/Parse/Lexer.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace tlp {

using namespace lex;

namespace {

class PyWrapperParser {
public:
  PyWrapperParser(CodeArtifact &C, PayloadContext &Ctx) : C(C), Ctx(Ctx) {}

  void run() {
    splitLines(C.Text, Lines);
    readAotId();
    for (size_t I = 0; I < Lines.size(); ++I)
      I = line(I);
    if (InSource && CurDef) {
      Ctx.warning(C.Defs[*CurDef].Begin, "kernel source of '" +
                                             C.Defs[*CurDef].Name +
                                             "' is not closed");
      C.Defs[*CurDef].End = static_cast<uint32_t>(Lines.size());
    }
    finishEntry(Lines.size());
    Pending.finish(Ctx);
    for (KernelDef &D : C.Defs) {
      size_t B = D.Begin - 1, E = std::min<size_t>(D.End, Lines.size());
      if (B < E)
        wrapper::parseKernelParams(makeArrayRef(Lines).slice(B, E - B), D);
    }
    C.reindex();
  }

private:
  CodeArtifact &C;
  PayloadContext &Ctx;
  std::vector<StringRef> Lines;
  // Kernel source (triple-quoted string) being skipped.
  bool InSource = false;
  const char *Quote = "'''";
  Optional<size_t> CurDef;
  // Comment block at column 0 right above the current line.
  size_t HeaderStart = 0; // 1-based, 0: none
  // The top-level block a line belongs to.
  std::string Block;
  bool BlockIsClass = false;
  // The entry function being read.
  bool InEntry = false;
  unsigned EntryIndent = 0;
  wrapper::PendingComments Pending;
  // The text after the '(' of the direct call launch() recognised last.
  StringRef ArgText;

  uint32_t lineNo(size_t I) const { return static_cast<uint32_t>(I + 1); }

  void readAotId() {
    for (StringRef L : Lines) {
      if (trimWS(L).empty())
        continue;
      if (Optional<std::string> Id = aotIdOfLine(L))
        C.AotId = std::move(*Id);
      return;
    }
  }

  void finishEntry(size_t I) {
    if (!InEntry)
      return;
    // The body ends at the last non-blank line before line I.
    size_t E = I;
    while (E > C.EntryBegin && trimWS(Lines[E - 1]).empty())
      --E;
    C.EntryEnd = static_cast<uint32_t>(E);
    InEntry = false;
  }

  size_t line(size_t I) {
    StringRef L = Lines[I];
    if (InSource) {
      if (L.contains("num_xblocks_") && CurDef &&
          C.Defs[*CurDef].Kind == KernelKind::Triton)
        C.Defs[*CurDef].Kind = KernelKind::Combo;
      if (L.contains(Quote)) {
        C.Defs[*CurDef].End = lineNo(I);
        InSource = false;
        CurDef = None;
      }
      return I;
    }
    StringRef T = trimWS(L);
    if (T.empty()) {
      HeaderStart = 0;
      return I;
    }
    unsigned Ind = indentOf(L);
    if (InEntry && Ind <= EntryIndent)
      finishEntry(I);
    if (Ind == 0) {
      if (T.startswith("#")) {
        if (!HeaderStart)
          HeaderStart = lineNo(I);
        return I;
      }
      topLevel(I, T);
      HeaderStart = 0;
      return I;
    }
    HeaderStart = 0;
    if (Block.empty() || Block == "benchmark_compiled_module" ||
        Block == "__main__")
      return I;
    if (BlockIsClass) {
      // Methods of `class Runner`: `def call(self, args):` is the entry.
      if (T.startswith("def call(")) {
        startEntry(I, Ind);
        return I;
      }
    }
    body(I, T);
    return I;
  }

  void startEntry(size_t I, unsigned Ind) {
    if (C.EntryBegin)
      return; // the first `call` is the entry
    C.EntryBegin = lineNo(I);
    InEntry = true;
    EntryIndent = Ind;
  }

  void topLevel(size_t I, StringRef T) {
    BlockIsClass = false;
    if (T.startswith("def ")) {
      StringRef Name = T.drop_front(4).take_while(isIdentChar);
      Block = Name.str();
      if (Name == "call")
        startEntry(I, 0);
      return;
    }
    if (T.startswith("class ")) {
      Block = T.drop_front(6).take_while(isIdentChar).str();
      BlockIsClass = true;
      return;
    }
    if (T.startswith("if __name__")) {
      Block = "__main__";
      return;
    }
    Block.clear();
    kernelDef(I, T);
  }

  /// `<name> = async_compile.<backend>(...'''` at column 0.
  void kernelDef(size_t I, StringRef T) {
    size_t N = identLen(T);
    if (!N)
      return;
    StringRef Name = T.substr(0, N);
    StringRef Rest = T.substr(N);
    if (!Rest.consume_front(" = async_compile."))
      return;
    StringRef Backend = Rest.take_while(isIdentChar);
    if (Backend == "wait" || Backend.empty())
      return;
    KernelDef D;
    D.Name = Name.str();
    D.Kind = backendKernelKind(Backend, Name);
    D.Begin = D.End = lineNo(I);
    if (HeaderStart) {
      D.HeaderBegin = static_cast<uint32_t>(HeaderStart);
      std::vector<StringRef> Header;
      for (size_t J = HeaderStart - 1; J < I; ++J)
        Header.push_back(trimWS(Lines[J]).drop_front(1));
      wrapper::parseKernelHeader(Header, D);
    }
    DefIndex.try_emplace(D.Name, C.Defs.size());
    C.Defs.push_back(std::move(D));
    // Skip the kernel source: from the first triple quote to its close.
    size_t Q1 = T.find("'''"), Q2 = T.find("\"\"\"");
    size_t Q = std::min(Q1, Q2);
    if (Q == StringRef::npos)
      return;
    Quote = Q == Q1 ? "'''" : "\"\"\"";
    if (T.substr(Q + 3).contains(Quote))
      return; // opened and closed on one line
    InSource = true;
    CurDef = C.Defs.size() - 1;
  }

  /// `bufA = <rhs>` in the entry function (\p T: the trimmed line).
  void bufferAssign(size_t I, StringRef T) {
    if (!T.startswith("buf"))
      return;
    size_t Eq = T.find(" = ");
    if (Eq == StringRef::npos)
      return;
    StringRef Lhs = T.substr(0, Eq);
    if (Lhs.find_if_not(isIdentChar) != StringRef::npos)
      return;
    BufferAssign A;
    A.Line = lineNo(I);
    A.Buffer = Lhs.str();
    A.From = wrapper::bufferOf(T.substr(Eq + 3)).str();
    C.Assigns.push_back(std::move(A));
  }

  void body(size_t I, StringRef T) {
    if (T.startswith("#")) {
      std::vector<std::string> Names;
      if (wrapper::parseTopoComment(T, Names)) {
        Pending.topo(lineNo(I), std::move(Names));
        return;
      }
      StringRef Key = wrapper::parseHandleComment(T);
      if (!Key.empty())
        Pending.handle(Key, lineNo(I), Ctx);
      return;
    }
    if (InEntry)
      bufferAssign(I, T.trim());
    CallSite S;
    if (!launch(T, S))
      return;
    S.Line = lineNo(I);
    if (ArgText.data())
      wrapper::parseCallArgs(ArgText, S.Args);
    Pending.attach(S);
    C.Calls.push_back(std::move(S));
  }

  /// Recognise a launch or kernel call in statement \p T.
  bool launch(StringRef T, CallSite &S) {
    // Drop an assignment target: `buf0 = ...`, `buf1, buf2 = ...`.
    size_t Eq = T.find(" = ");
    size_t Paren = T.find('(');
    if (Eq != StringRef::npos && (Paren == StringRef::npos || Eq < Paren))
      T = trimWS(T.substr(Eq + 3));
    size_t N = chainLen(T);
    if (!N || N >= T.size() || T[N] != '(')
      return false;
    StringRef Callee = T.substr(0, N);
    // The arguments of a direct call (not of a Triton launch).
    ArgText = Callee.endswith(".run") ? StringRef() : T.substr(N + 1);
    if (Callee.endswith(".run")) {
      StringRef K = Callee.drop_back(4);
      if (identLen(K) != K.size())
        return false;
      S.Kernel = K.str();
      Optional<size_t> D = findDef(K);
      S.Kind = D ? C.Defs[*D].Kind : KernelKind::Triton;
      if (S.Kind == KernelKind::Unknown || S.Kind == KernelKind::Cpp)
        S.Kind = launchedKernelKind(K);
      return true;
    }
    if (isExternKernelName(Callee)) {
      S.Kernel = Callee.str();
      S.Kind = KernelKind::Extern;
      return true;
    }
    if (isOpKernelCall(Callee)) {
      S.Kernel = Callee.str();
      S.Kind = guessKernelKind(Callee);
      return true;
    }
    if (identLen(Callee) == Callee.size()) {
      if (Optional<size_t> D = findDef(Callee)) {
        S.Kernel = Callee.str();
        S.Kind = C.Defs[*D].Kind;
        return true;
      }
    }
    // A debug handle comment names this call: it is a kernel.
    if (Pending.awaits(Callee)) {
      S.Kernel = Callee.str();
      S.Kind = guessKernelKind(Callee);
      return true;
    }
    return false;
  }

  Optional<size_t> findDef(StringRef Name) const {
    auto It = DefIndex.find(Name);
    if (It == DefIndex.end())
      return None;
    return It->second;
  }

  StringMap<size_t> DefIndex;
};

} // namespace

void parsePythonWrapper(CodeArtifact &C, PayloadContext &Ctx) {
  // `cpp_wrapper = True`: the module embeds a C++ wrapper, which calls the
  // kernels.
  StringRef T = C.Text;
  if ((T.startswith("cpp_wrapper_src") ||
       T.find("\ncpp_wrapper_src") != StringRef::npos) &&
      parseJitCppWrapper(C, Ctx))
    return;
  C.Lang = Language::Python;
  C.Defs.clear();
  C.Calls.clear();
  C.Assigns.clear();
  C.EntryBegin = C.EntryEnd = 0;
  PyWrapperParser(C, Ctx).run();
}

} // namespace tlp
