//===- WrapperCommon.cpp - Shared pieces of the wrapper parsers -----------===//

#include "WrapperCommon.h"

#include "tlp/IR/InductorNames.h"
#include "tlp/Parse/Lexer.h"
#include "tlp/Support/StringUtils.h"

using namespace llvm;

namespace tlp {
namespace wrapper {

bool parseTopoComment(StringRef Comment, std::vector<std::string> &Names) {
  static const char Marker[] = "Topologically Sorted Source Nodes: [";
  size_t P = Comment.find(Marker);
  if (P == StringRef::npos)
    return false;
  StringRef Rest = Comment.substr(P + sizeof(Marker) - 1);
  size_t Close = Rest.find(']');
  StringRef List = Rest.substr(0, Close);
  Names.clear();
  SmallVector<StringRef, 8> Parts;
  List.split(Parts, ',');
  for (StringRef Part : Parts) {
    Part = trimWS(Part);
    if (!Part.empty())
      Names.push_back(Part.str());
  }
  return true;
}

StringRef parseHandleComment(StringRef Comment) {
  static const char Marker[] = "[Provenance debug handles]";
  size_t P = Comment.find(Marker);
  if (P == StringRef::npos)
    return StringRef();
  return trimWS(Comment.substr(P + sizeof(Marker) - 1));
}

void PendingComments::handle(StringRef Key, uint32_t Line,
                             PayloadContext &Ctx) {
  StringRef Name;
  Optional<uint64_t> H;
  splitKernelKey(Key, Name, H);
  if (!H) {
    Ctx.warning(Line,
                "debug handle comment '" + Key + "' has no ':<number>' handle");
    return;
  }
  Handles.push_back(Handle{Name.str(), *H, Line});
}

void PendingComments::attach(CallSite &S) {
  for (auto It = Handles.begin(); It != Handles.end(); ++It) {
    if (It->Name != S.Kernel)
      continue;
    S.Handle = It->Value;
    S.HandleLine = It->Line;
    Handles.erase(It);
    break;
  }
  if (TopoLine) {
    S.TopoLine = TopoLine;
    S.TopoNames = std::move(TopoNames);
    TopoLine = 0;
    TopoNames.clear();
  }
}

bool PendingComments::awaits(StringRef Name) const {
  for (const Handle &H : Handles)
    if (H.Name == Name)
      return true;
  return false;
}

StringRef PendingComments::awaitedProxyOp() const {
  for (const Handle &H : Handles)
    if (isAOTIShimName(H.Name))
      return H.Name;
  return StringRef();
}

void PendingComments::finish(PayloadContext &Ctx) {
  for (const Handle &H : Handles)
    Ctx.warning(H.Line, "debug handle comment '" + H.Name + ":" +
                            Twine(H.Value) +
                            "' is not followed by a call of '" + H.Name + "'");
  Handles.clear();
}

bool findJitCppSource(ArrayRef<StringRef> Lines, size_t &Begin,
                      size_t &End) {
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    // The assignment comes after the imports, before any function.
    if (L.startswith("def ") || L.startswith("class ") ||
        L.startswith("async_compile"))
      return false;
    if (!L.consume_front("cpp_wrapper_src"))
      continue;
    L = trimWS(L);
    if (!L.consume_front("="))
      continue;
    StringRef Rest = trimWS(L);
    if (Rest.consume_front("("))
      Rest = trimWS(Rest);
    size_t Open = I;
    if (Rest.empty() && I + 1 < Lines.size())
      Rest = trimWS(Lines[Open = I + 1]);
    if (!Rest.consume_front("r\"\"\"") && !Rest.consume_front("\"\"\""))
      return false;
    Begin = Open + 1;
    End = Lines.size();
    for (size_t J = Begin; J < Lines.size(); ++J)
      if (Lines[J].startswith("\"\"\"")) {
        End = J;
        break;
      }
    return true;
  }
  return false;
}

void parseKernelHeader(ArrayRef<StringRef> Lines, KernelDef &D) {
  enum { None, SourceMap, Fragment } Section = None;
  for (StringRef L : Lines) {
    StringRef T = trimWS(L);
    std::vector<std::string> Names;
    if (parseTopoComment(T, Names)) {
      D.TopoNames = std::move(Names);
      Section = None;
      continue;
    }
    if (T.startswith("Source node to ATen node mapping:")) {
      Section = SourceMap;
      continue;
    }
    if (T.startswith("Graph fragment:")) {
      Section = Fragment;
      continue;
    }
    if (Section == SourceMap) {
      size_t Arrow = T.find(" => ");
      if (Arrow == StringRef::npos) {
        Section = None;
        continue;
      }
      StringRef Pre = trimWS(T.substr(0, Arrow));
      SmallVector<StringRef, 4> Posts;
      T.substr(Arrow + 4).split(Posts, ',');
      for (StringRef Post : Posts) {
        Post = trimWS(Post);
        if (!Pre.empty() && !Post.empty())
          D.SourceToAten.emplace_back(Pre.str(), Post.str());
      }
      continue;
    }
    if (Section == Fragment) {
      if (!T.startswith("%"))
        continue; // `return %a,%b`
      StringRef Name = T.drop_front().take_while(isIdentChar);
      size_t Eq = T.find(" = ");
      StringRef Rhs = Eq == StringRef::npos ? StringRef() : T.substr(Eq + 3);
      // Inputs of the fragment are not nodes of this kernel.
      if (Rhs.startswith("PlaceHolder") || Rhs.startswith("placeholder") ||
          Rhs.startswith("get_attr"))
        continue;
      if (!Name.empty())
        D.FragmentNodes.push_back(Name.str());
    }
  }
}

void parseKernelParams(ArrayRef<StringRef> Lines, KernelDef &D) {
  D.Params.clear();
  std::string Sig;
  bool In = false;
  for (StringRef T : Lines) {
    if (!In) {
      // `kernel(` in the Python wrapper's C++ source, the kernel's own
      // name in a C++ wrapper's definition.
      size_t K = T.find("kernel(");
      std::string Own = D.Name + "(";
      if (K == StringRef::npos && T.ltrim().startswith("def "))
        K = T.find('(');
      else if (K != StringRef::npos)
        K += 6;
      else if (!D.Name.empty() && (K = T.find(Own)) != StringRef::npos)
        K += Own.size() - 1;
      if (K == StringRef::npos)
        continue;
      In = true;
      T = T.substr(K + 1);
    }
    size_t E = T.find(')');
    Sig += T.substr(0, E);
    Sig += ' ';
    if (E != StringRef::npos)
      break;
  }
  if (StringRef(Sig).trim().empty())
    return;
  SmallVector<StringRef, 16> Parts;
  StringRef(Sig).split(Parts, ',');
  static const std::pair<const char *, ParamRole> Prefixes[] = {
      {"in_out_ptr", ParamRole::InOut},
      {"in_ptr", ParamRole::In},
      {"out_ptr", ParamRole::Out}};
  for (StringRef P : Parts) {
    KernelParam KP;
    for (const auto &Pre : Prefixes) {
      size_t K = P.find(Pre.first);
      if (K != StringRef::npos) {
        KP.Name = P.substr(K).take_while(isIdentChar).str();
        KP.Role = Pre.second;
        break;
      }
    }
    // A pointer named twice (no Python or C++ signature can; a damaged
    // log can): the repeat is not taken for a pointer, so that each name
    // has one role (the verifier holds the parameters to it).
    if (!KP.Name.empty() &&
        llvm::any_of(D.Params, [&](const KernelParam &Q) {
          return Q.Name == KP.Name;
        }))
      KP = KernelParam();
    D.Params.push_back(std::move(KP));
  }
  // A C++ kernel's `auto out_ptr0 = in_out_ptr1;` makes in_out_ptr1 a
  // buffer written first (scratch reused), not one read.
  for (StringRef T : Lines) {
    T = T.trim();
    if (!T.consume_front("auto out_ptr"))
      continue;
    size_t Eq = T.find("= in_out_ptr");
    if (Eq == StringRef::npos)
      continue;
    StringRef Name = T.substr(Eq + 2).take_while(isIdentChar);
    for (KernelParam &P : D.Params)
      if (P.Role == ParamRole::InOut && P.Name == Name)
        P.Role = ParamRole::Scratch;
  }
}

StringRef bufferOf(StringRef Arg) {
  Arg.consume_front("out=");
  Arg.consume_front("reinterpret_tensor(");
  Arg = Arg.ltrim();
  StringRef Id = Arg.take_while(isIdentChar);
  return Id.startswith("buf") ? Id : StringRef();
}

StringRef cppBufferOf(StringRef Arg) {
  Arg = Arg.trim();
  size_t P = Arg.find(".data_ptr()");
  if (P != StringRef::npos) {
    // The name right before `.data_ptr()`.
    size_t B = P;
    while (B && isIdentChar(Arg[B - 1]))
      --B;
    Arg = Arg.slice(B, P);
  } else {
    while (Arg.consume_front("wrap_with_raii_handle_if_needed(") ||
           Arg.consume_front("reinterpret_tensor_wrapper(") ||
           Arg.consume_front("RAIIAtenTensorHandle(") ||
           Arg.consume_front("std::move("))
      Arg = Arg.ltrim();
  }
  StringRef Id = Arg.take_while(isIdentChar);
  return Id.startswith("buf") ? Id : StringRef();
}

void parseCallArgs(StringRef S, std::vector<CallArg> &Args, bool Cpp) {
  Args.clear();
  size_t Start = 0;
  auto Add = [&](size_t E) {
    StringRef A = S.slice(Start, E).trim();
    CallArg CA;
    CA.Buffer = (Cpp ? cppBufferOf(A) : bufferOf(A)).str();
    CA.Out = !Cpp && !CA.Buffer.empty() && A.startswith("out=");
    Args.push_back(std::move(CA));
    Start = E + 1;
  };
  lex::findTopLevelIf(S, [&](size_t I) {
    char C = S[I];
    if (C == ')' || C == ']' || C == '}') {
      Add(I);
      return true;
    }
    if (C == ',')
      Add(I);
    return false;
  });
}

} // namespace wrapper
} // namespace tlp
