//===- FXGraphParser.cpp - FX graph text (print_readable) -----------------===//
//
// Grammar (FORMAT.md section 5), one statement per line:
//   class NAME(torch.nn.Module):            scope; nested classes indent more
//   def forward(self, a: "f32[..]", ...):   placeholders (or one per line)
//   # File: path:line in fn, code: text     governs the nodes that follow
//   name[: "annotation"] = expr[;  a = b = None]
//   a += b;  name[: "annotation"] = a[;  ...]   in-place operator (iadd, ...)
//   a[i] = b;  name[: "annotation"] = a[;  ...] operator.setitem
//   a: "ann"; b: "ann";                     pytree placeholders
//   return (a, b)                           output
//    # graph id: N                          footer of before_pre_grad_graph
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/SourceInfo.h"
#include "tlp/Parse/Lexer.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tlp {

using namespace lex;

namespace {

struct ScopeState {
  unsigned ClassIndent = 0;
  std::string Path;
  uint32_t Comment = 0;
  llvm::StringMap<uint32_t> Names; ///< node name -> index in G.Nodes
};

struct BinOp {
  const char *Token;
  const char *Name;
};
// Longest tokens first so " // " wins over " / ".
const BinOp BinOps[] = {
    {" // ", "operator.floordiv"}, {" ** ", "operator.pow"},
    {" << ", "operator.lshift"},   {" >> ", "operator.rshift"},
    {" <= ", "operator.le"},       {" >= ", "operator.ge"},
    {" == ", "operator.eq"},       {" != ", "operator.ne"},
    {" * ", "operator.mul"},       {" / ", "operator.truediv"},
    {" + ", "operator.add"},       {" - ", "operator.sub"},
    {" % ", "operator.mod"},       {" @ ", "operator.matmul"},
    {" & ", "operator.and_"},      {" | ", "operator.or_"},
    {" ^ ", "operator.xor"},       {" < ", "operator.lt"},
    {" > ", "operator.gt"},
};

// FX prints an in-place operator node as `a OP= b;  name = a`.
// Longest tokens first so "//=" wins over "/=".
const BinOp InPlaceOps[] = {
    {"//=", "operator.ifloordiv"}, {"**=", "operator.ipow"},
    {"<<=", "operator.ilshift"},   {">>=", "operator.irshift"},
    {"+=", "operator.iadd"},       {"-=", "operator.isub"},
    {"*=", "operator.imul"},       {"/=", "operator.itruediv"},
    {"%=", "operator.imod"},       {"@=", "operator.imatmul"},
    {"&=", "operator.iand"},       {"|=", "operator.ior"},
    {"^=", "operator.ixor"},
};

/// The in-place operator \p R (what follows the first name of a line,
/// spaces skipped) starts with: its target, or null. A subscript
/// assignment `a[i] = b` is operator.setitem.
const char *inPlaceTarget(StringRef R) {
  for (const BinOp &B : InPlaceOps)
    if (R.startswith(B.Token))
      return B.Name;
  if (R.startswith("[")) {
    size_t Close = findTopLevel(R.drop_front(), "]");
    if (Close != StringRef::npos &&
        trimWS(R.substr(Close + 2)).startswith("=") &&
        !trimWS(R.substr(Close + 2)).startswith("=="))
      return "operator.setitem";
  }
  return nullptr;
}

void classify(StringRef E, const ScopeState &S, NodeOp &Op,
              std::string &Target) {
  E = trimWS(E);
  if (E.startswith("self.")) {
    StringRef Rest = E.drop_front(5);
    size_t N = chainLen(Rest);
    if (N && N < Rest.size() && Rest[N] == '(') {
      Op = NodeOp::CallModule;
      Target = Rest.substr(0, N).str();
      return;
    }
    Op = NodeOp::GetAttr;
    Target = Rest.substr(0, N ? N : Rest.size()).str();
    return;
  }
  // Binary operators at the top level (magic methods).
  const char *BestName = nullptr;
  findTopLevelIf(E, [&](size_t I) {
    if (E[I] != ' ')
      return false;
    for (const BinOp &B : BinOps)
      if (E.substr(I).startswith(B.Token)) {
        BestName = B.Name;
        return true;
      }
    return false;
  });
  if (BestName) {
    Op = NodeOp::CallFunction;
    Target = BestName;
    return;
  }
  if (E.startswith("-") && E.size() > 1 &&
      !isdigit(static_cast<unsigned char>(E[1]))) {
    Op = NodeOp::CallFunction;
    Target = "operator.neg";
    return;
  }
  if (E.startswith("~")) {
    Op = NodeOp::CallFunction;
    Target = "operator.invert";
    return;
  }
  if (E.startswith("not ")) {
    Op = NodeOp::CallFunction;
    Target = "operator.not_";
    return;
  }
  size_t N = chainLen(E);
  if (N) {
    StringRef Chain = E.substr(0, N);
    StringRef First = Chain.split('.').first;
    bool IsValue = S.Names.count(First) != 0;
    if (N < E.size() && E[N] == '(') {
      if (IsValue && Chain.contains('.')) {
        Op = NodeOp::CallMethod;
        Target = Chain.rsplit('.').second.str();
      } else {
        Op = NodeOp::CallFunction;
        Target = Chain.str();
      }
      return;
    }
    if (N < E.size() && E[N] == '[') {
      Op = NodeOp::CallFunction;
      Target = "operator.getitem";
      return;
    }
    if (N == E.size() && IsValue && Chain.contains('.')) {
      Op = NodeOp::CallFunction;
      Target = "getattr";
      return;
    }
  }
  Op = NodeOp::Unknown;
  Target = excerpt(E, 80);
}

class FXParser {
public:
  FXParser(GraphArtifact &G, PayloadContext &Ctx) : G(G), Ctx(Ctx) {}

  void run() {
    splitLines(G.Text, Lines);
    for (size_t I = 0; I < Lines.size(); ++I)
      I = line(I);
    G.reindex();
    computeFXNodeInputs(G);
  }

private:
  GraphArtifact &G;
  PayloadContext &Ctx;
  std::vector<StringRef> Lines;
  std::vector<ScopeState> Scopes;

  uint32_t lineNo(size_t I) const { return static_cast<uint32_t>(I + 1); }

  void addNode(ScopeState &S, StringRef Name, NodeOp Op, StringRef Target,
               StringRef Type, size_t I, uint32_t Comment) {
    Node N;
    N.Name = Name.str();
    N.Op = Op;
    N.Target = Target.str();
    N.Type = Type.str();
    N.Line = lineNo(I);
    N.Scope = S.Path;
    N.CommentLine = Comment;
    S.Names.try_emplace(N.Name, G.Nodes.size());
    G.Nodes.push_back(std::move(N));
  }

  void param(ScopeState &S, StringRef P, size_t I) {
    P = trimWS(P);
    size_t Hash = findTopLevel(P, "#");
    if (Hash != StringRef::npos)
      P = trimWS(P.substr(0, Hash));
    P = P.rtrim(',');
    P = trimWS(P);
    if (P.empty() || P == "self" || P.startswith("*"))
      return;
    size_t N = identLen(P);
    if (!N) {
      Ctx.warning(lineNo(I), "unrecognised parameter in FX graph signature",
                  Lines[I]);
      return;
    }
    StringRef Name = P.substr(0, N);
    StringRef Rest = trimWS(P.substr(N));
    std::string Type;
    if (Rest.consume_front(":"))
      quoted(trimWS(Rest), Type);
    addNode(S, Name, NodeOp::Placeholder, Name, Type, I, 0);
  }

  /// Returns the index of the last line consumed.
  size_t signature(ScopeState &S, size_t I) {
    StringRef T = trimWS(Lines[I]);
    size_t Open = T.find('(');
    if (Open == StringRef::npos)
      return I;
    StringRef AfterOpen = T.substr(Open + 1);
    size_t Close = findTopLevel(AfterOpen, ")");
    if (Close != StringRef::npos) {
      StringRef Params = AfterOpen.substr(0, Close);
      size_t Pos = 0;
      while (Pos <= Params.size()) {
        size_t Comma = findTopLevel(Params, ",", Pos);
        StringRef P = Params.substr(
            Pos, Comma == StringRef::npos ? StringRef::npos : Comma - Pos);
        param(S, P, I);
        if (Comma == StringRef::npos)
          break;
        Pos = Comma + 1;
      }
      return I;
    }
    // One parameter per line until a line starting with ')'.
    size_t J = I + 1;
    for (; J < Lines.size(); ++J) {
      StringRef P = trimWS(Lines[J]);
      if (P.startswith(")"))
        return J;
      param(S, P, J);
    }
    Ctx.warning(lineNo(I), "unterminated FX graph signature", Lines[I]);
    return J - 1;
  }

  size_t line(size_t I) {
    StringRef L = Lines[I];
    StringRef T = trimWS(L);
    if (T.empty())
      return I;
    unsigned Ind = indentOf(L);
    bool IsClass = T.startswith("class ") && T.endswith(":");
    while (!Scopes.empty() && Ind <= Scopes.back().ClassIndent)
      Scopes.pop_back();
    if (T.startswith("# graph id:")) {
      uint64_t Id;
      if (parseUnsigned(trimWS(T.drop_front(11)), Id))
        G.GraphId = static_cast<int64_t>(Id);
      return I;
    }
    if (T.startswith("#")) {
      if (Scopes.empty())
        return I;
      if (Optional<SourceLoc> Loc = parseFXFileComment(T)) {
        Scopes.back().Comment = lineNo(I);
        G.FileComments.emplace_back(lineNo(I), std::move(*Loc));
      }
      else if (T.contains("No stacktrace found"))
        Scopes.back().Comment = 0;
      return I;
    }
    if (IsClass) {
      StringRef Name = T.drop_front(6);
      Name = Name.take_until([](char C) { return C == '(' || C == ':'; });
      ScopeState S;
      S.ClassIndent = Ind;
      if (!Scopes.empty())
        S.Path = Scopes.back().Path.empty()
                     ? trimWS(Name).str()
                     : Scopes.back().Path + "." + trimWS(Name).str();
      Scopes.push_back(std::move(S));
      return I;
    }
    // A runnable module's imports before its class (`from __future__
    // import annotations`, `import torch`: depyf's graph files).
    if (Scopes.empty() && Ind == 0 &&
        (T.startswith("import ") || T.startswith("from ")) &&
        T.contains("import"))
      return I;
    if (Scopes.empty()) {
      Ctx.warning(lineNo(I), "unrecognised line outside any class in FX graph",
                  L);
      return I;
    }
    ScopeState &S = Scopes.back();
    if (T.startswith("def "))
      return signature(S, I);
    if (T == "return" || T.startswith("return ") || T.startswith("return(")) {
      addNode(S, "output", NodeOp::Output, "output", "", I, 0);
      StringRef Rest = trimWS(T.drop_front(6));
      if (Rest.startswith("(") && findTopLevel(Rest, ")") == StringRef::npos &&
          !Rest.endswith(")")) {
        // Multi-line return: skip to the closing parenthesis.
        for (size_t J = I + 1; J < Lines.size(); ++J)
          if (trimWS(Lines[J]).startswith(")"))
            return J;
      }
      return I;
    }
    statement(S, I, T);
    return I;
  }

  void statement(ScopeState &S, size_t I, StringRef T) {
    size_t N = identLen(T);
    if (!N) {
      Ctx.warning(lineNo(I), "unrecognised line in FX graph", Lines[I]);
      return;
    }
    StringRef Name = T.substr(0, N);
    StringRef Rest = T.substr(N);
    std::string Type;
    StringRef R = Rest.ltrim(' ');
    if (R.startswith(":")) {
      size_t Q = quoted(trimWS(R.drop_front()), Type);
      if (!Q) {
        Ctx.warning(lineNo(I), "unrecognised type annotation in FX graph",
                    Lines[I]);
        return;
      }
      R = trimWS(R.drop_front()).substr(Q).ltrim(' ');
      if (R.startswith(";") || R.empty()) {
        pytreeDecls(S, I, T);
        return;
      }
    }
    if (R.startswith(",")) // `a, b, = fx_pytree.tree_flatten_spec(...)`
      return;
    if (const char *InPlace = inPlaceTarget(R)) {
      inPlace(S, I, T, Name, InPlace);
      return;
    }
    if (R.startswith(".") || R.startswith("(")) // `args_list.clear()`
      return;
    if (!R.startswith("=") || R.startswith("==")) {
      Ctx.warning(lineNo(I), "unrecognised line in FX graph", Lines[I]);
      return;
    }
    StringRef Expr = trimWS(R.drop_front());
    size_t Semi = findTopLevel(Expr, ";");
    if (Semi != StringRef::npos)
      Expr = trimWS(Expr.substr(0, Semi));
    // Dynamo placeholder renames: `l_x_ = L_x_`.
    if (identLen(Expr) == Expr.size()) {
      auto It = S.Names.find(Expr);
      if (It != S.Names.end()) {
        Node &P = G.Nodes[It->second];
        if (P.Op == NodeOp::Placeholder && P.Name == P.Target) {
          uint32_t Index = It->second;
          S.Names.erase(It);
          P.Name = Name.str();
          P.Line = lineNo(I);
          if (P.Type.empty())
            P.Type = Type;
          S.Names.try_emplace(P.Name, Index);
          return;
        }
      }
    }
    if (Expr.startswith("iter(args_list)"))
      return;
    if (Expr.startswith("next(args_iter)")) {
      addNode(S, Name, NodeOp::Placeholder, Name, Type, I, 0);
      return;
    }
    NodeOp Op;
    std::string Target;
    classify(Expr, S, Op, Target);
    addNode(S, Name, Op, Target, Type, I, S.Comment);
  }

  /// `a += b;  name: "ann" = a[;  a = None]` (or `a[i] = b;  name = a`):
  /// the node is `name`, an operator.iadd (...) call on `a`.
  void inPlace(ScopeState &S, size_t I, StringRef T, StringRef Operand,
               const char *Target) {
    size_t Semi = findTopLevel(T, ";");
    StringRef Second =
        Semi == StringRef::npos ? StringRef() : trimWS(T.substr(Semi + 1));
    size_t N = identLen(Second);
    StringRef R = Second.substr(N).ltrim(' ');
    std::string Type;
    if (N && R.startswith(":")) {
      StringRef A = trimWS(R.drop_front());
      size_t Q = quoted(A, Type);
      R = Q ? A.substr(Q).ltrim(' ') : StringRef();
    }
    StringRef Value;
    if (N && R.startswith("=") && !R.startswith("==")) {
      Value = trimWS(R.drop_front());
      size_t End = findTopLevel(Value, ";");
      if (End != StringRef::npos)
        Value = trimWS(Value.substr(0, End));
    }
    if (Value != Operand) {
      Ctx.warning(lineNo(I),
                  "unrecognised in-place statement in FX graph (expected "
                  "`a OP= b;  name = a`)",
                  Lines[I]);
      return;
    }
    addNode(S, Second.substr(0, N), NodeOp::CallFunction, Target, Type, I,
            S.Comment);
  }

  void pytreeDecls(ScopeState &S, size_t I, StringRef T) {
    while (!T.empty()) {
      T = trimWS(T);
      size_t N = identLen(T);
      if (!N)
        return;
      StringRef Name = T.substr(0, N);
      StringRef R = trimWS(T.substr(N));
      std::string Type;
      if (R.consume_front(":")) {
        R = trimWS(R);
        size_t Q = quoted(R, Type);
        R = R.substr(Q);
      }
      if (!S.Names.count(Name))
        addNode(S, Name, NodeOp::Placeholder, Name, Type, I, 0);
      R = trimWS(R);
      if (!R.consume_front(";"))
        return;
      T = R;
    }
  }
};

/// The expression part of a node line: after the first ` = ` (or after
/// `return`) and before FX's `;  a = b = None` clean-up statement; of an
/// in-place operator's line (`a += b;  name = a`), its first statement.
StringRef rightHandSide(StringRef Line, bool IsOutput) {
  StringRef S = trimWS(Line);
  if (IsOutput) {
    if (!S.consume_front("return"))
      return StringRef();
  } else if (size_t N = identLen(S);
             N && inPlaceTarget(S.substr(N).ltrim(' '))) {
    // Every name of `a += b` or `a[i] = b` is an input.
  } else {
    size_t Eq = S.find(" = ");
    if (Eq == StringRef::npos)
      return StringRef();
    S = S.substr(Eq + 3);
  }
  size_t Del = S.find(";  ");
  if (Del != StringRef::npos)
    S = S.substr(0, Del);
  return S;
}

/// The bracket depth at the end of \p S: (, [ and { less ), ] and }.
int bracketDepth(StringRef S) {
  int D = 0;
  for (char C : S)
    D += (C == '(' || C == '[' || C == '{') - (C == ')' || C == ']' || C == '}');
  return D;
}

} // namespace

void computeFXNodeInputs(GraphArtifact &G) {
  // Scope -> name -> node. A name defined twice in one scope (it should
  // not be) resolves to its first node.
  std::map<std::string, StringMap<uint32_t>> ByScope;
  for (uint32_t I = 0; I < G.Nodes.size(); ++I)
    ByScope[G.Nodes[I].Scope].try_emplace(G.Nodes[I].Name, I);
  const LineTable &Lines = G.lines();
  std::string Expr;
  // The node whose inputs last took each node: a name used twice is one
  // input (a std::find per name made a node of a million inputs take 98 s).
  std::vector<uint32_t> TakenBy(G.Nodes.size(), UINT32_MAX);
  for (uint32_t I = 0; I < G.Nodes.size(); ++I) {
    Node &N = G.Nodes[I];
    N.Inputs.clear();
    if (N.Op == NodeOp::Placeholder || !N.Line || N.Line > Lines.size())
      continue;
    bool IsOutput = N.Op == NodeOp::Output;
    Expr = rightHandSide(Lines.line(G.Text, N.Line), IsOutput).str();
    if (IsOutput) {
      // A long return continues on the next lines until its brackets close.
      int D = bracketDepth(Expr);
      for (unsigned L = N.Line + 1;
           D > 0 && L <= Lines.size() && L < N.Line + 10000; ++L) {
        StringRef More = Lines.line(G.Text, L);
        Expr += ' ';
        Expr += More.str();
        D += bracketDepth(More);
      }
    }
    const StringMap<uint32_t> &Names = ByScope[N.Scope];
    std::vector<uint32_t> &In = N.Inputs;
    forEachValueName(Expr, [&](StringRef Name) {
      auto It = Names.find(Name);
      if (It == Names.end() || It->second == I)
        return;
      if (TakenBy[It->second] != I) {
        TakenBy[It->second] = I;
        In.push_back(It->second);
      }
    });
  }
}

void parseFXGraph(GraphArtifact &G, PayloadContext &Ctx) {
  G.Nodes.clear();
  G.GraphId = None;
  G.FileComments.clear();
  G.FileCommentsParsed = true;
  FXParser(G, Ctx).run();
}

} // namespace tlp
