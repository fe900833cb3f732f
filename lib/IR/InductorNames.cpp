//===- InductorNames.cpp - What PyTorch's and Inductor's names say --------===//
//
// Part of tlp. See InductorNames.h.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/InductorNames.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <map>

using namespace llvm;

namespace tlp {

//===----------------------------------------------------------------------===//
// Kernel names
//===----------------------------------------------------------------------===//

KernelKind guessKernelKind(StringRef Name) {
  if (Name.startswith("triton_tem_"))
    return KernelKind::Template;
  if (Name.startswith("triton_"))
    return KernelKind::Triton;
  if (Name.startswith("cpp_"))
    return KernelKind::Cpp;
  if (isExternKernelName(Name))
    return KernelKind::Extern;
  if (isCollectiveOp(Name))
    return KernelKind::Collective;
  // An ATen op Inductor calls as is, by its Python name (the wrapper's
  // `aten.randint.low_out(..., out=buf14)`), or through torch.ops.
  if (Name.startswith("torch.ops.") || Name.startswith("aten."))
    return KernelKind::Fallback;
  if (isAOTIShimName(Name)) {
    if (Name.startswith("aoti_torch_proxy_executor"))
      return KernelKind::Fallback;
    return KernelKind::Extern;
  }
  return KernelKind::Unknown;
}

KernelKind launchedKernelKind(StringRef Name) {
  KernelKind K = guessKernelKind(Name);
  return K == KernelKind::Unknown ? KernelKind::Triton : K;
}

KernelKind backendKernelKind(StringRef Backend, StringRef Name) {
  if (Backend == "triton")
    return Name.startswith("triton_tem_") ? KernelKind::Template
                                          : KernelKind::Triton;
  if (Backend == "cpp_pybinding" || Backend == "cpp")
    return KernelKind::Cpp;
  if (Backend == "cuda" || Backend == "rocm")
    return KernelKind::Template;
  return KernelKind::Unknown;
}

bool isExternKernelName(StringRef Name) {
  return Name.startswith("extern_kernels.");
}

bool isOpKernelCall(StringRef Callee) {
  return Callee.startswith("torch.ops.") &&
         !Callee.startswith("torch.ops.inductor.");
}

bool isFusedKernelName(StringRef Name) { return Name.contains("fused_"); }

StringRef dropKernelCounter(StringRef Id) {
  if (!Id.startswith("triton_") && !Id.startswith("cpp_"))
    return Id;
  size_t U = Id.rfind('_');
  if (U == StringRef::npos || U + 1 == Id.size() || U < 4)
    return Id;
  StringRef Digits = Id.substr(U + 1);
  if (!llvm::all_of(Digits, isDigit))
    return Id;
  return Id.take_front(U);
}

static void splitTokens(StringRef S, std::vector<std::string> &Out) {
  SmallVector<StringRef, 8> Parts;
  S.split(Parts, '_', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts)
    Out.push_back(P.str());
}

std::vector<std::string> kernelOpTokens(StringRef Name) {
  std::vector<std::string> Tokens;
  size_t F = Name.find("fused_");
  if (F != StringRef::npos) {
    StringRef S = Name.substr(F + 6);
    // Drop the `_N` suffix.
    size_t U = S.rfind('_');
    if (U != StringRef::npos &&
        S.substr(U + 1).find_first_not_of("0123456789") == StringRef::npos)
      S = S.substr(0, U);
    splitTokens(S, Tokens);
    return Tokens;
  }
  StringRef S = Name;
  if (S.consume_front("extern_kernels.")) {
    splitTokens(S, Tokens);
    return Tokens;
  }
  if (S.consume_front("aoti_torch_")) {
    // aoti_torch_<device>_<op>[_out]
    size_t U = S.find('_');
    if (U != StringRef::npos)
      S = S.substr(U + 1);
    S.consume_back("_out");
    splitTokens(S, Tokens);
    return Tokens;
  }
  if (S.startswith("torch.ops.")) {
    splitTokens(targetOp(S), Tokens);
    return Tokens;
  }
  return Tokens;
}

//===----------------------------------------------------------------------===//
// AOTInductor (C++ wrapper) names
//===----------------------------------------------------------------------===//

bool isAOTIShimName(StringRef Name) { return Name.startswith("aoti_torch_"); }

bool isAOTIKernelCall(StringRef Callee) {
  if (!Callee.consume_front("aoti_torch_"))
    return false;
  if (Callee.startswith("proxy_executor_call_function"))
    return true;
  for (const char *Dev : {"cpu_", "cuda_", "xpu_", "mps_", "mtia_"})
    if (Callee.startswith(Dev))
      return true;
  return false;
}

Optional<std::string> aotIdOfLine(StringRef Line) {
  StringRef T = trimWS(Line);
  if (!T.consume_front("# AOT ID:"))
    return None;
  std::string Id = trimWS(T).trim("[]").trim("'\"").str();
  sanitizeUTF8(Id); // a text of the IR, as the code is
  return Id;
}

GraphKind graphKindOfAotId(StringRef AotId) {
  if (AotId.endswith("_forward"))
    return GraphKind::Forward;
  if (AotId.endswith("_backward"))
    return GraphKind::Backward;
  if (AotId.endswith("_inference"))
    return GraphKind::Inference;
  return GraphKind::Unknown;
}

StringRef aotIdNumber(StringRef AotId) {
  for (StringRef Kind : {"_forward", "_backward", "_inference"})
    if (AotId.consume_back(Kind))
      return AotId;
  return "";
}

std::vector<Optional<AotPair>> pairAotBackwards(ArrayRef<AotGraph> Graphs) {
  using Key = std::pair<uint32_t, StringRef>; // compile, id number
  std::map<Key, unsigned> Forwards, Backwards;
  for (const AotGraph &G : Graphs) {
    if (G.Kind == GraphKind::Forward)
      ++Forwards[Key(G.Compile, G.Number)];
    else if (G.Kind == GraphKind::Backward)
      ++Backwards[Key(G.Compile, G.Number)];
  }
  // Whether each graph's id number is its own: one forward's and one
  // backward's of its compile; then the forward of that id.
  std::vector<bool> Own(Graphs.size());
  std::map<Key, size_t> ByOwnId;
  for (size_t I = 0; I < Graphs.size(); ++I) {
    Key K(Graphs[I].Compile, Graphs[I].Number);
    Own[I] = !K.second.empty() && Forwards[K] == 1 && Backwards[K] == 1;
    if (Own[I] && Graphs[I].Kind == GraphKind::Forward)
      ByOwnId[K] = I;
  }
  std::vector<Optional<AotPair>> Out(Graphs.size());
  std::vector<bool> Taken(Graphs.size());
  for (size_t I = 0; I < Graphs.size(); ++I) {
    const AotGraph &G = Graphs[I];
    if (G.Kind != GraphKind::Backward)
      continue;
    if (Own[I]) {
      Out[I] = AotPair{ByOwnId[Key(G.Compile, G.Number)], true};
      continue;
    }
    for (size_t J = I; J-- > 0;) {
      const AotGraph &F = Graphs[J];
      if (F.Kind == GraphKind::Forward && F.Compile == G.Compile &&
          !Taken[J] && !Own[J]) {
        Taken[J] = true;
        Out[I] = AotPair{J, false};
        break;
      }
    }
  }
  return Out;
}

std::string aotiLaunchWrapper(StringRef Kernel) {
  return ("call_" + Kernel).str();
}

bool consumeAOTILaunchWrapper(StringRef &Callee) {
  return Callee.consume_front("call_");
}

//===----------------------------------------------------------------------===//
// Op targets
//===----------------------------------------------------------------------===//

StringRef shortTarget(StringRef Target) {
  Target.consume_front("torch.ops.");
  return Target;
}

std::string targetOp(StringRef T) {
  T = T.trim();
  SmallVector<StringRef, 6> Parts;
  T.split(Parts, '.');
  StringRef Op;
  if (T.startswith("torch.ops.") && Parts.size() >= 4)
    Op = Parts[3];
  else if ((T.startswith("aten.") || T.startswith("prims.")) &&
           Parts.size() >= 2)
    Op = Parts[1];
  else
    Op = Parts.back();
  return Op.trim('_').str();
}

std::vector<std::string> targetAliases(StringRef T) {
  std::vector<std::string> Out;
  auto Add = [&](StringRef S) {
    if (!S.empty() && llvm::find(Out, S) == Out.end())
      Out.push_back(S.str());
  };
  T = T.trim();
  // Dynamo's pre-grad graphs name some torch functions by their repr.
  if (T.consume_front("<built-in method ")) {
    StringRef Op = T.take_until([](char C) { return C == ' ' || C == '>'; });
    Add(("torch." + Op).str());
    Add(Op);
    return Out;
  }
  if (T.consume_front("<built-in function ")) {
    Add(T.take_until([](char C) { return C == '>'; }));
    return Out;
  }
  Add(T);
  StringRef S = T;
  bool OpOverload = S.consume_front("torch.ops.");
  if (!OpOverload)
    OpOverload = S.startswith("aten.") || S.startswith("prims.");
  if (OpOverload) {
    // namespace.op.overload
    SmallVector<StringRef, 4> Parts;
    S.split(Parts, '.');
    Add(S);
    if (Parts.size() >= 3)
      Add((Parts[0] + "." + Parts[1]).str());
    if (Parts.size() >= 2)
      Add(Parts[1]);
    return Out;
  }
  Add(S.rsplit('.').second.empty() ? S : S.rsplit('.').second);
  return Out;
}

bool isViewOp(StringRef Op) {
  return StringSwitch<bool>(Op)
      .Cases("getitem", "view", "reshape", "permute", "t", "transpose",
             "expand", "unsqueeze", "squeeze", true)
      .Cases("unsafe_view", "alias", "slice", "select", "as_strided",
             "detach", "contiguous", "split", "unbind", true)
      .Default(false);
}

bool isCollectiveOp(StringRef Name) {
  // AOTInductor's C shim names an op `aoti_torch_<device>_<ns>_<op>`:
  // `aoti_torch_cpu__c10d_functional_all_reduce_`.
  if (isAOTIShimName(Name))
    return Name.contains("c10d") ||
           Name.contains("_dtensor_shard_dim_alltoall");
  if (!Name.consume_front("torch.ops."))
    return false;
  auto [Ns, Rest] = Name.split('.');
  if (Rest.empty())
    return false;
  if (Ns == "_dtensor")
    // The namespace also holds mesh_get_process_group, which is not one.
    return Rest.split('.').first == "shard_dim_alltoall";
  return Ns == "_c10d_functional" || Ns == "_c10d_functional_autograd" ||
         Ns == "c10d_functional" || Ns == "c10d";
}

} // namespace tlp
