//===- CppCodeParser.cpp - AOTInductor C++ wrapper and kernel file --------===//
//
// Reads the C++ Inductor writes for AOTInductor (FORMAT.md 6.2):
//   extern "C"  void <name>(...);         C++ kernel declaration (wrapper)
//   extern "C"  void <name>(...) { ... }  C++ kernel definition (kernel file)
//   static inline void call_<name>(...) { ... }   Triton launcher
//   void AOTInductorModel::run_impl(...) { ... }  the entry function
// and the C++ a JIT wrapper embeds under `cpp_wrapper_src`
// (`torch._inductor.config.cpp_wrapper = True`), whose entry function is
// `void inductor_entry_impl(...)` and whose kernels are defined after it;
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

  /// Read lines [\p Begin, \p End) of \p TextLines (C.Text's lines): all
  /// of them, or the C++ a Python module embeds (findJitCppSource), whose
  /// other lines are Python and are not read.
  void run(std::vector<StringRef> TextLines, size_t Begin, size_t End) {
    Lines = std::move(TextLines);
    Lexed.resize(Lines.size());
    CppLineLexer Lx;
    for (size_t I = Begin; I < End; ++I)
      Lx.lex(Lines[I], Lexed[I]);
    for (size_t I = Begin; I < End; ++I)
      definition(I);
    if (C.EntryBegin) {
      for (size_t I = C.EntryBegin; I < C.EntryEnd; ++I)
        statement(I);
    } else {
      // No run_impl (a kernel file, or an unusual wrapper): look for calls
      // everywhere outside definitions' first lines.
      for (size_t I = Begin; I < End; ++I)
        if (!DefLines.count(I))
          statement(I);
    }
    Pending.finish(Ctx);
    // Which parameters each C++ kernel reads and writes (`in_ptr0`,
    // `out_ptr0`), from its signature.
    for (KernelDef &D : C.Defs) {
      size_t B = D.Begin - 1, E = std::min<size_t>(D.End, Lines.size());
      if (D.Kind == KernelKind::Cpp && B < E)
        wrapper::parseKernelParams(makeArrayRef(Lines).slice(B, E - B), D);
    }
    C.reindex();
  }

private:
  CodeArtifact &C;
  PayloadContext &Ctx;
  std::vector<StringRef> Lines;
  std::vector<CppLine> Lexed;
  StringMap<size_t> CppKernels; ///< declared/defined C++ kernels
  std::set<size_t> DefLines;
  /// C.Defs of C++ kernels seen declared and not (yet) defined.
  std::set<size_t> DeclaredOnly;
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
    if (Kind == KernelKind::Cpp) {
      auto [It, New] = CppKernels.try_emplace(Name, C.Defs.size());
      if (!New) {
        // Declared, then defined (the JIT C++ wrapper defines its kernels
        // after the entry function): the definition is the kernel's
        // source. A second definition or declaration is ignored.
        if (IsDef && DeclaredOnly.erase(It->second))
          C.Defs[It->second] = std::move(D);
        return;
      }
      if (!IsDef)
        DeclaredOnly.insert(It->second);
    }
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
        (T.contains("AOTInductorModel::run_impl(") ||
         T.startswith("void inductor_entry_impl("))) {
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
    if (bufferAssign(I, Code))
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
    // The buffers it passes: what the inference follows from call to call.
    StringRef ArgText = trimWS(Code.substr(N)).drop_front();
    wrapper::parseCallArgs(ArgText, S.Args, /*Cpp=*/true);
    // `aoti_torch_cpu_mm_out(buf1, ...)`: the output first.
    if (!S.Args.empty() && Callee.startswith("aoti_torch_") &&
        Callee.endswith("_out"))
      S.Args.front().Out = !S.Args.front().Buffer.empty();
    Pending.attach(S);
    C.Calls.push_back(std::move(S));
  }

  /// A buffer made or aliased in the entry function: `RAIIAtenTensorHandle
  /// buf0(buf0_handle);` (new storage), `auto buf7 =
  /// wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf0,
  /// ...));` (buf0's storage; `auto var_0 = ...` too, a view the entry
  /// returns). True if \p Code (lexed, trimmed) is one.
  bool bufferAssign(size_t I, StringRef Code) {
    if (!C.EntryBegin || I < C.EntryBegin || I > C.EntryEnd || Code.empty())
      return false;
    // The line as written (the lexed code blanks comments and literals):
    // exactly the forms the verifier holds the assignment to.
    StringRef Raw = trimWS(Lines[I]);
    BufferAssign A;
    A.Line = lineNo(I);
    if (Raw.consume_front("RAIIAtenTensorHandle ")) {
      StringRef Id = Raw.take_while(isIdentChar);
      if (!Id.startswith("buf") || !Raw.substr(Id.size()).startswith("("))
        return false;
      A.Buffer = Id.str();
    } else if (Raw.consume_front("auto ")) {
      StringRef Id = Raw.take_while(isIdentChar);
      StringRef Rest = Raw.substr(Id.size());
      if (Id.empty() || !Rest.consume_front(" = "))
        return false;
      A.Buffer = Id.str();
      A.From = wrapper::cppBufferOf(Rest.take_until([](char Ch) {
                                      return Ch == ';';
                                    })).str();
      // `auto var_0 = wrap_with_raii_handle_if_needed(...(buf7, ...))`: a
      // view of a buffer (an output, say); other `auto`s are no buffer.
      if (!Id.startswith("buf") && A.From.empty())
        return false;
    } else {
      return false;
    }
    C.Assigns.push_back(std::move(A));
    return true;
  }
};

} // namespace

static void parseCpp(CodeArtifact &C, PayloadContext &Ctx,
                     std::vector<StringRef> Lines, size_t Begin, size_t End) {
  C.Lang = Language::Cpp;
  C.Defs.clear();
  C.Calls.clear();
  C.Assigns.clear();
  C.EntryBegin = C.EntryEnd = 0;
  CppParser(C, Ctx).run(std::move(Lines), Begin, End);
}

void parseCppCode(CodeArtifact &C, PayloadContext &Ctx) {
  std::vector<StringRef> Lines;
  splitLines(C.Text, Lines);
  size_t N = Lines.size();
  parseCpp(C, Ctx, std::move(Lines), 0, N);
}

bool parseJitCppWrapper(CodeArtifact &C, PayloadContext &Ctx) {
  std::vector<StringRef> Lines;
  splitLines(C.Text, Lines);
  size_t Begin, End;
  if (!wrapper::findJitCppSource(Lines, Begin, End))
    return false;
  if (End == Lines.size())
    Ctx.warning(static_cast<uint32_t>(Begin),
                "the C++ source of the wrapper ('cpp_wrapper_src') is not "
                "closed");
  parseCpp(C, Ctx, std::move(Lines), Begin, End);
  return true;
}

} // namespace tlp
