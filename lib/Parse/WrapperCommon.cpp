//===- WrapperCommon.cpp - Shared pieces of the wrapper parsers -----------===//

#include "WrapperCommon.h"

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

void PendingComments::finish(PayloadContext &Ctx) {
  for (const Handle &H : Handles)
    Ctx.warning(H.Line, "debug handle comment '" + H.Name + ":" +
                            Twine(H.Value) +
                            "' is not followed by a call of '" + H.Name + "'");
  Handles.clear();
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

} // namespace wrapper
} // namespace tlp
