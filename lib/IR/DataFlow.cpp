//===- DataFlow.cpp - Data-flow edges of an FX graph ----------------------===//

#include "tlp/IR/DataFlow.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>
#include <string>

using namespace llvm;

namespace tlp {

/// The expression part of a node line: after the first ` = ` (or after
/// `return`) and before FX's `;  a = b = None` clean-up statement.
static StringRef rightHandSide(StringRef Line, bool IsOutput) {
  StringRef S = trimWS(Line);
  if (IsOutput) {
    if (!S.consume_front("return"))
      return StringRef();
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

/// Call \p F on every identifier of \p S that may name a value: outside
/// strings, not after '.', not a callee (followed by '(') and not a keyword
/// argument name (followed by '=' but not '==').
template <typename Fn> static void forEachValueName(StringRef S, Fn F) {
  char Quote = 0;
  for (size_t I = 0, E = S.size(); I < E; ++I) {
    char C = S[I];
    if (Quote) {
      if (C == '\\')
        ++I;
      else if (C == Quote)
        Quote = 0;
      continue;
    }
    if (C == '\'' || C == '"') {
      Quote = C;
      continue;
    }
    if (!isIdentStart(C) || (I && (isIdentChar(S[I - 1]) || S[I - 1] == '.')))
      continue;
    size_t J = I;
    while (J < E && isIdentChar(S[J]))
      ++J;
    StringRef Name = S.slice(I, J);
    size_t K = J;
    while (K < E && S[K] == ' ')
      ++K;
    bool Callee = K < E && S[K] == '(';
    bool Keyword = K < E && S[K] == '=' && !(K + 1 < E && S[K + 1] == '=');
    if (!Callee && !Keyword)
      F(Name);
    I = J - 1;
  }
}

std::vector<std::vector<uint32_t>> computeNodeInputs(const GraphArtifact &G) {
  std::vector<std::vector<uint32_t>> Inputs(G.Nodes.size());
  // Scope -> name -> node. A name defined twice in one scope (it should
  // not be) resolves to its first node.
  std::map<std::string, StringMap<uint32_t>> ByScope;
  for (uint32_t I = 0; I < G.Nodes.size(); ++I)
    ByScope[G.Nodes[I].Scope].try_emplace(G.Nodes[I].Name, I);
  const LineTable &Lines = G.lines();
  for (uint32_t I = 0; I < G.Nodes.size(); ++I) {
    const Node &N = G.Nodes[I];
    if (N.Op == NodeOp::Placeholder || !N.Line || N.Line > Lines.size())
      continue;
    bool IsOutput = N.Op == NodeOp::Output;
    std::string Expr =
        rightHandSide(Lines.line(G.Text, N.Line), IsOutput).str();
    if (IsOutput) {
      // A long return continues on the next lines until its brackets close.
      auto Depth = [](StringRef S) {
        int D = 0;
        for (char C : S)
          D += (C == '(' || C == '[' || C == '{') -
               (C == ')' || C == ']' || C == '}');
        return D;
      };
      int D = Depth(Expr);
      for (unsigned L = N.Line + 1;
           D > 0 && L <= Lines.size() && L < N.Line + 10000; ++L) {
        StringRef More = Lines.line(G.Text, L);
        Expr += ' ';
        Expr += More.str();
        D += Depth(More);
      }
    }
    const StringMap<uint32_t> &Names = ByScope[N.Scope];
    std::vector<uint32_t> &In = Inputs[I];
    forEachValueName(Expr, [&](StringRef Name) {
      auto It = Names.find(Name);
      if (It == Names.end() || It->second == I)
        return;
      if (std::find(In.begin(), In.end(), It->second) == In.end())
        In.push_back(It->second);
    });
  }
  return Inputs;
}

} // namespace tlp
