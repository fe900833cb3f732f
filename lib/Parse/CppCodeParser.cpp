//===- CppCodeParser.cpp - AOTInductor C++ wrapper and kernel file --------===//
//
// Reads the C++ Inductor writes for AOTInductor (FORMAT.md 6.2):
//   extern "C"  void <name>(...);         C++ kernel declaration (wrapper)
//   extern "C"  void <name>(...) { ... }  C++ kernel definition (kernel file)
//   static inline void call_<name>(...) { ... }   Triton launcher
//   void AOTInductorModel::run_impl(...) { ... }  the entry function
// Inside run_impl, statements call kernels: `call_<triton name>(...)`,
// `<cpp kernel>(...)`,
// `AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_<dev>_<op>(...))`, after `//`
// comments that carry provenance.
//
// The C++ line lexer of tlp/Parse/Lexer.h blanks out comments and
// literals so that braces and parentheses can be matched; it knows raw
// strings and block comments.
//
//===----------------------------------------------------------------------===//

#include "WrapperCommon.h"

#include "tlp/IR/InductorNames.h"
#include "tlp/Parse/Lexer.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/StringMap.h"

#include <set>

using namespace llvm;

namespace tlp {

using namespace lex;

namespace {

class CppParser {
public:
  CppParser(CodeArtifact &C, PayloadContext &Ctx) : C(C), Ctx(Ctx) {}

  void run() {
    splitLines(C.Text, Lines);
    Lexed.resize(Lines.size());
    CppLineLexer Lx;
    for (size_t I = 0; I < Lines.size(); ++I)
      Lx.lex(Lines[I], Lexed[I]);
    for (size_t I = 0; I < Lines.size(); ++I)
      definition(I);
    if (C.EntryBegin) {
      for (size_t I = C.EntryBegin; I < C.EntryEnd; ++I)
        statement(I);
    } else {
      // No run_impl (a kernel file, or an unusual wrapper): look for calls
      // everywhere outside definitions' first lines.
      for (size_t I = 0; I < Lines.size(); ++I)
        if (!DefLines.count(I))
          statement(I);
    }
    Pending.finish(Ctx);
    C.reindex();
  }

private:
  CodeArtifact &C;
  PayloadContext &Ctx;
  std::vector<StringRef> Lines;
  std::vector<CppLine> Lexed;
  StringMap<size_t> CppKernels; ///< declared/defined C++ kernels
  std::set<size_t> DefLines;
  wrapper::PendingComments Pending;

  uint32_t lineNo(size_t I) const { return static_cast<uint32_t>(I + 1); }

  /// From line \p I, find where the declaration or definition that starts
  /// there ends: the line of its ';' or of the '}' closing its body.
  size_t endOf(size_t I, bool &IsDefinition) {
    int Paren = 0, Brace = 0;
    bool SeenParen = false;
    for (size_t J = I; J < Lexed.size(); ++J) {
      for (char Ch : Lexed[J].Code) {
        if (Ch == '(') {
          ++Paren;
          SeenParen = true;
        } else if (Ch == ')') {
          --Paren;
        } else if (Paren == 0 && SeenParen && Brace == 0 && Ch == ';') {
          IsDefinition = false;
          return J;
        } else if (Paren == 0 && Ch == '{') {
          ++Brace;
        } else if (Paren == 0 && Ch == '}') {
          if (--Brace == 0) {
            IsDefinition = true;
            return J;
          }
        }
      }
    }
    IsDefinition = Brace > 0;
    return Lexed.size() - 1;
  }

  void addDef(size_t I, StringRef Name, KernelKind Kind) {
    bool IsDef = false;
    size_t E = endOf(I, IsDef);
    KernelDef D;
    D.Name = Name.str();
    D.Kind = Kind;
    D.Begin = lineNo(I);
    D.End = lineNo(E);
    // A `template <...>` line or `//` comments right above belong to it.
    size_t H = I;
    while (H > 0) {
      StringRef Prev = trimWS(Lines[H - 1]);
      if (Prev.startswith("template") || Prev.startswith("//"))
        --H;
      else
        break;
    }
    if (H < I)
      D.HeaderBegin = lineNo(H);
    DefLines.insert(I);
    if (Kind == KernelKind::Cpp)
      CppKernels.try_emplace(Name, C.Defs.size());
    C.Defs.push_back(std::move(D));
  }

  void definition(size_t I) {
    StringRef T = trimWS(Lines[I]);
    if (T.consume_front("extern \"C\"")) {
      T = trimWS(T);
      if (!T.consume_front("void "))
        return;
      T = trimWS(T);
      size_t N = identLen(T);
      if (!N || N >= T.size() || trimWS(T.substr(N)).empty() ||
          trimWS(T.substr(N))[0] != '(')
        return;
      // One kernel may be declared and then defined; keep the first.
      if (!CppKernels.count(T.substr(0, N)))
        addDef(I, T.substr(0, N), KernelKind::Cpp);
      return;
    }
    if (T.consume_front("static inline void call_")) {
      size_t N = identLen(T);
      if (!N)
        return;
      StringRef Name = T.substr(0, N);
      addDef(I, Name, launchedKernelKind(Name));
      return;
    }
    if (!C.EntryBegin && T.startswith("void ") &&
        T.contains("AOTInductorModel::run_impl(")) {
      bool IsDef = false;
      size_t E = endOf(I, IsDef);
      if (!IsDef)
        return;
      C.EntryBegin = lineNo(I);
      C.EntryEnd = lineNo(E);
    }
  }

  void statement(size_t I) {
    StringRef Comment = Lexed[I].Comment;
    StringRef Code = trimWS(Lexed[I].Code);
    if (!Comment.empty() && Code.empty()) {
      std::vector<std::string> Names;
      if (wrapper::parseTopoComment(Comment, Names)) {
        Pending.topo(lineNo(I), std::move(Names));
        return;
      }
      StringRef Key = wrapper::parseHandleComment(Comment);
      if (!Key.empty())
        Pending.handle(Key, lineNo(I), Ctx);
      return;
    }
    if (Code.empty())
      return;
    if (Code.consume_front("AOTI_TORCH_ERROR_CODE_CHECK("))
      Code = trimWS(Code);
    // Skip declarations: `static ...`, `void ...`, `extern ...`.
    if (Code.startswith("static ") || Code.startswith("void ") ||
        Code.startswith("extern ") || Code.startswith("template"))
      return;
    size_t N = chainLen(Code, "::");
    if (!N)
      return;
    StringRef Callee = Code.substr(0, N);
    if (trimWS(Code.substr(N)).empty() || trimWS(Code.substr(N))[0] != '(')
      return;
    CallSite S;
    StringRef ProxyOp;
    if (Callee == AOTIProxyExecutorCall)
      ProxyOp = Pending.awaitedProxyOp();
    if (!ProxyOp.empty()) {
      // A custom op (torch.library) in AOTInductor: the handle comment
      // names the op (`aoti_torch_cpu_scale_rows:3`), the proxy executor
      // runs it. One kernel, called here.
      S.Kernel = ProxyOp.str();
      S.Kind = guessKernelKind(ProxyOp);
    } else if (StringRef K = Callee; consumeAOTILaunchWrapper(K)) {
      S.Kernel = K.str();
      S.Kind = launchedKernelKind(K);
    } else if (CppKernels.count(Callee)) {
      S.Kernel = Callee.str();
      S.Kind = KernelKind::Cpp;
    } else if (isAOTIKernelCall(Callee)) {
      S.Kernel = Callee.str();
      S.Kind = guessKernelKind(Callee);
    } else if (Pending.awaits(Callee)) {
      // A debug handle comment names this call: it is a kernel.
      S.Kernel = Callee.str();
      S.Kind = guessKernelKind(Callee);
    } else {
      return;
    }
    S.Line = lineNo(I);
    Pending.attach(S);
    C.Calls.push_back(std::move(S));
  }
};

} // namespace

void parseCppCode(CodeArtifact &C, PayloadContext &Ctx) {
  C.Lang = Language::Cpp;
  C.Defs.clear();
  C.Calls.clear();
  C.EntryBegin = C.EntryEnd = 0;
  CppParser(C, Ctx).run();
}

} // namespace tlp
