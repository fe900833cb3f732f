//===- InferLinks.cpp - Links inferred without a provenance mapping -------===//
//
// Most logs have no provenance mapping (PyTorch writes it only with
// INDUCTOR_PROVENANCE). Their graphs and code still tell a lot:
//
//   source-line  pre -> post: a post-grad node and the pre-grad nodes with
//                the same FX `# File:` line. One pre-grad node on the line:
//                confidence 90 (75 if its op does not explain the post-grad
//                op); several: the one whose op the post-grad node's op
//                names or decomposes into (80), else the one its inputs on
//                the line agree on (65); a line run by several layers pairs
//                its nodes with the layers' in graph order, last layer
//                first in a backward (70). A node only the output uses
//                that no op of its line explains is saved for backward (a
//                mask) and gets no pre-grad node.
//   op-match     post -> kernel, for kernels no code comment links: an
//                extern, fallback or collective call takes the first
//                free post-grad node, in graph order, whose op the kernel
//                names and that comes from a pre-grad node of the call's
//                `Topologically Sorted Source Nodes` (85; no such comment,
//                or none of its names a pre-grad node: 60). A fused kernel
//                takes the free post-grad nodes whose op its name holds
//                (80); for a decomposed node (its op is not
//                its pre-grad node's), the kernel holding the pre-grad op
//                comes first (75; both ops: 85); a node the graph returns
//                goes to the fused kernel that wrote the buffer the wrapper
//                returns in its place (90); a node several kernels could
//                take goes to the one whose stack traces hold its user line
//                (70), else the one holding a neighbour (70); a node no name
//                explains goes to the one kernel of its window whose stack
//                traces hold its line (60), else the one kernel its
//                neighbours are in when its pre-grad nodes are that
//                kernel's too (60). Without a pre-grad graph (a warm cache)
//                a call takes the first free node with its op (60).
//
// Deep models (a loop over layers): a line's runs of post-grad nodes are
// paired with its pre-grad runs (alignRuns), so candidates are one layer's
// nodes (in a backward graph the layers come last first: its first run of
// a line is the last layer's); several ops that explain a node are told
// apart by where its inputs come from (flowsFrom); a backward's gradient
// nodes go by what each op's gradient is made of (gradientHolds), not its
// forward decomposition; a fused kernel is chosen only among the calls
// that the node's data flow allows (computeWindows: the wrapper calls
// kernels in topological order). A view op gets the fused kernels reading through it
// whose name holds it (claimViews), never a kernel of its own; getitem none.
// A node recomputed by a later fused kernel (no buffer of it read, by the
// wrapper's buffer flow) gets that kernel too (claimRecomputed).
//
//===----------------------------------------------------------------------===//

#include "InferLinks.h"

#include "tlp/Analysis/DataFlow.h"
#include "tlp/IR/InductorNames.h"
#include "tlp/IR/Provenance.h"
#include "tlp/IR/SourceInfo.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <set>

using namespace llvm;

namespace tlp {

static void splitTokens(StringRef S, std::vector<std::string> &Out) {
  SmallVector<StringRef, 8> Parts;
  S.split(Parts, '_', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts)
    Out.push_back(P.str());
}

namespace {

/// True if the tokens of \p Op appear, in a row, in \p Tokens.
bool holdsOp(const std::vector<std::string> &Tokens, StringRef Op) {
  if (Op.empty())
    return false;
  std::vector<std::string> Want;
  splitTokens(Op, Want);
  if (Want.empty() || Want.size() > Tokens.size())
    return false;
  for (size_t I = 0; I + Want.size() <= Tokens.size(); ++I) {
    bool All = true;
    for (size_t J = 0; J < Want.size() && All; ++J)
      All = Tokens[I + J] == Want[J];
    if (All)
      return true;
  }
  return false;
}

/// True if a fused kernel's name tokens name post-grad op \p Op: the op
/// itself (holdsOp), or the op it came from that Inductor names the kernel
/// by (the node's original ATen op): `iota` from `arange`, `full` from
/// `zeros`, `ones` and the like (`cpp_fused_zeros_1` computes a
/// `full_default`).
bool namesPostOp(const std::vector<std::string> &Tokens, StringRef Op) {
  if (holdsOp(Tokens, Op))
    return true;
  auto Any = [&](std::initializer_list<StringRef> L) {
    return any_of(L, [&](StringRef O) { return holdsOp(Tokens, O); });
  };
  if (Op == "iota")
    return Any({"arange"});
  if (Op == "full")
    return Any({"zeros", "ones", "new_zeros", "new_ones", "zeros_like",
                "ones_like", "full_like", "new_full"});
  return false;
}

/// Two ops name the same thing: equal, or one's tokens in a row in the
/// other's (`layer_norm` and `native_layer_norm`).
bool sameOp(StringRef A, StringRef B) {
  if (A.empty() || B.empty())
    return false;
  if (A == B)
    return true;
  std::vector<std::string> TA, TB;
  splitTokens(A, TA);
  splitTokens(B, TB);
  return holdsOp(TA, B) || holdsOp(TB, A);
}

/// Ops a pre-grad op commonly decomposes into (post-grad ops).
bool decomposesInto(StringRef Pre, StringRef Post) {
  // Reshapes come out as `view` (`reshape.default` in the graph text).
  if (Post == "reshape" || Post == "unsafe_view")
    Post = "view";
  auto In = [&](std::initializer_list<StringRef> L) {
    return llvm::is_contained(L, Post);
  };
  if (Pre == "transpose" || Pre == "t" || Pre == "permute")
    return In({"permute"});
  if (Pre == "reshape" || Pre == "view" || Pre == "flatten")
    return In({"view", "clone"});
  if (Pre == "contiguous")
    return In({"clone"});
  if (Pre == "tril" || Pre == "triu")
    return In({"iota", "unsqueeze", "sub", "le", "ge", "logical_and"});
  if (Pre == "ones" || Pre == "zeros" || Pre == "new_ones" ||
      Pre == "new_zeros")
    return In({"full"});
  if (Pre == "split" || Pre == "chunk")
    return In({"split_with_sizes", "split"});
  // A linear lowers to addmm or mm (a batched input is viewed as 2-D
  // first), never to bmm: that is a matmul's.
  if (Pre == "linear")
    return In({"addmm", "mm", "permute", "t", "view", "expand", "add"});
  if (Pre == "matmul")
    return In({"mm", "bmm", "view", "reshape", "expand", "unsafe_view",
               "clone"});
  if (Pre == "softmax" || Pre == "log_softmax")
    return In({"amax", "sub", "exp", "sum", "div", "log"});
  if (Pre == "layer_norm" || Pre == "group_norm" || Pre == "batch_norm")
    return In({"var_mean", "getitem", "sub", "add", "rsqrt", "mul"});
  if (Pre == "gelu")
    return In({"mul", "erf", "add", "tanh", "pow"});
  if (Pre == "silu")
    return In({"sigmoid", "mul"});
  if (Pre == "mean")
    return In({"sum", "div"});
  if (Pre == "invert")
    return In({"bitwise_not", "logical_not"});
  if (Pre == "masked_fill")
    return In({"where", "full", "scalar_tensor"});
  if (Pre == "arange")
    return In({"iota"});
  if (Pre == "dropout")
    return In({"clone", "native_dropout"});
  return false;
}

/// For a backward's gradient node: whether post-grad op \p Post is one
/// the gradient of pre-grad op \p Pre is commonly made of, for the ops
/// whose gradient is known here; None for another op. A gradient is not
/// the forward's decomposition: `mean` decomposes into `sum`, but a
/// gradient's `sum` on its line is a bias gradient (linear's); linear
/// decomposes into `expand`, but a gradient's `expand` is `mean`'s.
Optional<bool> gradientHolds(StringRef Pre, StringRef Post) {
  if (Post == "reshape" || Post == "unsafe_view")
    Post = "view";
  auto In = [&](std::initializer_list<StringRef> L) {
    return Optional<bool>(llvm::is_contained(L, Post));
  };
  // The input's gradient (mm), the weight's (permute, mm), the bias's
  // (sum, view).
  if (Pre == "linear")
    return In({"mm", "permute", "t", "view", "sum", "clone"});
  if (Pre == "matmul")
    return In({"mm", "bmm", "permute", "view", "expand", "clone", "sum"});
  if (Pre == "mean")
    return In({"expand", "div", "view", "unsqueeze"});
  if (Pre == "sum")
    return In({"expand", "view", "unsqueeze"});
  // `add` when one tensor is both factors' input (`h * sigmoid(h)`).
  if (Pre == "mul")
    return In({"mul", "add"});
  if (Pre == "div")
    return In({"div", "mul", "neg"});
  if (Pre == "relu")
    return In({"le", "where", "threshold_backward", "full",
               "scalar_tensor"});
  if (Pre == "gelu")
    return In({"mul", "erf", "exp", "add", "neg", "gelu_backward"});
  if (Pre == "sigmoid")
    return In({"mul", "sub", "neg", "sigmoid_backward"});
  if (Pre == "tanh")
    return In({"mul", "sub", "neg", "tanh_backward"});
  if (Pre == "softmax")
    return In({"mul", "sum", "sub", "neg", "fma", "_softmax_backward_data"});
  if (Pre == "log_softmax")
    return In({"exp", "sum", "mul", "sub", "fma",
               "_log_softmax_backward_data"});
  // The input's gradient (two sums over the normalized dims), the
  // weight's and the bias's (sums over the rest).
  if (Pre == "layer_norm" || Pre == "group_norm" || Pre == "batch_norm")
    return In({"mul", "sum", "sub", "div", "add", "neg",
               "native_layer_norm_backward", "native_group_norm_backward",
               "native_batch_norm_backward"});
  return None;
}

bool isFused(const Kernel &K) { return isFusedKernelName(K.Name); }

bool isCall(const Kernel &K) {
  return !isFused(K) &&
         (K.Kind == KernelKind::Extern || K.Kind == KernelKind::Fallback ||
          K.Kind == KernelKind::Collective);
}

class Inferrer {
public:
  Inferrer(CompileUnit &U, std::vector<Optional<StringRef>> RowScope)
      : U(U), RowScope(std::move(RowScope)) {}

  void run(bool PrePost, bool PostKernel) {
    if (!U.PostGrad)
      return;
    const auto &PostNodes = U.PostGrad->Nodes;
    PreOp.clear();
    if (U.PreGrad)
      for (const Node &N : U.PreGrad->Nodes)
        PreOp.push_back(targetOp(N.Target));
    PostIn = nodeInputs(*U.PostGrad);
    PostUsers.assign(PostNodes.size(), {});
    for (uint32_t I = 0; I < PostIn.size(); ++I)
      for (uint32_t J : PostIn[I])
        PostUsers[J].push_back(I);
    PreOfPost.assign(PostNodes.size(), {});
    KernelOf.assign(PostNodes.size(), -1);
    std::vector<bool> RowLinked(U.Kernels.size(), false);
    for (const Edge &E : U.Edges) {
      if (E.From.Kind == Endpoint::PreNode && E.To.Kind == Endpoint::PostNode)
        PreOfPost[E.To.Index].insert(E.From.Index);
      else if (E.From.Kind == Endpoint::PostNode &&
               E.To.Kind == Endpoint::KernelRow) {
        KernelOf[E.From.Index] = E.To.Index;
        RowLinked[E.To.Index] = true;
      }
    }
    if (PrePost && U.PreGrad)
      inferPrePost();
    if (PostKernel) {
      inferPostKernel(RowLinked);
      pruneCallTopo();
    }
  }

private:
  CompileUnit &U;
  std::vector<std::vector<uint32_t>> PostIn, PostUsers, PreIn, PreUsers;
  /// The op of each pre-grad node (targetOp), computed once.
  std::vector<std::string> PreOp;
  /// Post-grad nodes a backward's tangents flow into: its gradient nodes.
  std::vector<bool> Gradient;
  std::vector<std::set<uint32_t>> PreOfPost;
  std::vector<int64_t> KernelOf;

  void edge(Endpoint::EndpointKind FK, uint32_t F, Endpoint::EndpointKind TK,
            uint32_t T, EdgeOrigin O, unsigned Conf) {
    Edge E{Endpoint{FK, F}, Endpoint{TK, T}, O};
    E.Confidence = static_cast<uint8_t>(Conf);
    U.Edges.push_back(E);
  }

  /// The inputs and users of \p Q, and past a view op the nodes it views
  /// or that use the view (a mask's `iota` reaches its `sub` through the
  /// `unsqueeze`).
  std::vector<uint32_t> neighbours(uint32_t Q) const {
    const auto &PostNodes = U.PostGrad->Nodes;
    std::vector<uint32_t> N;
    std::set<uint32_t> Seen = {Q};
    auto Walk = [&](const std::vector<std::vector<uint32_t>> &Next) {
      std::vector<uint32_t> Work = Next[Q];
      while (!Work.empty()) {
        uint32_t M = Work.back();
        Work.pop_back();
        if (!Seen.insert(M).second)
          continue;
        N.push_back(M);
        if (isComputeNode(PostNodes[M]) &&
            isViewOp(targetOp(PostNodes[M].Target)))
          Work.insert(Work.end(), Next[M].begin(), Next[M].end());
      }
    };
    Walk(PostIn);
    Walk(PostUsers);
    return N;
  }

  void inferPrePost() {
    const auto &PreNodes = U.PreGrad->Nodes;
    const auto &PostNodes = U.PostGrad->Nodes;
    std::map<uint32_t, std::vector<uint32_t>> PreBySource;
    for (uint32_t I = 0; I < PreNodes.size(); ++I)
      if (isComputeNode(PreNodes[I]) && PreNodes[I].Source)
        PreBySource[*PreNodes[I].Source].push_back(I);
    PreIn = nodeInputs(*U.PreGrad);
    // A backward computes a node's gradient from its users' gradients: the
    // pre-grad edges into a gradient node come from its users. Its other
    // nodes recompute the forward (the partitioner's recomputed ops) and
    // flow as the forward does.
    PreUsers.assign(PreIn.size(), {});
    for (uint32_t I = 0; I < PreIn.size(); ++I)
      for (uint32_t J : PreIn[I])
        if (J < PreUsers.size())
          PreUsers[J].push_back(I);
    Gradient.assign(PostNodes.size(), false);
    if (U.Key.Graph == GraphKind::Backward)
      for (uint32_t Q = 0; Q < PostNodes.size(); ++Q) {
        const Node &N = PostNodes[Q];
        Gradient[Q] = N.Op == NodeOp::Placeholder
                          ? StringRef(N.Name).startswith("tangents_")
                          : any_of(PostIn[Q], [&](uint32_t M) {
                              return M < Q && Gradient[M];
                            });
      }
    // Runs of a line: a line run by several layers (a loop over blocks)
    // comes back once per layer, in a forward in the pre-grad graph's
    // order, in a backward last layer first. When both graphs run a line
    // the same number of times, the i-th run of post-grad nodes comes from
    // the i-th run of pre-grad nodes (in a backward the i-th from last).
    std::vector<uint32_t> PreRun, PostRun;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> RunTo =
        alignRuns(PreRun, PostRun);
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> PreByRun;
    for (uint32_t I = 0; I < PreNodes.size(); ++I)
      if (isComputeNode(PreNodes[I]) && PreNodes[I].Source)
        PreByRun[{*PreNodes[I].Source, PreRun[I]}].push_back(I);
    // Post nodes still open, with the pre nodes they may come from.
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> Open, Repeats;
    for (uint32_t Q = 0; Q < PostNodes.size(); ++Q) {
      const Node &N = PostNodes[Q];
      if (!isComputeNode(N) || !N.Source || !PreOfPost[Q].empty())
        continue;
      auto It = PreBySource.find(*N.Source);
      if (It == PreBySource.end())
        continue;
      const std::vector<uint32_t> *CandsP = &It->second;
      bool InRun = false;
      auto To = RunTo.find({*N.Source, PostRun[Q]});
      if (To != RunTo.end()) {
        auto R = PreByRun.find({*N.Source, To->second});
        if (R != PreByRun.end()) {
          CandsP = &R->second;
          InRun = true;
        }
      }
      const std::vector<uint32_t> &Cands = *CandsP;
      std::string Op = targetOp(N.Target);
      // Whether pre-grad op \p Pre's decomposition holds the node's op;
      // for a gradient node not where the op's gradient is known not to
      // (it is then unknown rather than a wrong guess).
      auto Decomposes = [&](StringRef Pre) {
        if (!decomposesInto(Pre, Op))
          return false;
        Optional<bool> G =
            Gradient[Q] ? gradientHolds(Pre, Op) : Optional<bool>();
        return !G || *G;
      };
      auto Explains = [&](uint32_t P) {
        return sameOp(PreOp[P], Op) || Decomposes(PreOp[P]);
      };
      // A node only the output uses, that no op of its line explains, is
      // saved for the backward graph (relu's `le` mask for
      // threshold_backward): AOTAutograd gives it the line, the user's
      // code did not make it.
      if (none_of(Cands, Explains) && !PostUsers[Q].empty() &&
          all_of(PostUsers[Q], [&](uint32_t M) {
            return PostNodes[M].Op == NodeOp::Output;
          }))
        continue;
      // A run's pre-grad nodes are a guess one step further.
      unsigned Less = InRun ? 5 : 0;
      // `getitem` takes an output of a node of several (split, var_mean):
      // it comes from what that node comes from.
      if (Op == "getitem" && PostIn[Q].size() == 1 &&
          !PreOfPost[PostIn[Q][0]].empty() &&
          all_of(PreOfPost[PostIn[Q][0]],
                 [&](uint32_t P) { return is_contained(Cands, P); })) {
        std::set<uint32_t> From = PreOfPost[PostIn[Q][0]];
        for (uint32_t P : From)
          link(P, Q, 80 - Less);
        continue;
      }
      if (Cands.size() == 1) {
        link(Cands[0], Q, (Explains(Cands[0]) ? 90 : 75) - Less);
        continue;
      }
      std::vector<uint32_t> Same, Decomp;
      for (uint32_t P : Cands) {
        if (sameOp(PreOp[P], Op))
          Same.push_back(P);
        else if (Decomposes(PreOp[P]))
          Decomp.push_back(P);
      }
      // A gradient node no op of the line explains by name or forward
      // decomposition, when the gradient of every op of the line is known:
      // the one op whose gradient makes it (mean's `expand`, a bias
      // gradient's `sum`).
      if (Same.empty() && Decomp.empty() && Gradient[Q]) {
        std::vector<uint32_t> Grad;
        bool AllKnown = true;
        for (uint32_t P : Cands) {
          Optional<bool> G = gradientHolds(PreOp[P], Op);
          AllKnown &= G.hasValue();
          if (G && *G)
            Grad.push_back(P);
        }
        if (AllKnown && Grad.size() == 1) {
          link(Grad[0], Q, 75 - Less);
          continue;
        }
      }
      // Several ops of the line explain the node: its inputs decide. An
      // op the node is comes first (`view` of `z = (a @ w).view(-1)`),
      // then one it decomposes from, entered inside (`add` after a layer
      // norm's `var_mean` is the norm's, not the next linear's), then
      // entered from its inputs (`mul` of gelu after the linear).
      if (Same.size() + Decomp.size() > 1) {
        std::vector<uint32_t> SameIn, SameInto, DecIn, DecInto;
        if (flowsFrom(Q, Same, SameIn, SameInto)) {
          flowsFrom(Q, Decomp, DecIn, DecInto);
          SameIn.insert(SameIn.end(), SameInto.begin(), SameInto.end());
          const std::vector<uint32_t> &Pick =
              !SameIn.empty() ? SameIn : !DecIn.empty() ? DecIn : DecInto;
          if (Pick.size() == 1) {
            bool SameOp = Same.size() == 1 && Pick[0] == Same[0];
            link(Pick[0], Q, (SameOp ? 80 : 75) - Less);
            continue;
          }
          if (Pick.empty()) {
            Open.push_back({Q, Cands});
            continue;
          }
          Same = Pick;
          Decomp.clear();
        }
      }
      if (Same.empty())
        Same = Decomp;
      if (Same.size() == 1)
        link(Same[0], Q, 80 - Less);
      else if (Same.empty())
        Open.push_back({Q, Cands});
      else
        Repeats.push_back({Q, Same});
    }
    alignRepeats(Repeats);
    Open.insert(Open.end(), Repeats.begin(), Repeats.end());
    // The inputs on the same line decide the rest (a decomposition flows
    // forward from the op's first post-grad node).
    for (unsigned Round = 0; Round < 4 && !Open.empty(); ++Round) {
      std::vector<std::pair<uint32_t, std::vector<uint32_t>>> Still;
      std::vector<std::pair<uint32_t, uint32_t>> Decided;
      for (auto &O : Open) {
        std::set<uint32_t> Agree;
        for (uint32_t M : PostIn[O.first])
          if (PostNodes[M].Source == PostNodes[O.first].Source)
            for (uint32_t P : PreOfPost[M])
              if (is_contained(O.second, P))
                Agree.insert(P);
        // A backward's gradient node reads its users' gradients: the
        // gradient of the op after its own on the line (a bias gradient's
        // `sum` reads the gradient of what followed the linear). So not
        // an op whose gradient is known not to make the node's op.
        if (Agree.size() == 1 && Gradient[O.first]) {
          Optional<bool> G = gradientHolds(PreOp[*Agree.begin()],
                                           targetOp(PostNodes[O.first].Target));
          if (G && !*G)
            Agree.clear();
        }
        if (Agree.size() == 1)
          Decided.push_back({*Agree.begin(), O.first});
        else
          Still.push_back(O);
      }
      if (Decided.empty())
        break;
      for (auto &D : Decided)
        link(D.first, D.second, 65);
      Open = std::move(Still);
    }
  }

  /// The pre-grad nodes of \p Cands the inputs of post-grad node \p Q
  /// agree with: each input that has pre-grad nodes comes from it (a step
  /// inside its decomposition: \p Inside) or from one of its inputs in the
  /// pre-grad graph (the edge into it: \p Into; for a backward's gradient
  /// node one of its users, whose gradient flows into its own). Returns
  /// false if no input of \p Q has pre-grad nodes.
  bool flowsFrom(uint32_t Q, const std::vector<uint32_t> &Cands,
                 std::vector<uint32_t> &Inside, std::vector<uint32_t> &Into) {
    bool Any = any_of(PostIn[Q],
                      [&](uint32_t M) { return !PreOfPost[M].empty(); });
    for (uint32_t P : Cands) {
      bool All = true, In = false;
      for (uint32_t M : PostIn[Q]) {
        if (PreOfPost[M].empty())
          continue;
        bool Ok = PreOfPost[M].count(P) != 0;
        In |= Ok;
        for (uint32_t I : Gradient[Q] ? PreUsers[P] : PreIn[P])
          Ok |= PreOfPost[M].count(I) != 0;
        All &= Ok;
      }
      if (All)
        (In ? Inside : Into).push_back(P);
    }
    return Any;
  }

  /// A run of a line: a stretch of the graph's compute nodes with a source
  /// line where the line does not change. Numbers, for each such node, its
  /// run of its line (\p Run); \p Seq gets the runs in graph order as
  /// (line, run). Returns line -> number of runs.
  static std::map<uint32_t, uint32_t>
  lineRuns(const GraphArtifact &G, std::vector<uint32_t> &Run,
           std::vector<std::pair<uint32_t, uint32_t>> &Seq) {
    std::map<uint32_t, uint32_t> Runs;
    Run.assign(G.Nodes.size(), 0);
    Optional<uint32_t> Last;
    for (uint32_t I = 0; I < G.Nodes.size(); ++I) {
      const Node &N = G.Nodes[I];
      if (!isComputeNode(N) || !N.Source)
        continue;
      uint32_t &Count = Runs[*N.Source];
      if (Last != N.Source) {
        Seq.push_back({*N.Source, Count});
        ++Count;
      }
      Run[I] = Count - 1;
      Last = N.Source;
    }
    return Runs;
  }

  /// Pairs the runs of the post-grad graph with those of the pre-grad
  /// graph (a line run by several layers comes back once per layer, in a
  /// forward in the same order, in a backward last layer first). A line
  /// with as many runs in both pairs them in that order; these are the
  /// anchors. Inductor splits or moves some
  /// runs (a mask made before the attention it serves), so a run of another
  /// line goes to the run of its line in the pre-grad graph nearest to the
  /// pre-grad runs of the anchors before and after it, when one is nearest.
  /// Returns, for each post-grad run (line, run), the pre-grad run.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t>
  alignRuns(std::vector<uint32_t> &PreRun, std::vector<uint32_t> &PostRun) {
    std::vector<std::pair<uint32_t, uint32_t>> PreSeq, PostSeq;
    std::map<uint32_t, uint32_t> PreRuns =
        lineRuns(*U.PreGrad, PreRun, PreSeq);
    std::map<uint32_t, uint32_t> PostRuns =
        lineRuns(*U.PostGrad, PostRun, PostSeq);
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> PrePos, To;
    std::map<uint32_t, std::vector<uint32_t>> PrePosOfLine;
    for (uint32_t I = 0; I < PreSeq.size(); ++I) {
      PrePos[PreSeq[I]] = I;
      PrePosOfLine[PreSeq[I].first].push_back(I);
    }
    auto Anchored = [&](uint32_t L) {
      auto It = PreRuns.find(L);
      return It != PreRuns.end() && It->second == PostRuns[L];
    };
    // The pre-grad run of an anchored line's post-grad run \p R: the same
    // in a forward; in a backward the layers come last first (autograd
    // runs the last layer's backward first), so the first post-grad run is
    // the last layer's.
    // Not for a line a higher-order op's body runs: a body is printed
    // apart from the graph it is called from, in either graph, so its runs
    // keep no layer order.
    std::set<uint32_t> InBody;
    for (const GraphArtifact *G : {U.PreGrad.get(), U.PostGrad.get()})
      for (const Node &N : G->Nodes)
        if (N.Source && !N.Scope.empty())
          InBody.insert(*N.Source);
    bool Reverse = U.Key.Graph == GraphKind::Backward;
    auto PreRunOf = [&](uint32_t L, uint32_t R) {
      return Reverse && !InBody.count(L) ? PreRuns[L] - 1 - R : R;
    };
    // The pre-grad position of each anchored post-grad run, or -1.
    std::vector<int64_t> AnchorPos(PostSeq.size(), -1);
    for (uint32_t J = 0; J < PostSeq.size(); ++J)
      if (Anchored(PostSeq[J].first))
        AnchorPos[J] =
            PrePos[{PostSeq[J].first,
                    PreRunOf(PostSeq[J].first, PostSeq[J].second)}];
    for (uint32_t J = 0; J < PostSeq.size(); ++J) {
      uint32_t L = PostSeq[J].first;
      auto It = PreRuns.find(L);
      if (It == PreRuns.end() || It->second < 2)
        continue;
      if (AnchorPos[J] >= 0) {
        To[PostSeq[J]] = PreRunOf(L, PostSeq[J].second);
        continue;
      }
      int64_t Before = -1, After = -1;
      for (uint32_t K = J; K-- > 0 && Before < 0;)
        Before = AnchorPos[K];
      for (uint32_t K = J + 1; K < PostSeq.size() && After < 0; ++K)
        After = AnchorPos[K];
      if (Before < 0 && After < 0)
        continue;
      int64_t Best = INT64_MAX;
      unsigned Ties = 0;
      uint32_t BestRun = 0;
      for (uint32_t Pos : PrePosOfLine[L]) {
        int64_t Cost = (Before >= 0 ? std::abs(int64_t(Pos) - Before) : 0) +
                       (After >= 0 ? std::abs(int64_t(Pos) - After) : 0);
        if (Cost < Best) {
          Best = Cost;
          Ties = 1;
          BestRun = PreSeq[Pos].second;
        } else if (Cost == Best) {
          ++Ties;
        }
      }
      if (Ties == 1)
        To[PostSeq[J]] = BestRun;
    }
    return To;
  }

  /// The `Topologically Sorted Source Nodes` of an extern or fallback call
  /// also name the nodes its inputs come from (`mm(d, b)` lists `d`). Once
  /// the call has its post-grad node, keep only the pre-grad nodes of that
  /// (all of them when that node's are unknown).
  void pruneCallTopo() {
    std::vector<std::set<uint32_t>> PreOfRow(U.Kernels.size());
    std::vector<bool> Matched(U.Kernels.size(), false);
    for (uint32_t Q = 0; Q < KernelOf.size(); ++Q)
      if (KernelOf[Q] >= 0 && isCall(U.Kernels[KernelOf[Q]]) &&
          !PreOfPost[Q].empty()) {
        Matched[KernelOf[Q]] = true;
        PreOfRow[KernelOf[Q]].insert(PreOfPost[Q].begin(),
                                     PreOfPost[Q].end());
      }
    llvm::erase_if(U.Edges, [&](const Edge &E) {
      return E.Origin == EdgeOrigin::CodeComment &&
             E.From.Kind == Endpoint::PreNode &&
             E.To.Kind == Endpoint::KernelRow && Matched[E.To.Index] &&
             !PreOfRow[E.To.Index].count(E.From.Index);
    });
  }

  /// A line run by several layers (a loop over blocks) has one pre-grad
  /// node per layer for each op, and each layer makes as many post-grad
  /// nodes of an op. The post-grad nodes keep the layers' order (a
  /// backward's last layer first): the open post-grad nodes with one op
  /// and one candidate set, all of one op, fill the layers' shares in that
  /// order, the nodes already linked to a candidate counting toward its
  /// share (confidence 70).
  void alignRepeats(
      std::vector<std::pair<uint32_t, std::vector<uint32_t>>> &Open) {
    const auto &PostNodes = U.PostGrad->Nodes;
    std::map<std::pair<std::vector<uint32_t>, std::string>,
             std::vector<uint32_t>>
        Groups;
    for (auto &O : Open)
      if (O.second.size() > 1)
        Groups[{O.second, targetOp(PostNodes[O.first].Target)}].push_back(
            O.first);
    // The compute nodes of each group's op, for the shares below.
    std::map<std::string, std::vector<uint32_t>> NodesOf;
    for (auto &G : Groups)
      NodesOf[G.first.second];
    for (uint32_t Q = 0; Q < PostNodes.size(); ++Q)
      if (isComputeNode(PostNodes[Q])) {
        auto It = NodesOf.find(targetOp(PostNodes[Q].Target));
        if (It != NodesOf.end())
          It->second.push_back(Q);
      }
    std::set<uint32_t> Done;
    for (auto &G : Groups) {
      const std::vector<uint32_t> &Cands = G.first.first;
      std::vector<uint32_t> Qs = G.second; // graph order: Open is
      // Layers: one op each. Ops of one line (a norm and an activation
      // that both decompose into `mul`) need not make as many nodes each.
      if (!all_of(Cands, [&](uint32_t P) {
            return PreOp[P] == PreOp[Cands[0]];
          }))
        continue;
      // Each layer makes as many nodes of the op. Those another rule gave
      // a candidate already (the `mm` nodes of one of two linears of a
      // line, decided by their inputs) count toward its share; the open
      // ones fill the shares left, layer by layer.
      std::map<uint32_t, size_t> Have;
      for (uint32_t Q : NodesOf[G.first.second])
        for (uint32_t P : PreOfPost[Q])
          if (is_contained(Cands, P))
            ++Have[P];
      size_t Total = Qs.size();
      for (const auto &KV : Have)
        Total += KV.second;
      if (Total % Cands.size())
        continue;
      size_t Share = Total / Cands.size();
      if (any_of(Have, [&](const auto &KV) { return KV.second > Share; }))
        continue;
      // Layers in graph order; in a backward, last layer first (not when
      // a higher-order op's body holds one: printed apart, its nodes keep
      // no layer order).
      std::vector<uint32_t> Pres = Cands;
      auto TopLevel = [](const Node &N) { return N.Scope.empty(); };
      bool Reverse =
          U.Key.Graph == GraphKind::Backward &&
          all_of(Cands,
                 [&](uint32_t P) { return TopLevel(U.PreGrad->Nodes[P]); }) &&
          all_of(Qs, [&](uint32_t Q) { return TopLevel(PostNodes[Q]); });
      llvm::sort(Pres, [&](uint32_t A, uint32_t B) {
        uint32_t LA = U.PreGrad->Nodes[A].Line, LB = U.PreGrad->Nodes[B].Line;
        return Reverse ? LB < LA : LA < LB;
      });
      size_t I = 0;
      for (uint32_t P : Pres)
        for (size_t K = Have[P]; K < Share; ++K, ++I) {
          link(P, Qs[I], 70);
          Done.insert(Qs[I]);
        }
    }
    llvm::erase_if(Open, [&](const std::pair<uint32_t, std::vector<uint32_t>>
                                 &O) { return Done.count(O.first) != 0; });
  }

  void link(uint32_t P, uint32_t Q, unsigned Conf) {
    PreOfPost[Q].insert(P);
    edge(Endpoint::PreNode, P, Endpoint::PostNode, Q, EdgeOrigin::SourceLine,
         Conf);
  }

  /// The rows' post-grad scopes (kernelPostScopes): a kernel called in a
  /// higher-order op's body computes nodes of that body only, one called
  /// in the entry function nodes of the top-level graph only.
  std::vector<Optional<StringRef>> RowScope;
  bool scopeAllows(uint32_t Q, uint32_t R) const {
    return R >= RowScope.size() || !RowScope[R] ||
           *RowScope[R] == U.PostGrad->Nodes[Q].Scope;
  }

  void claim(uint32_t Q, uint32_t R, unsigned Conf) {
    if (!scopeAllows(Q, R))
      return;
    KernelOf[Q] = R;
    edge(Endpoint::PostNode, Q, Endpoint::KernelRow, R, EdgeOrigin::OpMatch,
         Conf);
  }

  /// The user lines (file, line) of each kernel row's stack traces
  /// (inductor_provenance_tracking_kernel_stack_traces), and of each
  /// post-grad node's `# File:` comment: a fused kernel whose traces hold
  /// a node's line is where the node's line went.
  std::vector<std::set<std::pair<std::string, uint32_t>>> KernelLines;
  std::vector<Optional<std::pair<std::string, uint32_t>>> PostLine;

  void computeLines() {
    KernelLines.assign(U.Kernels.size(), {});
    PostLine.assign(U.PostGrad->Nodes.size(), None);
    if (!U.StackTraces)
      return;
    KernelKeyIndex Keys(U);
    for (auto &KV : U.StackTraces->Traces)
      if (Optional<uint32_t> Row = Keys.find(KV.first))
        for (const std::string &Trace : KV.second)
          for (const SourceLoc &F : parseStackTrace(Trace))
            KernelLines[*Row].insert({F.File, F.Line});
    const GraphArtifact &G = *U.PostGrad;
    for (uint32_t Q = 0; Q < G.Nodes.size(); ++Q)
      if (G.Nodes[Q].CommentLine)
        if (Optional<SourceLoc> S = G.fileComment(G.Nodes[Q].CommentLine))
          PostLine[Q] = std::make_pair(S->File, S->Line);
  }

  /// The rows of \p Rows whose stack traces hold \p Q's line.
  std::vector<uint32_t> byLine(uint32_t Q,
                               const std::vector<uint32_t> &Rows) const {
    std::vector<uint32_t> Out;
    if (!PostLine[Q])
      return Out;
    for (uint32_t R : Rows)
      if (KernelLines[R].count(*PostLine[Q]))
        Out.push_back(R);
    return Out;
  }

  /// Where each post-grad node can be computed, in wrapper lines: the
  /// kernels are called in topological order, so a node comes no earlier
  /// than the kernel of any node it reads (Lo) and no later than the kernel
  /// of any node reading it (Hi). A kernel called several times (no debug
  /// handles) bounds by its first call below and its last above.
  std::vector<uint32_t> Lo, Hi, RowFirst, RowLast;

  void computeWindows() {
    const auto &PostNodes = U.PostGrad->Nodes;
    if (RowFirst.empty()) {
      RowFirst.assign(U.Kernels.size(), 0);
      RowLast.assign(U.Kernels.size(), UINT32_MAX);
      for (uint32_t R = 0; R < U.Kernels.size(); ++R)
        if (!U.Kernels[R].CallLines.empty()) {
          RowFirst[R] = U.Kernels[R].CallLines.front();
          RowLast[R] = U.Kernels[R].CallLines.back();
        }
    }
    uint32_t N = PostNodes.size();
    Lo.assign(N, 0);
    Hi.assign(N, UINT32_MAX);
    for (uint32_t Q = 0; Q < N; ++Q) {
      if (KernelOf[Q] >= 0)
        Lo[Q] = RowFirst[KernelOf[Q]];
      for (uint32_t M : PostIn[Q])
        if (M < Q)
          Lo[Q] = std::max(Lo[Q], Lo[M]);
    }
    for (uint32_t Q = N; Q-- > 0;) {
      if (KernelOf[Q] >= 0)
        Hi[Q] = RowLast[KernelOf[Q]];
      for (uint32_t M : PostUsers[Q])
        if (M > Q)
          Hi[Q] = std::min(Hi[Q], Hi[M]);
    }
  }

  /// Kernel row \p R is called within the window of node \p Q.
  bool inWindow(uint32_t Q, uint32_t R) const {
    if (!scopeAllows(Q, R))
      return false;
    const std::vector<uint32_t> &Calls = U.Kernels[R].CallLines;
    if (Calls.empty())
      return true;
    auto It = llvm::lower_bound(Calls, Lo[Q]);
    return It != Calls.end() && *It <= Hi[Q];
  }

  /// Pre-grad ops of post node \p Q.
  std::vector<std::string> preOps(uint32_t Q) const {
    std::vector<std::string> Ops;
    if (U.PreGrad)
      for (uint32_t P : PreOfPost[Q])
        Ops.push_back(PreOp[P]);
    return Ops;
  }

  void inferPostKernel(const std::vector<bool> &RowLinked) {
    const auto &PostNodes = U.PostGrad->Nodes;
    std::vector<std::string> PostOp(PostNodes.size());
    std::vector<bool> Free(PostNodes.size(), false);
    for (uint32_t Q = 0; Q < PostNodes.size(); ++Q) {
      PostOp[Q] = targetOp(PostNodes[Q].Target);
      Free[Q] = isComputeNode(PostNodes[Q]) && KernelOf[Q] < 0 &&
                !isViewOp(PostOp[Q]);
    }
    std::vector<std::vector<std::string>> Tokens(U.Kernels.size());
    std::vector<uint32_t> Calls, Fused;
    for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
      if (RowLinked[R])
        continue;
      const Kernel &K = U.Kernels[R];
      Tokens[R] = kernelOpTokens(K.Name);
      if (Tokens[R].empty())
        continue;
      if (isFused(K))
        Fused.push_back(R);
      else if (isCall(K))
        Calls.push_back(R);
    }
    // Calls, in the order of their first call site.
    llvm::sort(Calls, [&](uint32_t A, uint32_t B) {
      auto First = [&](uint32_t R) {
        return U.Kernels[R].CallLines.empty() ? 0u
                                              : U.Kernels[R].CallLines[0];
      };
      return First(A) < First(B);
    });
    std::set<std::string> CallOps;
    for (uint32_t R : Calls) {
      const Kernel &K = U.Kernels[R];
      std::string Op;
      for (const std::string &T : Tokens[R])
        Op += (Op.empty() ? "" : "_") + T;
      CallOps.insert(Op);
      for (uint32_t Line : K.CallLines) {
        std::set<uint32_t> TopoPre;
        bool HasTopo = false;
        // The comment's names, and the names the call passes (its
        // arguments' identifiers): see Named and Fed below.
        StringSet<> TopoNames, ReadNames;
        if (U.Code)
          for (const CallSite &S : U.Code->Calls)
            if (S.Line == Line && S.Kernel == K.Name) {
              HasTopo |= !S.TopoNames.empty();
              for (const std::string &N : S.TopoNames) {
                TopoNames.insert(N);
                ReadNames.insert(N);
                // Not an autograd.Function body's node of the same bare
                // name (findCommentNode).
                if (U.PreGrad)
                  if (Optional<uint32_t> P = U.PreGrad->findCommentNode(N))
                    TopoPre.insert(*P);
              }
              StringRef Args = U.Code->lines().line(U.Code->Text, S.Line);
              Args = Args.drop_until([](char Ch) { return Ch == '('; });
              while (!Args.empty()) {
                // An identifier begins at a letter or '_'.
                if (!isAlpha(Args.front()) && Args.front() != '_') {
                  Args = Args.drop_front();
                  continue;
                }
                StringRef Id = Args.take_while(isIdentChar);
                ReadNames.insert(Id);
                Args = Args.drop_front(Id.size());
              }
            }
        // Without a pre-grad graph (a warm cache), or when none of the
        // comment's names is a pre-grad node (a backward's comments name
        // the joint graph's nodes: `[permute_1, permute_3]` for the weight
        // gradient's mm), the comment cannot be checked: the call takes
        // the first free node, as with no comment.
        if (!U.PreGrad || TopoPre.empty())
          HasTopo = false;
        // A backward's comment names the post-grad nodes of the call
        // (`[linear_1, permute_2, mm]`) or the views it reads
        // (`[permute_7, permute_9]` for `mm_3 = mm(permute_7, add_1)`), and
        // the call passes the graph's saved tensors by name
        // (`extern_kernels.bmm(buf12, permute_10, out=buf14)`): the node
        // named (Named, 90), else the node that reads a node named or passed
        // (Fed, 85), whatever the pre-grad check says.
        // With a comment, a node of one of its pre-grad nodes (85); else
        // the first free node whose pre-grad nodes are unknown (no link
        // inferred to it: a log without provenance whose post-grad graph
        // has no `# File:` comments), which the comment cannot rule out
        // (60, as with no comment); never a node of other pre-grad nodes.
        Optional<uint32_t> Named, Checked, Fed, Unchecked;
        for (uint32_t Q = 0; Q < PostNodes.size() && !Named; ++Q) {
          if (!Free[Q] || PostOp[Q] != Op || !scopeAllows(Q, R))
            continue;
          if (TopoNames.count(PostNodes[Q].Name)) {
            Named = Q;
            break;
          }
          if (!Fed && any_of(PostIn[Q], [&](uint32_t I) {
                return ReadNames.count(PostNodes[I].Name) != 0;
              }))
            Fed = Q;
          if (!HasTopo) {
            if (!Unchecked)
              Unchecked = Q;
            continue;
          }
          bool From = false;
          for (uint32_t P : PreOfPost[Q])
            From |= TopoPre.count(P) != 0;
          if (From && !Checked)
            Checked = Q;
          else if (PreOfPost[Q].empty() && !Unchecked)
            Unchecked = Q;
        }
        std::pair<Optional<uint32_t>, unsigned> Pick =
            Named     ? std::make_pair(Named, 90u)
            : Fed     ? std::make_pair(Fed, 85u)
            : Checked ? std::make_pair(Checked, 85u)
                      : std::make_pair(Unchecked, 60u);
        if (Pick.first) {
          claim(*Pick.first, R, Pick.second);
          Free[*Pick.first] = false;
        }
      }
    }
    if (Fused.empty())
      return;
    computeLines();
    claimOutputs(Free, PostOp);
    // Fused kernels: by op name, then by the pre-grad node's op, among the
    // kernels called where the node's data flow allows (see window()).
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> Open;
    for (unsigned Round = 0; Round < 16; ++Round) {
      computeWindows();
      bool Changed = false;
      Open.clear();
      for (uint32_t Q = 0; Q < PostNodes.size(); ++Q) {
        if (!Free[Q])
          continue;
        // A kernel that holds the post-grad op and the pre-grad op scores
        // 3, the pre-grad op alone 2 (a decomposed op: gelu's erf), the
        // post-grad op alone 1; the best score wins when one kernel has it.
        std::vector<std::string> Pre = preOps(Q);
        bool Decomposed =
            !Pre.empty() && none_of(Pre, [&](const std::string &O) {
              return sameOp(O, PostOp[Q]);
            });
        unsigned Best = 0;
        std::vector<uint32_t> Top;
        for (uint32_t R : Fused) {
          if (!inWindow(Q, R))
            continue;
          unsigned Score = 0;
          if (namesPostOp(Tokens[R], PostOp[Q]))
            Score += 1;
          if (Decomposed && any_of(Pre, [&](const std::string &O) {
                return holdsOp(Tokens[R], O);
              }))
            Score += 2;
          if (!Score || Score < Best)
            continue;
          if (Score > Best)
            Top.clear();
          Best = Score;
          Top.push_back(R);
        }
        if (Top.size() == 1) {
          claim(Q, Top[0], Best == 3 ? 85 : Best == 2 ? 75 : 80);
          Free[Q] = false;
          Changed = true;
        } else {
          Open.push_back({Q, Top});
        }
      }
      if (!Changed)
        break;
    }
    // The stack traces' lines decide next: the one kernel (among the
    // candidates its op names, else of its window) whose traces hold the
    // node's user line (70; by the line alone 60: on a warm cache no
    // pre-grad graph tells a decomposed op's kernel).
    {
      std::vector<std::pair<uint32_t, std::vector<uint32_t>>> Still;
      for (auto &O : Open) {
        uint32_t Q = O.first;
        std::vector<uint32_t> Cands = O.second;
        // A node whose op an extern or fallback call names is that call's
        // work, not a fused kernel's, whatever its line.
        if (Cands.empty() && !CallOps.count(PostOp[Q]))
          for (uint32_t R : Fused)
            if (inWindow(Q, R))
              Cands.push_back(R);
        std::vector<uint32_t> Lined = byLine(Q, Cands);
        if (Lined.size() == 1)
          claim(Q, Lined[0], O.second.empty() ? 60 : 70);
        else
          Still.push_back(O);
      }
      Open = std::move(Still);
    }
    // Neighbours decide: between the candidates, or, for a node no name
    // explains, the one fused kernel its neighbours are in when it shares
    // a pre-grad node with that kernel's nodes.
    for (unsigned Round = 0; Round < 8 && !Open.empty(); ++Round) {
      std::vector<std::pair<uint32_t, std::vector<uint32_t>>> Still;
      std::vector<std::pair<uint32_t, std::pair<uint32_t, unsigned>>> Decided;
      for (auto &O : Open) {
        uint32_t Q = O.first;
        std::set<uint32_t> In;
        for (uint32_t M : neighbours(Q))
          if (KernelOf[M] >= 0 && is_contained(Fused, uint32_t(KernelOf[M])))
            In.insert(uint32_t(KernelOf[M]));
        if (!O.second.empty()) {
          std::vector<uint32_t> Both;
          for (uint32_t R : O.second)
            if (In.count(R))
              Both.push_back(R);
          if (Both.size() == 1)
            Decided.push_back({Q, {Both[0], 70}});
          else
            Still.push_back(O);
          continue;
        }
        if (In.size() != 1) {
          Still.push_back(O);
          continue;
        }
        uint32_t R = *In.begin();
        bool Shares = false;
        for (uint32_t M : neighbours(Q))
          if (KernelOf[M] == int64_t(R))
            for (uint32_t P : PreOfPost[M])
              Shares |= PreOfPost[Q].count(P) != 0;
        if (Shares)
          Decided.push_back({Q, {R, 60}});
        else
          Still.push_back(O);
      }
      if (Decided.empty())
        break;
      for (auto &D : Decided)
        claim(D.first, D.second.first, D.second.second);
      Open = std::move(Still);
    }
    // Order decides the rest: a node several kernels of its window could
    // take goes to the kernel of the nearest node before it in the graph
    // (not a view) when that kernel is one of them; kernels are called in
    // about the graph's order (the `clone` of `v` before `att @ v` is made
    // by the softmax kernel, not by the q/k kernel before it; 60).
    for (auto &O : Open) {
      uint32_t Q = O.first;
      if (O.second.size() < 2 || KernelOf[Q] >= 0)
        continue;
      for (uint32_t M = Q; M-- > 0;) {
        if (!isComputeNode(PostNodes[M]) || isViewOp(PostOp[M]) ||
            KernelOf[M] < 0)
          continue;
        if (is_contained(O.second, uint32_t(KernelOf[M])))
          claim(Q, uint32_t(KernelOf[M]), 60);
        break;
      }
    }
    RowsOf.assign(PostNodes.size(), {});
    for (uint32_t Q = 0; Q < PostNodes.size(); ++Q)
      if (KernelOf[Q] >= 0)
        RowsOf[Q].insert(uint32_t(KernelOf[Q]));
    claimRecomputed(Fused, Tokens, PostOp);
    claimViews(Fused, Tokens, PostOp);
  }

  /// Every kernel row of each post-grad node (a recomputed node has
  /// several).
  std::vector<std::set<uint32_t>> RowsOf;

  /// Which earlier kernel rows each fused call reads a buffer of (through
  /// its definition's reading parameters), following the wrapper's
  /// entry function in line order: a buffer is the last call's that wrote
  /// it (writing parameters, `out=`); `bufA = bufB` and
  /// `reinterpret_tensor(bufB, ...)` share bufB's storage (the parser's
  /// call arguments, kernel parameters and buffer assignments). \p Known:
  /// the rows whose reads are known.
  void bufferFlow(std::vector<std::set<uint32_t>> &ReadsFrom,
                  std::vector<bool> &Known,
                  StringMap<std::string> *FinalRoot = nullptr,
                  StringMap<uint32_t> *FinalProducer = nullptr) const {
    ReadsFrom.assign(U.Kernels.size(), {});
    Known.assign(U.Kernels.size(), false);
    if (!U.Code || !U.Code->EntryBegin)
      return;
    const CodeArtifact &C = *U.Code;
    // The rows with one call, by line, with that call's site.
    std::map<uint32_t, std::pair<uint32_t, const CallSite *>> RowAt;
    for (uint32_t R = 0; R < U.Kernels.size(); ++R)
      if (U.Kernels[R].CallLines.size() == 1)
        RowAt[U.Kernels[R].CallLines[0]] = {R, nullptr};
    for (const CallSite &S : C.Calls) {
      auto It = RowAt.find(S.Line);
      if (It != RowAt.end() && !It->second.second &&
          S.Kernel == U.Kernels[It->second.first].Name)
        It->second.second = &S;
    }
    StringMap<std::string> Root;
    StringMap<uint32_t> Producer;
    auto RootOf = [&](StringRef B) -> std::string {
      auto It = Root.find(B);
      return It == Root.end() ? B.str() : It->second;
    };
    static const std::vector<CallArg> NoArgs;
    auto A = C.Assigns.begin(), AE = C.Assigns.end();
    auto Assign = [&](const BufferAssign &BA) {
      std::string R = BA.From.empty() ? BA.Buffer : RootOf(BA.From);
      Root[BA.Buffer] = R;
      if (BA.From.empty())
        Producer.erase(R);
    };
    for (const auto &At : RowAt) {
      uint32_t L = At.first;
      for (; A != AE && A->Line < L; ++A)
        Assign(*A);
      if (A != AE && A->Line == L) {
        // `bufA = kernel(...)`: an assignment, not a call that writes.
        Assign(*A++);
        continue;
      }
      if (L < C.EntryBegin || L > C.EntryEnd)
        continue;
      uint32_t R = At.second.first;
      const Kernel &K = U.Kernels[R];
      const std::vector<CallArg> &Args =
          At.second.second ? At.second.second->Args : NoArgs;
      if (isCall(K)) {
        for (const CallArg &Arg : Args)
          if (Arg.Out)
            Producer[RootOf(Arg.Buffer)] = R;
        continue;
      }
      if (!isFused(K) || !K.Def || *K.Def >= C.Defs.size())
        continue;
      const std::vector<KernelParam> &Params = C.Defs[*K.Def].Params;
      if (Params.size() != Args.size())
        continue;
      Known[R] = true;
      for (size_t I = 0; I < Args.size(); ++I) {
        if (Args[I].Buffer.empty() || !Params[I].reads())
          continue;
        auto P = Producer.find(RootOf(Args[I].Buffer));
        if (P != Producer.end())
          ReadsFrom[R].insert(P->second);
      }
      for (size_t I = 0; I < Args.size(); ++I)
        if (!Args[I].Buffer.empty() && Params[I].writes())
          Producer[RootOf(Args[I].Buffer)] = R;
    }
    // The assignments after the last call (`buf7 = buf5; del buf5`).
    for (; A != AE && A->Line <= C.EntryEnd; ++A)
      Assign(*A);
    if (FinalRoot)
      *FinalRoot = std::move(Root);
    if (FinalProducer)
      *FinalProducer = std::move(Producer);
  }

  /// The items of a `return (a, f(b, ...), None, )` line: for each, the
  /// first name in it (`b` of `reinterpret_tensor(b, ...)`), "" for None
  /// or anything else. None when the line is not such a return.
  static Optional<std::vector<std::string>> returnItems(StringRef L) {
    L = L.trim();
    if (!L.consume_front("return"))
      return None;
    L = L.trim();
    if (!(L.consume_front("(") && L.consume_back(")")) &&
        !(L.consume_front("[") && L.consume_back("]")))
      return None;
    std::vector<std::string> Out;
    unsigned Depth = 0;
    size_t Start = 0;
    auto Item = [&](StringRef T) {
      T = T.trim();
      if (T.empty())
        return;
      size_t P = T.find('(');
      if (P != StringRef::npos)
        T = T.substr(P + 1);
      StringRef Name = T.take_while([](char C) {
        return isAlnum(C) || C == '_';
      });
      Out.push_back(Name == "None" ? std::string() : Name.str());
    };
    for (size_t I = 0; I < L.size(); ++I) {
      char C = L[I];
      if (C == '(' || C == '[' || C == '{')
        ++Depth;
      else if ((C == ')' || C == ']' || C == '}') && Depth)
        --Depth;
      else if (C == ',' && !Depth) {
        Item(L.slice(Start, I));
        Start = I + 1;
      }
    }
    Item(L.substr(Start));
    return Out;
  }

  /// The C++ wrapper's outputs, as returnItems gives the Python wrapper's:
  /// `output_handles[3] = buf2.release();` in the entry function puts
  /// `buf2` at 3; an index never set (a None output) is "". None when an
  /// index is at or past \p Size (the graph's outputs) or none is set.
  static Optional<std::vector<std::string>>
  outputHandles(const CodeArtifact &C, size_t Size) {
    std::vector<std::string> Out(Size);
    bool Any = false;
    for (uint32_t L = C.EntryBegin; L && L <= C.EntryEnd; ++L) {
      StringRef T = C.lines().line(C.Text, L).trim();
      if (!T.consume_front("output_handles["))
        continue;
      size_t I = 0;
      if (T.consumeInteger(10, I) || !T.consume_front("]"))
        continue;
      T = T.ltrim();
      if (!T.consume_front("="))
        continue;
      T = T.ltrim();
      StringRef Name = T.take_while([](char Ch) {
        return isAlnum(Ch) || Ch == '_';
      });
      if (!T.substr(Name.size()).startswith(".release()"))
        continue;
      if (I >= Size)
        return None;
      Out[I] = Name.str();
      Any = true;
    }
    if (!Any)
      return None;
    return Out;
  }

  /// The graph's outputs and the wrapper's return are in the same order:
  /// the node at a position is computed by the fused kernel that last
  /// wrote the buffer returned there (the wrapper's buffer flow), past the
  /// views between them (`view_1 = reshape(sum_6)` returns `sum_6`'s
  /// buffer; 90). A bias gradient's `sum` is often a kernel of its own
  /// that no name or neighbour tells from the one before it.
  void claimOutputs(std::vector<bool> &Free,
                    const std::vector<std::string> &PostOp) {
    if (!U.Code || !U.Code->EntryEnd)
      return;
    const CodeArtifact &C = *U.Code;
    const GraphArtifact &G = *U.PostGrad;
    const Node *Out = nullptr;
    for (const Node &N : G.Nodes)
      if (N.Op == NodeOp::Output)
        Out = &N;
    if (!Out || !Out->Line)
      return;
    Optional<std::vector<std::string>> Graph =
        returnItems(G.lines().line(G.Text, Out->Line));
    Optional<std::vector<std::string>> Code;
    if (C.Lang == Language::Cpp) {
      if (Graph)
        Code = outputHandles(C, Graph->size());
    } else {
      for (uint32_t L = C.EntryEnd; L >= C.EntryBegin && L > 0 && !Code; --L)
        Code = returnItems(C.lines().line(C.Text, L));
    }
    if (!Graph || !Code || Graph->size() != Code->size())
      return;
    std::vector<std::set<uint32_t>> ReadsFrom;
    std::vector<bool> Known;
    StringMap<std::string> Root;
    StringMap<uint32_t> Producer;
    bufferFlow(ReadsFrom, Known, &Root, &Producer);
    for (size_t I = 0; I < Graph->size(); ++I) {
      if ((*Graph)[I].empty() || (*Code)[I].empty())
        continue;
      Optional<uint32_t> Q = G.findNode((*Graph)[I]);
      if (!Q)
        continue;
      // Past views to the node whose data it is.
      for (unsigned Hops = 0; Hops < 16 && isViewOp(PostOp[*Q]) &&
                              PostIn[*Q].size() == 1;
           ++Hops)
        Q = PostIn[*Q][0];
      if (!Free[*Q])
        continue;
      auto R = Root.find((*Code)[I]);
      auto P = Producer.find(R == Root.end() ? StringRef((*Code)[I])
                                             : StringRef(R->second));
      if (P == Producer.end() || !isFused(U.Kernels[P->second]))
        continue;
      claim(*Q, P->second, 90);
      Free[*Q] = false;
    }
  }

  /// A node a fused kernel computes again instead of reading it: Inductor
  /// does not store every pointwise result (the residual stream of a CPU
  /// model is recomputed in each layer norm kernel that reads it). A node
  /// of a fused kernel K1 also goes to the fused kernel K2 of a node using
  /// it when K2's name holds its op and K2 reads no buffer a fused kernel
  /// wrote since the node was first computed (the wrapper's buffer flow;
  /// 60).
  void claimRecomputed(const std::vector<uint32_t> &Fused,
                       const std::vector<std::vector<std::string>> &Tokens,
                       const std::vector<std::string> &PostOp) {
    const auto &PostNodes = U.PostGrad->Nodes;
    std::vector<std::set<uint32_t>> ReadsFrom;
    std::vector<bool> Known;
    bufferFlow(ReadsFrom, Known);
    std::vector<bool> IsFused(U.Kernels.size(), false);
    for (uint32_t R : Fused)
      IsFused[R] = true;
    for (unsigned Round = 0; Round < 8; ++Round) {
      bool Changed = false;
      for (uint32_t N = PostNodes.size(); N-- > 0;) {
        if (!isComputeNode(PostNodes[N]) || isViewOp(PostOp[N]) ||
            RowsOf[N].empty() ||
            none_of(RowsOf[N], [&](uint32_t R) { return IsFused[R]; }))
          continue;
        for (uint32_t M : neighbours(N)) {
          if (M < N || isViewOp(PostOp[M]))
            continue;
          std::set<uint32_t> Rows = RowsOf[M];
          for (uint32_t K2 : Rows) {
            if (!IsFused[K2] || !Known[K2] || RowsOf[N].count(K2) ||
                !namesPostOp(Tokens[K2], PostOp[N]))
              continue;
            // K2 reads no fused kernel's buffer written since N was
            // first computed (N, or a node made from it, stored).
            uint32_t First = UINT32_MAX;
            for (uint32_t K : RowsOf[N])
              First = std::min(First, RowFirst[K]);
            if (any_of(ReadsFrom[K2], [&](uint32_t K) {
                  return IsFused[K] && RowFirst[K] >= First;
                }))
              continue;
            RowsOf[N].insert(K2);
            edge(Endpoint::PostNode, N, Endpoint::KernelRow, K2,
                 EdgeOrigin::OpMatch, 60);
            Changed = true;
          }
        }
      }
      if (!Changed)
        break;
    }
  }

  /// A fused kernel reads through the view ops between it and the nodes it
  /// reads, and its name holds them (`..._split_transpose_view_1`): a view
  /// op (not getitem, which is no ATen op) goes to each fused kernel of the
  /// nodes that use it through views, when that kernel's name holds the
  /// view's op (`permute` as `transpose`, `reshape` as `view`) or its
  /// pre-grad node's op (70).
  void claimViews(const std::vector<uint32_t> &Fused,
                  const std::vector<std::vector<std::string>> &Tokens,
                  const std::vector<std::string> &PostOp) {
    const auto &PostNodes = U.PostGrad->Nodes;
    std::vector<bool> IsFused(U.Kernels.size(), false);
    for (uint32_t R : Fused)
      IsFused[R] = true;
    for (uint32_t V = 0; V < PostNodes.size(); ++V) {
      StringRef Op = PostOp[V];
      if (!isComputeNode(PostNodes[V]) || KernelOf[V] >= 0 ||
          !isViewOp(Op) || Op == "getitem")
        continue;
      std::vector<StringRef> Names = {Op};
      if (Op == "reshape" || Op == "unsafe_view")
        Names.push_back("view");
      else if (Op == "permute")
        Names.push_back("transpose");
      else if (Op == "split")
        Names.push_back("split");
      std::vector<std::string> Pre = preOps(V);
      std::set<uint32_t> Rows;
      std::vector<uint32_t> Work = PostUsers[V];
      std::set<uint32_t> Seen;
      while (!Work.empty()) {
        uint32_t M = Work.back();
        Work.pop_back();
        if (!Seen.insert(M).second)
          continue;
        if (isViewOp(PostOp[M])) {
          Work.insert(Work.end(), PostUsers[M].begin(), PostUsers[M].end());
          continue;
        }
        for (uint32_t R : RowsOf[M])
          if (IsFused[R])
            Rows.insert(R);
      }
      for (uint32_t R : Rows) {
        bool Holds = any_of(Names, [&](StringRef N) {
          return holdsOp(Tokens[R], N);
        }) || any_of(Pre, [&](const std::string &O) {
          return holdsOp(Tokens[R], O);
        });
        if (Holds)
          edge(Endpoint::PostNode, V, Endpoint::KernelRow, R,
               EdgeOrigin::OpMatch, 70);
      }
    }
  }
};

} // namespace

std::vector<Optional<StringRef>> kernelPostScopes(const CompileUnit &U) {
  std::vector<Optional<StringRef>> Out(U.Kernels.size());
  if (!U.Code || !U.PostGrad || U.Code->Lang != Language::Python)
    return Out;
  // The post-grad graph's scopes by their last name.
  StringMap<StringRef> ByLast;
  StringSet<> Ambiguous;
  for (const Node &N : U.PostGrad->Nodes) {
    if (N.Scope.empty())
      continue;
    StringRef Last = StringRef(N.Scope).rsplit('.').second;
    if (Last.empty())
      Last = N.Scope;
    auto [It, New] = ByLast.try_emplace(Last, N.Scope);
    if (!New && It->second != N.Scope)
      Ambiguous.insert(Last);
  }
  if (ByLast.empty())
    return Out;
  // Each line's function: the entry function's lines are the top-level
  // graph's; a `def NAME(` at column 0 runs to the next line at column 0
  // that is not blank.
  const CodeArtifact &C = *U.Code;
  std::vector<Optional<StringRef>> ScopeOfLine(C.lines().size() + 1);
  Optional<StringRef> Current;
  for (uint32_t L = 1; L <= C.lines().size(); ++L) {
    StringRef T = C.lines().line(C.Text, L);
    if (!T.empty() && !isSpace(T.front())) {
      Current = None;
      if (T.consume_front("def ")) {
        StringRef Fn =
            T.take_while([](char Ch) { return isAlnum(Ch) || Ch == '_'; });
        auto It = ByLast.find(Fn);
        if (It != ByLast.end() && !Ambiguous.count(Fn))
          Current = It->second;
      }
    }
    ScopeOfLine[L] = Current;
    if (C.EntryBegin && L >= C.EntryBegin && L <= C.EntryEnd)
      ScopeOfLine[L] = StringRef();
  }
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const std::vector<uint32_t> &Calls = U.Kernels[R].CallLines;
    auto At = [&](uint32_t L) -> Optional<StringRef> {
      return L < ScopeOfLine.size() ? ScopeOfLine[L] : None;
    };
    if (Calls.empty() || !At(Calls.front()))
      continue;
    Optional<StringRef> S = At(Calls.front());
    if (llvm::all_of(Calls, [&](uint32_t L) { return At(L) == S; }))
      Out[R] = S;
  }
  return Out;
}

void inferLinks(CompileUnit &U, bool PrePost, bool PostKernel,
                ArrayRef<Optional<StringRef>> RowScope) {
  Inferrer(U, RowScope.vec()).run(PrePost, PostKernel);
}

} // namespace tlp
