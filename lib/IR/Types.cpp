//===- Types.cpp - Basic value types of the provenance IR -----------------===//

#include "tlp/IR/Types.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace tlp {

StringRef graphKindName(GraphKind K) {
  switch (K) {
  case GraphKind::Forward:
    return "forward";
  case GraphKind::Backward:
    return "backward";
  case GraphKind::Inference:
    return "inference";
  case GraphKind::Unknown:
    return "unknown";
  }
  return "unknown";
}

bool parseGraphKind(StringRef S, GraphKind &K) {
  Optional<GraphKind> R = StringSwitch<Optional<GraphKind>>(S)
                              .Case("forward", GraphKind::Forward)
                              .Case("backward", GraphKind::Backward)
                              .Case("inference", GraphKind::Inference)
                              .Case("unknown", GraphKind::Unknown)
                              .Default(None);
  if (!R)
    return false;
  K = *R;
  return true;
}

StringRef nodeOpName(NodeOp Op) {
  switch (Op) {
  case NodeOp::Placeholder:
    return "placeholder";
  case NodeOp::GetAttr:
    return "get_attr";
  case NodeOp::CallFunction:
    return "call_function";
  case NodeOp::CallMethod:
    return "call_method";
  case NodeOp::CallModule:
    return "call_module";
  case NodeOp::Output:
    return "output";
  case NodeOp::Unknown:
    return "unknown";
  }
  return "unknown";
}

bool parseNodeOp(StringRef S, NodeOp &Op) {
  Optional<NodeOp> R = StringSwitch<Optional<NodeOp>>(S)
                           .Case("placeholder", NodeOp::Placeholder)
                           .Case("get_attr", NodeOp::GetAttr)
                           .Case("call_function", NodeOp::CallFunction)
                           .Case("call_method", NodeOp::CallMethod)
                           .Case("call_module", NodeOp::CallModule)
                           .Case("output", NodeOp::Output)
                           .Case("unknown", NodeOp::Unknown)
                           .Default(None);
  if (!R)
    return false;
  Op = *R;
  return true;
}

StringRef kernelKindName(KernelKind K) {
  switch (K) {
  case KernelKind::Triton:
    return "triton";
  case KernelKind::Cpp:
    return "cpp";
  case KernelKind::Extern:
    return "extern";
  case KernelKind::Fallback:
    return "fallback";
  case KernelKind::Combo:
    return "combo";
  case KernelKind::Template:
    return "template";
  case KernelKind::Collective:
    return "collective";
  case KernelKind::Unknown:
    return "unknown";
  }
  return "unknown";
}

bool parseKernelKind(StringRef S, KernelKind &K) {
  Optional<KernelKind> R = StringSwitch<Optional<KernelKind>>(S)
                               .Case("triton", KernelKind::Triton)
                               .Case("cpp", KernelKind::Cpp)
                               .Case("extern", KernelKind::Extern)
                               .Case("fallback", KernelKind::Fallback)
                               .Case("combo", KernelKind::Combo)
                               .Case("template", KernelKind::Template)
                               .Case("collective", KernelKind::Collective)
                               .Case("unknown", KernelKind::Unknown)
                               .Default(None);
  if (!R)
    return false;
  K = *R;
  return true;
}

KernelKind guessKernelKind(StringRef Name) {
  if (Name.startswith("triton_tem_"))
    return KernelKind::Template;
  if (Name.startswith("triton_"))
    return KernelKind::Triton;
  if (Name.startswith("cpp_"))
    return KernelKind::Cpp;
  if (Name.startswith("extern_kernels."))
    return KernelKind::Extern;
  if (Name.startswith("torch.ops._c10d_functional.") ||
      Name.startswith("torch.ops.c10d.") ||
      Name.startswith("torch.ops.c10d_functional.") ||
      Name.startswith("torch.ops._dtensor."))
    return KernelKind::Collective;
  if (Name.startswith("torch.ops."))
    return KernelKind::Fallback;
  if (Name.startswith("aoti_torch_")) {
    if (Name.contains("c10d"))
      return KernelKind::Collective;
    if (Name.startswith("aoti_torch_proxy_executor"))
      return KernelKind::Fallback;
    return KernelKind::Extern;
  }
  return KernelKind::Unknown;
}

StringRef languageName(Language L) {
  return L == Language::Python ? "python" : "cpp";
}

bool parseLanguage(StringRef S, Language &L) {
  if (S == "python")
    L = Language::Python;
  else if (S == "cpp")
    L = Language::Cpp;
  else
    return false;
  return true;
}

StringRef edgeOriginName(EdgeOrigin O) {
  switch (O) {
  case EdgeOrigin::Mapping:
    return "mapping";
  case EdgeOrigin::NodeTree:
    return "node-tree";
  case EdgeOrigin::KernelNodes:
    return "kernel-nodes";
  case EdgeOrigin::CodeComment:
    return "code-comment";
  case EdgeOrigin::StackTrace:
    return "stack-trace";
  case EdgeOrigin::FXComment:
    return "fx-comment";
  }
  return "mapping";
}

bool parseEdgeOrigin(StringRef S, EdgeOrigin &O) {
  Optional<EdgeOrigin> R = StringSwitch<Optional<EdgeOrigin>>(S)
                               .Case("mapping", EdgeOrigin::Mapping)
                               .Case("node-tree", EdgeOrigin::NodeTree)
                               .Case("kernel-nodes", EdgeOrigin::KernelNodes)
                               .Case("code-comment", EdgeOrigin::CodeComment)
                               .Case("stack-trace", EdgeOrigin::StackTrace)
                               .Case("fx-comment", EdgeOrigin::FXComment)
                               .Default(None);
  if (!R)
    return false;
  O = *R;
  return true;
}

std::string CompileId::str() const {
  std::string S;
  if (CompiledAutogradId) {
    S = "!" + std::to_string(*CompiledAutogradId);
    if (FrameId)
      S += "/" + std::to_string(*FrameId) + "/" +
           std::to_string(FrameCompileId.getValueOr(0));
  } else {
    S = std::to_string(FrameId.getValueOr(0)) + "/" +
        std::to_string(FrameCompileId.getValueOr(0));
  }
  if (Attempt)
    S += "_" + std::to_string(Attempt);
  return S;
}

std::string CompileId::slug() const {
  std::string S = str();
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '!')
      Out += "ca";
    else if (S[I] == '/')
      Out += '-';
    else
      Out += S[I];
  }
  return Out;
}

static bool parseInt(StringRef S, int64_t &V) {
  uint64_t U;
  if (!parseUnsigned(S, U) || U > static_cast<uint64_t>(INT64_MAX))
    return false;
  V = static_cast<int64_t>(U);
  return true;
}

Optional<CompileId> CompileId::parse(StringRef S) {
  CompileId Id;
  // Attempt suffix: "_N" at the end.
  size_t U = S.rfind('_');
  if (U != StringRef::npos) {
    int64_t A;
    if (!parseInt(S.substr(U + 1), A))
      return None;
    Id.Attempt = A;
    S = S.substr(0, U);
  }
  SmallVector<StringRef, 4> Parts;
  if (S.consume_front("!")) {
    S.split(Parts, '/');
    if (Parts.size() != 1 && Parts.size() != 3)
      return None;
    int64_t V;
    if (!parseInt(Parts[0], V))
      return None;
    Id.CompiledAutogradId = V;
    if (Parts.size() == 3) {
      int64_t F, C;
      if (!parseInt(Parts[1], F) || !parseInt(Parts[2], C))
        return None;
      Id.FrameId = F;
      Id.FrameCompileId = C;
    }
    return Id;
  }
  S.split(Parts, '/');
  if (Parts.size() != 2)
    return None;
  int64_t F, C;
  if (!parseInt(Parts[0], F) || !parseInt(Parts[1], C))
    return None;
  Id.FrameId = F;
  Id.FrameCompileId = C;
  return Id;
}

} // namespace tlp
