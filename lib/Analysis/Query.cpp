//===- Query.cpp - "Where did my op go?" ----------------------------------===//

#include "tlp/Analysis/Query.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace tlp {

ProvenanceQuery ProvenanceQuery::forNode(StringRef Name) {
  ProvenanceQuery Q;
  Q.IsNode = true;
  Q.Text = Name.str();
  return Q;
}

Expected<ProvenanceQuery> ProvenanceQuery::forSource(StringRef S) {
  size_t Colon = S.rfind(':');
  uint64_t Line = 0;
  if (Colon == StringRef::npos || !Colon ||
      !parseUnsigned(S.substr(Colon + 1), Line) || !Line)
    return createStringError(std::errc::invalid_argument,
                             "--source expects FILE:LINE, got '%s'",
                             S.str().c_str());
  ProvenanceQuery Q;
  Q.IsNode = false;
  Q.Text = S.str();
  Q.File = S.substr(0, Colon).str();
  Q.Line = Line;
  return Q;
}

bool ProvenanceQuery::fileMatches(StringRef F) const {
  return F == File || (F.endswith(File) && F.size() > File.size() &&
                       F[F.size() - File.size() - 1] == '/');
}

Optional<QueryAnswer> ProvenanceQuery::answer(const CompileUnit &U,
                                              const UnitProvenance &P) {
  QueryAnswer A;
  if (IsNode) {
    collectNames(U, KnownNames);
    Optional<NameMatch> M = matchName(U, P, Text);
    if (!M)
      return None;
    A.How = M->Kind;
    A.Hits = M->Pre;
    A.Post.insert(M->Post.begin(), M->Post.end());
    A.Kernels.insert(M->Kernels.begin(), M->Kernels.end());
    A.Lines = M->Sources;
    return A;
  }

  std::set<uint32_t> Hits;
  for (uint32_t I = 0; I < U.Sources.size(); ++I) {
    KnownLines[U.Sources[I].File].insert(U.Sources[I].Line);
    if (U.Sources[I].Line == Line && fileMatches(U.Sources[I].File))
      Hits.insert(I);
  }
  if (Hits.empty())
    return None;
  auto FromLine = [&](const Node &N) {
    return N.Source && Hits.count(*N.Source);
  };
  if (U.PreGrad)
    for (uint32_t I = 0; I < U.PreGrad->Nodes.size(); ++I)
      if (FromLine(U.PreGrad->Nodes[I])) {
        A.Pre.insert(I);
        for (uint32_t R : P.kernelsOfPre(I))
          A.Kernels.insert(R);
        for (uint32_t Q : P.postOfPre(I))
          A.Post.insert(Q);
      }
  if (U.PostGrad)
    for (uint32_t I = 0; I < U.PostGrad->Nodes.size(); ++I)
      if (FromLine(U.PostGrad->Nodes[I]))
        A.Post.insert(I);
  for (uint32_t Q : A.Post)
    for (uint32_t R : P.kernelsOfPost(Q))
      A.Kernels.insert(R);
  // The kernels of the line itself: the one answer the Markdown source
  // table, the HTML and the JSON give too.
  for (uint32_t H : Hits)
    for (uint32_t R : P.kernelsOfSource(H))
      A.Kernels.insert(R);
  A.Hits.assign(Hits.begin(), Hits.end());
  return A;
}

Error ProvenanceQuery::notFound() const {
  if (IsNode) {
    std::string Msg = "no node named '" + Text + "'";
    std::vector<std::string> Close = closeNames(Text, KnownNames);
    if (!Close.empty()) {
      Msg += "; did you mean ";
      for (size_t I = 0; I < Close.size(); ++I)
        Msg += (I ? ", '" : "'") + Close[I] + "'";
      Msg += "?";
    }
    return createStringError(std::errc::invalid_argument, Msg.c_str());
  }
  std::string Msg = "no unit has user source line '" + Text + "'";
  std::vector<std::string> Lines;
  for (auto &KV : KnownLines) {
    if (fileMatches(KV.first)) {
      std::string L = "'" + KV.first + "': ";
      size_t N = 0;
      for (uint32_t Line : KV.second)
        L += (N++ ? ", " : "") + std::to_string(Line);
      Lines.push_back(L);
    }
  }
  if (!Lines.empty()) {
    Msg += "; lines with provenance in ";
    for (size_t I = 0; I < Lines.size(); ++I)
      Msg += (I ? "; " : "") + Lines[I];
  } else if (!KnownLines.empty()) {
    Msg += "; the files are: ";
    size_t N = 0;
    for (auto &KV : KnownLines) {
      if (N == 8) {
        Msg += ", ...";
        break;
      }
      Msg += (N++ ? ", '" : "'") + KV.first + "'";
    }
  }
  return createStringError(std::errc::invalid_argument, Msg.c_str());
}

} // namespace tlp
