//===- LinkSchedulerIR.cpp - Scheduler nodes to kernels and post-grad nodes ===//
//
// Each top-level node of a unit's scheduler IR after fusion
// (ir_post_fusion.txt) to the kernel row that runs it, and to the post-grad
// nodes it computes:
//
// - an extern node (`opN.node.kernel = extern_kernels.addmm`): the call of
//   that kernel that passes a buffer the node writes (`out=buf0`); else
//   the only call of that kernel;
// - any other node: the call whose argument in a written position (the
//   kernel's `out_ptrN` / `in_out_ptrN` parameter) is a buffer the node
//   (or, fused, one of its sub-nodes) writes;
// - post-grad nodes: those the kernel row's edges link to it (mapping,
//   code comments or inference, docs/inference.md), when the row runs
//   this node alone; the weakest edge's origin and confidence are kept.
// - the share of each sub-node of a fused node (and of each of several
//   nodes one row runs), by data flow: each buffer such a node writes is
//   anchored to the one post-grad node of the row whose type is the
//   buffer's layout (dtype and sizes) and that is a graph output exactly
//   when the buffer is (anchors found are taken out of the others'
//   candidates until nothing changes); a node then computes the anchors
//   of its buffers and what they are computed from inside the row, up to
//   the anchors of the buffers it reads. Where a buffer has no single
//   anchor, or the flow reaches a buffer the node does not read, its
//   share is unknown and PostNodesUnknown says why (docs/inference.md).
// - pre-fusion nodes: each top-level node's sub-nodes (or the node
//   itself) found by name in ir_pre_fusion.txt.
//
// Triton launches (`.run(...)`) keep no arguments in the IR, so their
// nodes are linked only when a kernel's name is the extern kernel's.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/TensorType.h"
#include "tlp/Passes/Pass.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace tlp {

namespace {

/// The short form of a buffer's layout, as an FX annotation's
/// (`f32[4, 32]`) of `FixedLayout('cpu', torch.float32, size=[4, 32],
/// stride=[32, 1])`; empty when the layout names no dtype tlp knows or no
/// sizes.
std::string layoutShortForm(StringRef Layout) {
  size_t T = Layout.find("torch.");
  size_t S = Layout.find("size=[");
  if (T == StringRef::npos || S == StringRef::npos)
    return "";
  StringRef DT = Layout.substr(T + 6);
  DT = DT.take_while([](char C) { return isAlnum(C) || C == '_'; });
  static const std::pair<const char *, const char *> DTypes[] = {
      {"float32", "f32"},  {"float64", "f64"},   {"float16", "f16"},
      {"bfloat16", "bf16"}, {"int8", "i8"},      {"int16", "i16"},
      {"int32", "i32"},    {"int64", "i64"},     {"uint8", "u8"},
      {"bool", "b8"},      {"complex64", "c64"}, {"complex128", "c128"}};
  std::string Short;
  for (const auto &P : DTypes)
    if (DT == P.first)
      Short = P.second;
  size_t E = Layout.find(']', S);
  if (Short.empty() || E == StringRef::npos)
    return "";
  SmallVector<StringRef, 4> Dims;
  Layout.slice(S + 6, E).split(Dims, ',', -1, false);
  Short += "[";
  for (size_t I = 0; I < Dims.size(); ++I)
    Short += (I ? ", " : "") + Dims[I].trim().str();
  return Short + "]";
}

/// The op whose value a node's loop body stores in buffer \p Buf (`store
/// = ops.store('buf5', get_index_1, sigmoid, None)` after `sigmoid =
/// ops.sigmoid(relu)`: `sigmoid`), as the post-grad graph names it (a
/// reduction's type: `sum`, `amax`; `truediv` is `div`); empty if the
/// body says none. Read from the node's lines of the IR's text, which
/// the IR keeps.
/// \p Lines: the line table of the IR's text \p Text, made once per file
/// (splitting the text per buffer made the pass quadratic in its size).
std::string storedOp(StringRef Text, const LineTable &Lines,
                     const SchedulerNode &N, StringRef Buf) {
  uint32_t End = std::min<uint32_t>(N.EndLine ? N.EndLine : N.Line,
                                    Lines.size());
  std::string Var;
  for (uint32_t L = N.Line; L && L <= End && Var.empty(); ++L) {
    StringRef T = Lines.line(Text, L).trim();
    for (StringRef Store : {"ops.store('", "ops.store_reduction('"}) {
      size_t At = T.find(Store);
      if (At == StringRef::npos ||
          !T.substr(At + Store.size()).startswith((Buf + "',").str()))
        continue;
      SmallVector<StringRef, 4> Args;
      T.substr(At + Store.size()).split(Args, ',');
      if (Args.size() >= 3)
        Var = Args[2].trim().rtrim(')').trim().str();
    }
  }
  if (Var.empty())
    return "";
  for (uint32_t L = N.Line; L && L <= End; ++L) {
    StringRef T = Lines.line(Text, L).trim();
    if (!T.consume_front(Var + " = ops."))
      continue;
    StringRef Op = T.take_while([](char C) { return isAlnum(C) || C == '_'; });
    if (Op == "truediv")
      return "div";
    if (Op != "reduction")
      return Op.str();
    size_t Q = T.find('\'');
    StringRef Kind =
        Q == StringRef::npos ? "" : T.substr(Q + 1).take_until([](char C) {
          return C == '\'';
        });
    return Kind == "max" ? "amax" : Kind == "min" ? "amin" : Kind.str();
  }
  return "";
}

/// The op of an FX node's target: `sigmoid` of
/// `torch.ops.aten.sigmoid.default`.
StringRef fxOp(StringRef Target) {
  SmallVector<StringRef, 5> Parts;
  Target.split(Parts, '.');
  if (Parts.size() >= 4 && Parts[0] == "torch" && Parts[1] == "ops")
    return Parts[3];
  return Parts.empty() ? Target : Parts.back();
}

/// A buffer one of the nodes of a kernel row writes, and the post-grad
/// node of the row that holds its value (its anchor) when one is found.
struct RowBuffer {
  std::string Name;
  /// The node (a sub-node, or one of the row's nodes) that writes it.
  uint32_t Writer = 0;
  std::string Form;
  bool Output = false;
  std::vector<uint32_t> Candidates;
  Optional<uint32_t> Anchor;
  /// Anchored by the order of buffers and nodes, not by its type alone.
  bool ByOrder = false;
  /// Of the nodes of its type, the one whose op the loop body stores.
  bool ByOp = false;
  std::string Why;
};

/// The nodes whose code a kernel row runs: each top-level node's sub-nodes
/// (theirs in turn), or the node itself.
void leavesOf(const SchedulerIRArtifact &S, uint32_t N,
              std::vector<uint32_t> &Out) {
  const SchedulerNode &Node = S.Nodes[N];
  if (Node.SubNodes.empty()) {
    Out.push_back(N);
    return;
  }
  for (uint32_t I : Node.SubNodes)
    if (I < S.Nodes.size() && I != N)
      leavesOf(S, I, Out);
}

/// The layout of buffer \p B as node \p N or the nodes it is part of
/// list it; null if none does.
const SchedulerBuffer *findOutput(const SchedulerIRArtifact &S, uint32_t N,
                                  StringRef B) {
  for (Optional<uint32_t> I = N; I && *I < S.Nodes.size();
       I = S.Nodes[*I].Parent)
    for (const SchedulerBuffer &O : S.Nodes[*I].Outputs)
      if (O.Name == B)
        return &O;
  return nullptr;
}

/// What every kernel row's split reads, made once per file (made per row,
/// the pass was quadratic in the number of kernels): outside a row, the
/// rows of each post-grad node and the buffers the nodes of each row
/// write; what a node may read (a buffer some scheduler node writes, a
/// graph input); the nodes the graph returns; the IR's lines.
struct Outside {
  std::map<uint32_t, std::set<uint32_t>> RowsOfPost;
  std::map<uint32_t, std::set<std::string>> BufsOfRow;
  StringSet<> Written, Inputs;
  DenseSet<uint32_t> Returned;
  /// The IR text's lines, made when a buffer's stored op is first needed
  /// (a built table has at least one line).
  LineTable Lines;

  const LineTable &lines(const SchedulerIRArtifact &S) {
    if (!Lines.size())
      Lines.build(S.Text);
    return Lines;
  }
};

class LinkSchedulerIRPass : public UnitPass {
public:
  StringRef getName() const override { return "link-scheduler-ir"; }

  void runOnUnit(const Module &M, CompileUnit &U,
                 DiagnosticEngine &Diags) override {
    SchedulerIRArtifact *S = U.PostFusion.get();
    if (!S || !S->isLoaded())
      return;
    for (SchedulerNode &N : S->Nodes) {
      N.Kernel = None;
      N.KernelBy.clear();
      N.PostNodes.clear();
      N.PostNodesBy.clear();
      N.PostNodesConfidence = 0;
      N.PostNodesUnknown.clear();
      N.PreFusionNodes.clear();
    }
    linkPreFusion(U, *S);
    if (!U.Code || !U.Code->isLoaded())
      return;
    const CodeArtifact &C = *U.Code;

    // The kernel row of each call line.
    std::map<uint32_t, uint32_t> RowOfLine;
    for (uint32_t R = 0; R < U.Kernels.size(); ++R)
      for (uint32_t L : U.Kernels[R].CallLines)
        RowOfLine.emplace(L, R);

    // The first call that writes each buffer: an argument passed as
    // `out=` or in a position the kernel's signature writes.
    StringMap<uint32_t> WrittenBy;
    for (uint32_t I = 0; I < C.Calls.size(); ++I) {
      const CallSite &CS = C.Calls[I];
      if (CS.Args.empty())
        continue;
      Optional<uint32_t> Def = C.findDef(CS.Kernel);
      const std::vector<KernelParam> *Params =
          Def ? &C.Defs[*Def].Params : nullptr;
      for (size_t A = 0; A < CS.Args.size(); ++A) {
        const CallArg &Arg = CS.Args[A];
        bool Written = Arg.Out || (Params && A < Params->size() &&
                                   (*Params)[A].writes());
        if (!Arg.Buffer.empty() && Written)
          WrittenBy.try_emplace(Arg.Buffer, I);
      }
    }

    // Which rows run which top-level nodes.
    std::map<uint32_t, std::vector<uint32_t>> NodesOfRow;
    for (uint32_t NI = 0; NI < S->Nodes.size(); ++NI) {
      SchedulerNode &N = S->Nodes[NI];
      if (N.Parent)
        continue;
      std::vector<std::string> Writes = S->writtenBuffers(N);
      auto Writes_ = [&](StringRef B) { return is_contained(Writes, B); };
      Optional<uint32_t> Call;
      std::string By;
      if (!N.ExternKernel.empty()) {
        std::vector<uint32_t> Named;
        for (uint32_t I = 0; I < C.Calls.size(); ++I)
          if (C.Calls[I].Kernel == N.ExternKernel)
            Named.push_back(I);
        for (uint32_t I : Named)
          if (any_of(C.Calls[I].Args,
                     [&](const CallArg &A) { return Writes_(A.Buffer); })) {
            Call = I;
            By = "extern kernel writing " + llvm::join(Writes, ", ");
            break;
          }
        if (!Call && Named.size() == 1) {
          Call = Named.front();
          By = "the only call of the extern kernel";
        }
      } else {
        // The first call, in line order, that writes one of the buffers.
        for (const std::string &B : Writes) {
          auto It = WrittenBy.find(B);
          if (It == WrittenBy.end())
            continue;
          if (!Call || It->second < *Call) {
            Call = It->second;
            By = "call writing " + B;
          }
        }
      }
      if (!Call)
        continue;
      auto It = RowOfLine.find(C.Calls[*Call].Line);
      if (It == RowOfLine.end())
        continue;
      N.Kernel = It->second;
      N.KernelBy = By;
      NodesOfRow[It->second].push_back(NI);
    }
    if (!U.PostGrad)
      return;

    // The kernel rows each post-grad node is linked to, and the buffers
    // the nodes of each row write: what a node reached outside its
    // kernel must be read from.
    Outside Out;
    for (const Edge &E : U.Edges)
      if (E.From.Kind == Endpoint::PostNode &&
          E.To.Kind == Endpoint::KernelRow)
        Out.RowsOfPost[E.From.Index].insert(E.To.Index);
    for (const auto &Row : NodesOfRow)
      for (uint32_t N : Row.second)
        for (std::string &B : S->writtenBuffers(S->Nodes[N]))
          Out.BufsOfRow[Row.first].insert(std::move(B));
    for (const SchedulerNode &N : S->Nodes)
      for (const SchedulerDep &D : N.Writes)
        Out.Written.insert(D.Buffer);
    for (const Node &N : U.PostGrad->Nodes) {
      if (N.Op == NodeOp::Placeholder || N.Op == NodeOp::GetAttr)
        Out.Inputs.insert(N.Name);
      if (N.Op == NodeOp::Output)
        Out.Returned.insert(N.Inputs.begin(), N.Inputs.end());
    }
    // Each row's post-grad edges, in edge order (a scan of every edge for
    // each row was quadratic).
    std::map<uint32_t, std::vector<const Edge *>> EdgesOfRow;
    for (const Edge &E : U.Edges)
      if (E.To.Kind == Endpoint::KernelRow &&
          E.From.Kind == Endpoint::PostNode &&
          E.From.Index < U.PostGrad->Nodes.size() &&
          NodesOfRow.count(E.To.Index))
        EdgesOfRow[E.To.Index].push_back(&E);

    for (const auto &Row : NodesOfRow) {
      uint8_t Conf = 100;
      Optional<EdgeOrigin> Weakest;
      std::vector<uint32_t> Post;
      for (const Edge *EP : EdgesOfRow[Row.first]) {
        const Edge &E = *EP;
        if (!is_contained(Post, E.From.Index))
          Post.push_back(E.From.Index);
        if (!Weakest || E.Confidence < Conf) {
          Conf = E.Confidence;
          Weakest = E.Origin;
        }
      }
      llvm::sort(Post);
      std::string EdgesBy =
          Weakest ? ("the kernel's " + edgeOriginName(*Weakest) + " edges")
                        .str()
                  : std::string();
      if (Row.second.size() == 1 && Weakest) {
        SchedulerNode &N = S->Nodes[Row.second.front()];
        N.PostNodes = Post;
        N.PostNodesBy = EdgesBy;
        N.PostNodesConfidence = Conf;
      }
      std::vector<uint32_t> Leaves;
      for (uint32_t N : Row.second)
        leavesOf(*S, N, Leaves);
      if (Leaves.size() > 1)
        split(U, *S, Row.first, Leaves, Post, EdgesBy, Conf, Out);
    }

    // What the data did not decide, once per file: the first node and
    // how many more.
    std::vector<uint32_t> Unknown;
    for (uint32_t I = 0; I < S->Nodes.size(); ++I)
      if (!S->Nodes[I].PostNodesUnknown.empty())
        Unknown.push_back(I);
    if (!Unknown.empty()) {
      const SchedulerNode &F = S->Nodes[Unknown.front()];
      std::string More =
          Unknown.size() > 1
              ? " (and those of " + std::to_string(Unknown.size() - 1) +
                    " more fused scheduler nodes of this file: see "
                    "post_nodes_unknown)"
              : std::string();
      Diags.note(M.logName(S->Log), S->Line + F.Line - 1,
                 "the post-grad nodes of fused scheduler node '" + F.Name +
                     "' are unknown: " + F.PostNodesUnknown + More);
    }
  }

private:
  /// Each post-fusion top-level node's pre-fusion nodes, by name.
  static void linkPreFusion(const CompileUnit &U, SchedulerIRArtifact &S) {
    const SchedulerIRArtifact *Pre = U.PreFusion.get();
    if (!Pre || !Pre->isLoaded())
      return;
    StringMap<uint32_t> ByName;
    for (uint32_t I = 0; I < Pre->Nodes.size(); ++I)
      if (!Pre->Nodes[I].Parent)
        ByName.try_emplace(Pre->Nodes[I].Name, I);
    for (uint32_t I = 0; I < S.Nodes.size(); ++I) {
      if (S.Nodes[I].Parent)
        continue;
      std::vector<uint32_t> Leaves;
      leavesOf(S, I, Leaves);
      for (uint32_t L : Leaves) {
        auto It = ByName.find(S.Nodes[L].Name);
        if (It != ByName.end() &&
            !is_contained(S.Nodes[I].PreFusionNodes, It->second))
          S.Nodes[I].PreFusionNodes.push_back(It->second);
      }
    }
  }

  /// Share the post-grad nodes \p Post of kernel row \p Row among the
  /// nodes \p Leaves it runs, by data flow (the file comment).
  static void split(const CompileUnit &U, SchedulerIRArtifact &S,
                    uint32_t Row, ArrayRef<uint32_t> Leaves,
                    ArrayRef<uint32_t> Post, StringRef EdgesBy, uint8_t Conf,
                    Outside &Out) {
    const GraphArtifact &G = *U.PostGrad;
    std::string Kernel = Row < U.Kernels.size() ? U.Kernels[Row].key() : "";
    if (Post.empty()) {
      for (uint32_t L : Leaves)
        S.Nodes[L].PostNodesUnknown =
            "kernel " + Kernel + " has no post-grad nodes linked to it";
      return;
    }
    std::set<uint32_t> InRow(Post.begin(), Post.end());

    std::vector<RowBuffer> Bufs;
    for (uint32_t L : Leaves)
      for (const std::string &B : S.writtenBuffers(S.Nodes[L])) {
        RowBuffer RB;
        RB.Name = B;
        RB.Writer = L;
        const SchedulerBuffer *O = findOutput(S, L, B);
        if (O) {
          RB.Form = layoutShortForm(O->Layout);
          RB.Output = is_contained(O->Users, "OUTPUT");
        }
        if (RB.Form.empty()) {
          RB.Why = O ? "the layout of buffer " + B + " names no dtype and sizes"
                     : "buffer " + B + " is in no outputs list";
          Bufs.push_back(std::move(RB));
          continue;
        }
        // The nodes of its type; of these, those the graph returns
        // exactly when the buffer is an output, when there are any (an
        // output may be a view of the buffer: `sum_2` stored, `view`
        // returned).
        std::vector<uint32_t> OfType, Same;
        for (uint32_t P : Post) {
          const Node &N = G.Nodes[P];
          if (N.Op != NodeOp::CallFunction && N.Op != NodeOp::CallMethod)
            continue;
          Optional<TensorType> T = parseTensorType(N.Type);
          if (!T || T->shortForm() != RB.Form)
            continue;
          OfType.push_back(P);
          if (Out.Returned.count(P) == RB.Output)
            Same.push_back(P);
        }
        RB.Candidates = Same.empty() ? OfType : Same;
        // Of several, the one candidate whose op the loop body stores, if
        // one is.
        if (RB.Candidates.size() > 1) {
          std::string Stored = storedOp(S.Text, Out.lines(S), S.Nodes[L], B);
          std::vector<uint32_t> ByOp;
          for (uint32_t P : RB.Candidates)
            if (!Stored.empty() && fxOp(G.Nodes[P].Target) == Stored)
              ByOp.push_back(P);
          if (ByOp.size() == 1) {
            RB.Candidates = ByOp;
            RB.ByOp = true;
          }
        }
        Bufs.push_back(std::move(RB));
      }

    // Anchor each buffer to its only candidate left, taking anchors out of
    // the other buffers' candidates, until nothing changes; a node that is
    // the only candidate of two buffers anchors neither.
    std::set<uint32_t> Taken;
    for (bool Changed = true; Changed;) {
      Changed = false;
      std::map<uint32_t, unsigned> SoleOf;
      std::vector<std::vector<uint32_t>> Live(Bufs.size());
      for (size_t I = 0; I < Bufs.size(); ++I) {
        if (Bufs[I].Anchor)
          continue;
        for (uint32_t P : Bufs[I].Candidates)
          if (!Taken.count(P))
            Live[I].push_back(P);
        if (Live[I].size() == 1)
          ++SoleOf[Live[I].front()];
      }
      for (size_t I = 0; I < Bufs.size(); ++I)
        if (!Bufs[I].Anchor && Live[I].size() == 1 &&
            SoleOf[Live[I].front()] == 1) {
          Bufs[I].Anchor = Live[I].front();
          Taken.insert(*Bufs[I].Anchor);
          Changed = true;
        }
    }
    // Buffers of one type whose candidates left are the same nodes, as
    // many as they: Inductor names buffers in the order it lowers the
    // graph's nodes, so the i-th buffer by number is taken as the i-th
    // node (softmax's amax and sum, both `f32[N, 1]`); a weaker rule,
    // checked by the data flow below.
    std::vector<std::pair<uint32_t, uint32_t>> Group;
    for (size_t I = 0; I < Bufs.size(); ++I) {
      if (Bufs[I].Anchor || Bufs[I].Candidates.empty())
        continue;
      std::vector<uint32_t> Live;
      for (uint32_t P : Bufs[I].Candidates)
        if (!Taken.count(P))
          Live.push_back(P);
      std::vector<size_t> Same;
      for (size_t J = 0; J < Bufs.size(); ++J) {
        if (Bufs[J].Anchor)
          continue;
        std::vector<uint32_t> LiveJ;
        for (uint32_t P : Bufs[J].Candidates)
          if (!Taken.count(P))
            LiveJ.push_back(P);
        if (LiveJ == Live)
          Same.push_back(J);
      }
      if (Same.size() != Live.size() || Same.size() < 2)
        continue;
      std::vector<std::pair<unsigned, size_t>> ByNumber;
      for (size_t J : Same) {
        StringRef Name = Bufs[J].Name;
        unsigned Num = 0;
        if (!Name.consume_front("buf") || Name.getAsInteger(10, Num))
          break;
        ByNumber.push_back({Num, J});
      }
      if (ByNumber.size() != Same.size())
        continue;
      llvm::sort(ByNumber);
      for (size_t K = 0; K < ByNumber.size(); ++K) {
        RowBuffer &B = Bufs[ByNumber[K].second];
        B.Anchor = Live[K];
        B.ByOrder = true;
        Taken.insert(Live[K]);
      }
    }

    std::map<uint32_t, size_t> AnchorOf;
    StringMap<size_t> BufByName;
    for (size_t I = 0; I < Bufs.size(); ++I) {
      BufByName.try_emplace(Bufs[I].Name, I);
      if (Bufs[I].Anchor)
        AnchorOf[*Bufs[I].Anchor] = I;
      if (Bufs[I].Anchor || !Bufs[I].Why.empty())
        continue;
      std::string Of = "buffer " + Bufs[I].Name + " (" + Bufs[I].Form + ")";
      std::vector<std::string> Names;
      for (uint32_t P : Bufs[I].Candidates)
        Names.push_back(G.Nodes[P].Name);
      Bufs[I].Why =
          Names.empty()
              ? "no post-grad node of kernel " + Kernel + " is " + Of
              : Of + " could be any of " + llvm::join(Names, ", ") +
                    " (post-grad nodes of kernel " + Kernel + ")";
    }

    for (uint32_t L : Leaves) {
      SchedulerNode &N = S.Nodes[L];
      std::vector<std::string> Reads;
      for (const SchedulerDep &D : N.Reads)
        if (!is_contained(Reads, D.Buffer))
          Reads.push_back(D.Buffer);
      std::string Why;
      std::vector<uint32_t> Todo;
      std::vector<std::string> From;
      bool ByOrder = false, ByOp = false;
      for (const RowBuffer &B : Bufs)
        if (B.Writer == L) {
          if (!B.Anchor) {
            Why = B.Why;
            break;
          }
          Todo.push_back(*B.Anchor);
          From.push_back(B.Name + " (" + G.Nodes[*B.Anchor].Name + ")");
          ByOrder |= B.ByOrder;
          ByOp |= B.ByOp;
        }
      // A buffer it reads that no scheduler node writes and that is no
      // input of the graph: the file is not the whole story.
      for (size_t R = 0; Why.empty() && R < Reads.size(); ++R)
        if (!Out.Written.count(Reads[R]) && !Out.Inputs.count(Reads[R]))
          Why = "it reads " + Reads[R] +
                ", which no scheduler node writes and no graph input is";
      for (size_t R = 0; Why.empty() && R < Reads.size(); ++R) {
        auto It = BufByName.find(Reads[R]);
        if (It != BufByName.end() && Bufs[It->second].Writer != L &&
            !Bufs[It->second].Anchor)
          Why = "it reads " + Reads[R] + ", whose post-grad node is unknown";
      }
      if (Why.empty() && Todo.empty())
        Why = "it writes no buffer";
      std::set<uint32_t> Seen;
      while (Why.empty() && !Todo.empty()) {
        uint32_t P = Todo.back();
        Todo.pop_back();
        if (!Seen.insert(P).second)
          continue;
        for (uint32_t I : G.Nodes[P].Inputs) {
          if (!InRow.count(I)) {
            // Computed by other kernels: it must read a buffer of one.
            auto Rows = Out.RowsOfPost.find(I);
            if (Rows == Out.RowsOfPost.end())
              continue;
            bool ReadsOne = false;
            for (uint32_t R : Rows->second) {
              auto B = Out.BufsOfRow.find(R);
              if (B != Out.BufsOfRow.end())
                for (const std::string &X : Reads)
                  ReadsOne |= B->second.count(X) > 0;
            }
            if (!ReadsOne) {
              Why = "the data flow from " + G.Nodes[P].Name + " reaches " +
                    G.Nodes[I].Name +
                    ", computed by another kernel, none of whose buffers "
                    "it reads";
              break;
            }
            continue;
          }
          auto A = AnchorOf.find(I);
          if (A == AnchorOf.end() || Bufs[A->second].Writer == L) {
            Todo.push_back(I);
            continue;
          }
          if (is_contained(Reads, Bufs[A->second].Name)) {
            ByOrder |= Bufs[A->second].ByOrder;
            ByOp |= Bufs[A->second].ByOp;
            continue;
          }
          Why = "the data flow from " + G.Nodes[P].Name + " reaches " +
                G.Nodes[I].Name + " (buffer " + Bufs[A->second].Name +
                "), which it does not read";
          break;
        }
      }
      if (!Why.empty()) {
        N.PostNodesUnknown = Why;
        continue;
      }
      N.PostNodes.assign(Seen.begin(), Seen.end());
      N.PostNodesBy = "data flow from " + llvm::join(From, ", ") +
                      (ByOrder  ? " (buffer types and order)"
                       : ByOp   ? " (buffer types and stored ops)"
                                : " (buffer types)") +
                      " within " + EdgesBy.str();
      N.PostNodesConfidence =
          std::min<uint8_t>(Conf, ByOrder ? 70 : ByOp ? 75 : 80);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createLinkSchedulerIRPass() {
  return std::make_unique<LinkSchedulerIRPass>();
}

} // namespace tlp
