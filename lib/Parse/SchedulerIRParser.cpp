//===- SchedulerIRParser.cpp - Inductor's scheduler IR before/after fusion ===//
//
// ir_pre_fusion.txt and ir_post_fusion.txt of a TORCH_COMPILE_DEBUG folder:
// each scheduler node's debug_str(), joined by blank lines:
//
//   op1_op2: OuterLoopFusedSchedulerNode(SchedulerNode,SchedulerNode)
//   op1_op2.writes = [MemoryDep('buf1', c0, {c0: 4}), ...]
//   op1_op2.unmet_dependencies = [MemoryDep('buf0', c0, {c0: 128})]
//   op1_op2.met_dependencies = []
//   op1_op2.outputs = [
//       buf1: ComputedBuffer
//       buf1.layout = FixedLayout('cpu', torch.float32, size=[4, 1], ...)
//       buf1.users = [NodeUser(node=SchedulerNode(name='op2'), ...)]
//   ]
//   op1_op2.snodes[0] =
//   op1: SchedulerNode(ComputedBuffer)
//   ...
//   op1.group.device = cpu
//   class op1_loop_body:
//       def body(self, ops):
//           load = ops.load('buf0', get_index)
//
// A value may go on over several lines while its brackets are open. Lines
// tlp does not know at column 0 get a located warning; the text is kept
// whole, so nothing is lost.
//
//===----------------------------------------------------------------------===//

#include "tlp/Parse/Lexer.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace llvm;

namespace tlp {

namespace {

/// The bracket depth change of \p S, outside string literals.
int bracketBalance(StringRef S) {
  int Depth = 0;
  char Quote = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    if (lex::inStringLiteral(S, I, Quote))
      continue;
    char C = S[I];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}')
      --Depth;
  }
  return Depth;
}

/// The text of the first '...' or "..." literal of \p S from \p From.
bool firstQuoted(StringRef S, size_t From, std::string &Out) {
  size_t Q = S.find_first_of("'\"", From);
  if (Q == StringRef::npos)
    return false;
  size_t E = S.find(S[Q], Q + 1);
  if (E == StringRef::npos)
    return false;
  Out = S.slice(Q + 1, E).str();
  return true;
}

/// The dependencies of a `[MemoryDep('buf0', ...), StarDep(name='x')]`
/// list.
void parseDeps(StringRef S, bool Unmet, std::vector<SchedulerDep> &Out) {
  size_t I = 0;
  while ((I = S.find("Dep(", I)) != StringRef::npos) {
    size_t B = I;
    while (B > 0 && isIdentChar(S[B - 1]))
      --B;
    StringRef Class = S.slice(B, I + 3);
    SchedulerDep D;
    D.Unmet = Unmet;
    D.Kind = Class == "MemoryDep" ? DepKind::Memory
             : Class == "StarDep" ? DepKind::Star
             : Class == "WeakDep" ? DepKind::Weak
                                   : DepKind::Other;
    size_t Close = lex::findTopLevel(S, ")", I + 4);
    StringRef Args = S.slice(I + 4, Close == StringRef::npos ? S.size() : Close);
    size_t NameAt = Args.find("name=");
    if (firstQuoted(Args, NameAt == StringRef::npos ? 0 : NameAt, D.Buffer) &&
        !D.Buffer.empty())
      Out.push_back(std::move(D));
    I += 4;
  }
}

/// The users of a `[NodeUser(node=SchedulerNode(name='op1'), ...), ...]`
/// list: node names, `OUTPUT` for a graph output.
void parseUsers(StringRef S, std::vector<std::string> &Out) {
  size_t I = 0;
  while ((I = S.find("node=", I)) != StringRef::npos) {
    I += 5;
    StringRef Rest = S.substr(I);
    size_t Id = lex::identLen(Rest);
    std::string Name;
    if (Id < Rest.size() && Rest[Id] == '(') {
      size_t N = Rest.find("name=");
      if (N == StringRef::npos || !firstQuoted(Rest, N, Name))
        Name = Rest.take_front(Id).str();
    } else {
      Name = Rest.take_front(Id).str();
    }
    if (!Name.empty())
      Out.push_back(std::move(Name));
  }
}

class SchedulerIRParser {
public:
  SchedulerIRParser(SchedulerIRArtifact &A, PayloadContext &Ctx)
      : A(A), Ctx(Ctx) {}

  void run() {
    StringRef Text = A.Text;
    SmallVector<StringRef, 0> Split;
    Text.split(Split, '\n');
    std::vector<StringRef> Lines(Split.begin(), Split.end());
    if (!Lines.empty() && Lines.back().empty())
      Lines.pop_back();
    for (StringRef &L : Lines)
      L = L.rtrim('\r');
    for (size_t I = 0; I < Lines.size(); ++I) {
      StringRef L = Lines[I];
      uint32_t LineNo = I + 1;
      if (trimWS(L).empty())
        continue;
      if (L[0] == ' ' || L[0] == '\t') {
        // Only a loop body or a continued value is indented; both are
        // taken with the line that opens them.
        unknown(LineNo, L);
        continue;
      }
      if (header(L, LineNo))
        continue;
      if (L.startswith("class ") && L.endswith("_loop_body:")) {
        I = loopBody(Lines, I);
        continue;
      }
      // `buf0_layout = FixedLayout(...)`: a node's buffers again, as
      // SchedulerNode.debug_str_extra prints them.
      size_t Eq = L.find(" = ");
      StringRef Lhs = Eq == StringRef::npos ? L.rtrim(" =") : L.take_front(Eq);
      if (Lhs.endswith("_layout") && lex::identLen(Lhs) == Lhs.size())
        continue;
      size_t Dot = Lhs.find('.');
      if (Dot != StringRef::npos) {
        StringRef Owner = Lhs.take_front(Dot), Prop = Lhs.drop_front(Dot + 1);
        Optional<uint32_t> N = find(Owner);
        if (!N) {
          Ctx.warning(LineNo,
                      "'" + Lhs + "' names no scheduler node before it", L);
          I = skipValue(Lines, I, Eq == StringRef::npos ? "" : L.substr(Eq + 3));
          continue;
        }
        StringRef Value = Eq == StringRef::npos ? "" : L.substr(Eq + 3);
        I = property(Lines, I, *N, Prop, Value);
        continue;
      }
      unknown(LineNo, L);
    }
    if (PendingParent)
      Ctx.warning(PendingLine, "'" + A.Nodes[*PendingParent].Name +
                                   ".snodes' is not followed by a node");
    for (SchedulerNode &N : A.Nodes)
      if (!N.EndLine)
        N.EndLine = static_cast<uint32_t>(Lines.size());
  }

private:
  SchedulerIRArtifact &A;
  PayloadContext &Ctx;
  /// The fused node whose `snodes[i] =` line came last.
  Optional<uint32_t> PendingParent;
  uint32_t PendingLine = 0;
  /// The top-level node being read.
  Optional<uint32_t> Top;
  /// Nodes by name (the first of a name), for the property lines.
  StringMap<uint32_t> ByName;

  Optional<uint32_t> find(StringRef Name) const {
    auto It = ByName.find(Name);
    if (It == ByName.end())
      return None;
    return It->second;
  }

  void unknown(uint32_t LineNo, StringRef L) {
    Ctx.warning(LineNo, "unrecognised line in scheduler IR", L);
  }

  /// `op1: SchedulerNode(ComputedBuffer)` starts a node.
  bool header(StringRef L, uint32_t LineNo) {
    size_t Id = lex::identLen(L);
    if (!Id || !L.substr(Id).startswith(": "))
      return false;
    StringRef Rest = L.substr(Id + 2);
    size_t Cls = lex::identLen(Rest);
    if (!Cls || !Rest.substr(Cls).startswith("(") || !Rest.endswith(")"))
      return false;
    StringRef Class = Rest.take_front(Cls);
    if (!Class.endswith("Node"))
      return false;
    SchedulerNode N;
    N.Name = L.take_front(Id).str();
    N.Class = Class.str();
    N.Detail = Rest.slice(Cls + 1, Rest.size() - 1).str();
    N.Line = LineNo;
    uint32_t Index = A.Nodes.size();
    if (PendingParent) {
      N.Parent = PendingParent;
      A.Nodes[*PendingParent].SubNodes.push_back(Index);
      PendingParent = None;
    } else {
      closeTop(LineNo);
      Top = Index;
    }
    if (!A.Nodes.empty() && !A.Nodes.back().EndLine && A.Nodes.back().Parent)
      A.Nodes.back().EndLine = LineNo - 1;
    ByName.try_emplace(N.Name, Index);
    A.Nodes.push_back(std::move(N));
    return true;
  }

  /// End the top-level node before \p LineNo (and its last sub-node).
  void closeTop(uint32_t LineNo) {
    if (!Top)
      return;
    uint32_t End = LineNo - 1;
    for (uint32_t J = *Top; J < A.Nodes.size(); ++J)
      if (!A.Nodes[J].EndLine)
        A.Nodes[J].EndLine = End;
  }

  /// The lines of a value that opens brackets it does not close on its
  /// line: up to the line that closes them. Returns the last line index.
  size_t gather(const std::vector<StringRef> &Lines, size_t I,
                StringRef First, std::string &Value) {
    Value = First.str();
    int Depth = bracketBalance(First);
    size_t J = I;
    // `op0.met_dependencies = ` with the list on the lines below (pprint
    // breaks a long list so).
    if (trimWS(First).empty() && J + 1 < Lines.size() &&
        Lines[J + 1].startswith(" ") && !trimWS(Lines[J + 1]).empty()) {
      ++J;
      Value = Lines[J].str();
      Depth = bracketBalance(Lines[J]);
    }
    while (Depth > 0 && J + 1 < Lines.size()) {
      StringRef Next = Lines[J + 1];
      // A node or a blank line ends the value: its brackets never closed.
      if (trimWS(Next).empty() || (!Next.empty() && Next[0] != ' ' &&
                                   Next[0] != '\t' && Next[0] != ']' &&
                                   Next[0] != ')' && Next[0] != '}'))
        break;
      ++J;
      Value += "\n";
      Value += Next.str();
      Depth += bracketBalance(Next);
    }
    if (Depth > 0)
      Ctx.warning(I + 1, "a bracket of this value is not closed", Lines[I]);
    return J;
  }

  size_t skipValue(const std::vector<StringRef> &Lines, size_t I,
                   StringRef First) {
    std::string Ignored;
    return gather(Lines, I, First, Ignored);
  }

  size_t property(const std::vector<StringRef> &Lines, size_t I, uint32_t N,
                  StringRef Prop, StringRef First) {
    uint32_t LineNo = I + 1;
    if (Prop.startswith("snodes[")) {
      PendingParent = N;
      PendingLine = LineNo;
      return I;
    }
    if (Prop == "outputs")
      return outputs(Lines, I, N, First);
    std::string Value;
    size_t Last = gather(Lines, I, First, Value);
    SchedulerNode &S = A.Nodes[N];
    StringRef V = trimWS(Value);
    if (Prop == "writes")
      parseDeps(V, false, S.Writes);
    else if (Prop == "unmet_dependencies")
      parseDeps(V, true, S.Reads);
    else if (Prop == "met_dependencies")
      parseDeps(V, false, S.Reads);
    else if (Prop == "node.kernel")
      S.ExternKernel = V.str();
    else if (Prop == "group.device")
      S.Device = V.str();
    else if (Prop == "group.iteration")
      S.Iteration = V.str();
    else if (Prop == "sizes")
      S.Sizes = V.str();
    // Other properties (min_input_distance, ...) stay in the text.
    return Last;
  }

  /// `opN.outputs = [` up to the `]` at column 0.
  size_t outputs(const std::vector<StringRef> &Lines, size_t I, uint32_t N,
                 StringRef First) {
    SchedulerNode &S = A.Nodes[N];
    if (trimWS(First) == "[]")
      return I;
    if (trimWS(First) != "[") {
      Ctx.warning(I + 1, "expected '[' after 'outputs ='", Lines[I]);
      return I;
    }
    size_t J = I + 1;
    for (; J < Lines.size(); ++J) {
      StringRef L = Lines[J];
      if (L == "]")
        return J;
      if (trimWS(L).empty() || (L[0] != ' ' && L[0] != '\t'))
        break;
      StringRef T = trimWS(L);
      size_t Id = lex::identLen(T);
      StringRef Name = T.take_front(Id);
      StringRef Rest = T.substr(Id);
      if (Id && Rest.startswith(": ")) {
        SchedulerBuffer B;
        B.Name = Name.str();
        B.Type = trimWS(Rest.drop_front(2)).str();
        S.Outputs.push_back(std::move(B));
        continue;
      }
      if (!Id || S.Outputs.empty() || Name != S.Outputs.back().Name) {
        unknown(J + 1, L);
        continue;
      }
      size_t Eq = Rest.find(" = ");
      StringRef Key = Rest.take_front(Eq);
      std::string Value;
      J = gather(Lines, J, Eq == StringRef::npos ? "" : Rest.substr(Eq + 3),
                 Value);
      if (Key == ".layout")
        S.Outputs.back().Layout = trimWS(Value).str();
      else if (Key == ".users")
        parseUsers(Value, S.Outputs.back().Users);
    }
    Ctx.warning(I + 1, "the outputs list of '" + S.Name + "' is not closed",
                Lines[I]);
    return J - 1;
  }

  /// `class opN_loop_body:` and its indented lines: the ops it uses.
  size_t loopBody(const std::vector<StringRef> &Lines, size_t I) {
    StringRef Owner = Lines[I].drop_front(6).drop_back(11);
    Optional<uint32_t> N = find(Owner);
    if (!N)
      Ctx.warning(I + 1, "loop body of '" + Owner +
                             "', which names no scheduler node before it");
    size_t J = I + 1;
    for (; J < Lines.size(); ++J) {
      StringRef L = Lines[J];
      if (!L.empty() && L[0] != ' ' && L[0] != '\t')
        break;
      if (!N)
        continue;
      size_t P = 0;
      while ((P = L.find("ops.", P)) != StringRef::npos) {
        bool Bounded = P == 0 || !isIdentChar(L[P - 1]);
        P += 4;
        size_t Len = lex::identLen(L.substr(P));
        if (!Bounded || !Len || L.substr(P + Len).take_front(1) != "(")
          continue;
        std::string Op = L.substr(P, Len).str();
        std::vector<std::string> &Ops = A.Nodes[*N].Ops;
        if (std::find(Ops.begin(), Ops.end(), Op) == Ops.end())
          Ops.push_back(std::move(Op));
      }
    }
    return J - 1;
  }
};

} // namespace

void parseSchedulerIR(SchedulerIRArtifact &A, PayloadContext &Ctx) {
  A.Nodes.clear();
  SchedulerIRParser(A, Ctx).run();
}

} // namespace tlp
