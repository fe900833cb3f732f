//===- UnitViewTest.cpp - The emitters' per-unit view ---------------------===//
//
// UnitView on the hand-written IR fixture test/Inputs/ir/one-kernel.tlp
// (pre-grad `a` from /m.py:7 became post-grad `mul` in kernel row 0; `b`
// from /m.py:8 went nowhere), and the HTML page's data as a projection of
// the JSON output's unit (UnitJSON.h) on every unit of three logs.
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/UnitView.h"
#include "tlp/Driver/Driver.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/Emit/UnitJSON.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Passes/Pass.h"

#include "FixtureLog.h"
#include "LinkedIRFixture.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <tuple>

using namespace tlp;
using ojson = nlohmann::ordered_json;

namespace {
using Fixture = LinkedIRFixture;

namespace {
/// What a JSONWriter wrote, read back.
template <typename Fn> ojson written(Fn &&Write) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  {
    JSONWriter W(OS);
    Write(W);
  }
  return ojson::parse(OS.str());
}
} // namespace
} // namespace

TEST(UnitView, Facts) {
  Fixture F;
  ASSERT_TRUE(F.M && F.M->Units.size() == 1);
  const CompileUnit &U = *F.M->Units[0];
  UnitView V(*F.M, U);
  EXPECT_EQ(V.slug(), U.Key.slug());
  EXPECT_EQ(V.displayName(), U.Key.displayName());
  EXPECT_EQ(V.logName(), "one-kernel.log");
  EXPECT_EQ(V.compileId(), "0/0");
  EXPECT_EQ(V.graphName(), "inference");
  EXPECT_EQ(V.compile(), nullptr);
  EXPECT_FALSE(V.compileIndex());

  // Kernel row 0: its key, its definition in the wrapper, no info entry.
  ASSERT_EQ(V.kernels().size(), 1u);
  EXPECT_EQ(V.kernel(0).Key, "triton_poi_fused_mul_0:3");
  ASSERT_NE(V.kernel(0).Def, nullptr);
  EXPECT_EQ(V.kernel(0).Def->Begin, 1u);
  EXPECT_EQ(V.kernel(0).KernelCodeDef, nullptr);
  EXPECT_EQ(V.kernel(0).Info, nullptr);

  // Coverage of the computing nodes: a of a, b; mul; the kernel.
  EXPECT_EQ(V.coverage().Pre.Linked, 1u);
  EXPECT_EQ(V.coverage().Pre.Total, 2u);
  EXPECT_EQ(V.coverage().Post.Linked, 1u);
  EXPECT_EQ(V.coverage().Post.Total, 1u);
  EXPECT_EQ(V.coverage().Kernels.Linked, 1u);
  EXPECT_EQ(V.unlinkedPre(), std::vector<uint32_t>{2}); // b
  EXPECT_TRUE(V.unlinkedPost().empty());
  EXPECT_TRUE(V.kernelsWithoutNodes().empty());

  // The pre-grad nodes of each user line.
  ASSERT_EQ(U.Sources.size(), 2u);
  for (uint32_t S = 0; S < 2; ++S) {
    uint32_t Node = U.Sources[S].Line == 7 ? 1 : 2;
    EXPECT_EQ(V.preOfSource(S), std::vector<uint32_t>{Node}) << S;
  }
  EXPECT_TRUE(V.kernelsWithoutSource().empty());

  // The edge groups hold every edge once, the first edge's group first.
  size_t Grouped = 0;
  for (const UnitView::EdgeGroup &G : V.edgeGroups()) {
    for (uint32_t I : G.Edges) {
      EXPECT_EQ(U.Edges[I].Origin, G.Origin);
      EXPECT_EQ(U.Edges[I].Confidence, G.Confidence);
    }
    Grouped += G.Edges.size();
  }
  EXPECT_EQ(Grouped, U.Edges.size());
  ASSERT_FALSE(U.Edges.empty());
  EXPECT_EQ(V.edgeGroups().front().Edges.front(), 0u);
  unsigned Inferred = 0;
  for (const Edge &E : U.Edges)
    Inferred += E.Confidence < 100;
  EXPECT_EQ(V.inferred().Count, Inferred);

  Endpoint K;
  K.Kind = Endpoint::KernelRow;
  K.Index = 0;
  EXPECT_EQ(V.endpointText(K), "kernel:triton_poi_fused_mul_0:3");

  // The query engine answers on the view.
  ProvenanceQuery Q = ProvenanceQuery::forNode("a");
  llvm::Optional<QueryAnswer> A = V.answer(Q);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Hits, std::vector<uint32_t>{1});
}

namespace {
/// Checks, unit by unit, that the HTML page's data is the JSON output's
/// unit projected: the same facts, names as indices.
/// What the checker saw; kept by the test, since the driver destroys the
/// emitter when its run ends.
struct ProjectionCounts {
  unsigned Units = 0, Nodes = 0, Kernels = 0, Edges = 0;
};

class ProjectionChecker : public Emitter {
public:
  ProjectionChecker(const EmitOptions &Opts, DiagnosticEngine &Diags,
                    ProjectionCounts &Counts)
      : Emitter(Opts, Diags), Counts(Counts) {}
  ProjectionCounts &Counts;
  unsigned &Units = Counts.Units, &Nodes = Counts.Nodes,
           &Kernels = Counts.Kernels, &Edges = Counts.Edges;

  void check(const Module &M, const CompileUnit &U) {
    ++Units;
    UnitView V(M, U);
    ojson J = written([&](JSONWriter &W) { unitJSON(W, V); }),
          Pg = written([&](JSONWriter &W) { unitPageJSON(W, V, V.slug()); });
    for (const char *Key : {"id", "name", "log", "rank", "compile_id", "graph"})
      EXPECT_EQ(J[Key], Pg[Key]) << Key;
    // The page links its compile's dashboard row: the JSON's compile,
    // as an anchor; no row (no link) for the record without a compile id.
    if (J["compile"].is_null() || J["compile_id"].is_null())
      EXPECT_TRUE(Pg["compile"].is_null());
    else
      EXPECT_EQ(Pg["compile"], "compile-" + J["compile"].get<std::string>());
    for (const char *C : {"pre_grad", "post_grad", "kernels"}) {
      EXPECT_EQ(J["coverage"][C]["linked"], Pg["coverage"][C][0]);
      EXPECT_EQ(J["coverage"][C]["total"], Pg["coverage"][C][1]);
    }
    auto SameSource = [](const ojson &Obj, const ojson &Arr) {
      return Obj["file"] == Arr[0] && Obj["line"] == Arr[1] &&
             Obj["function"] == Arr[2] && Obj["code"] == Arr[3];
    };
    const ojson &Srcs = J["sources"], &PSrcs = Pg["sources"];
    EXPECT_EQ(Srcs.size(), PSrcs.size());
    auto Keys = [&](const ojson &Rows) {
      ojson A = ojson::array();
      for (const ojson &R : Rows)
        A.push_back(J["kernels"][R.get<size_t>()]["key"]);
      return A;
    };
    for (size_t I = 0; I < Srcs.size() && I < PSrcs.size(); ++I) {
      EXPECT_TRUE(SameSource(Srcs[I], PSrcs[I])) << I;
      EXPECT_EQ(Srcs[I]["kernels"], Keys(PSrcs[I][4])) << I;
    }
    // Nodes: [name, line, op, source row, counterparts, kernels, ...].
    for (bool Pre : {true, false}) {
      const ojson &Nodes = J[Pre ? "pre_grad_nodes" : "post_grad_nodes"];
      const ojson &Other = J[Pre ? "post_grad_nodes" : "pre_grad_nodes"];
      const ojson &G = Pg[Pre ? "pre" : "post"];
      if (G.is_null()) {
        EXPECT_TRUE(Nodes.empty());
        continue;
      }
      const ojson &PNodes = G["nodes"];
      ASSERT_EQ(Nodes.size(), PNodes.size());
      for (size_t I = 0; I < Nodes.size(); ++I, ++this->Nodes) {
        const ojson &N = Nodes[I], &P = PNodes[I];
        EXPECT_EQ(N["name"], P[0]);
        EXPECT_EQ(N["line"], P[1]);
        EXPECT_EQ(N["op"], P[2]);
        if (P[3].get<int64_t>() < 0)
          EXPECT_TRUE(N["source"].is_null());
        else
          EXPECT_TRUE(SameSource(N["source"], PSrcs[P[3].get<size_t>()]));
        ojson Linked = ojson::array();
        for (const ojson &O : P[4])
          Linked.push_back(Other[O.get<size_t>()]["name"]);
        EXPECT_EQ(N[Pre ? "post_nodes" : "pre_nodes"], Linked);
        EXPECT_EQ(N["kernels"], Keys(P[5]));
        EXPECT_EQ(N.contains("scope"), P.size() > 7);
      }
    }
    // Kernels.
    const ojson &Ks = J["kernels"], &PKs = Pg["kernels"];
    ASSERT_EQ(Ks.size(), PKs.size());
    for (size_t R = 0; R < Ks.size(); ++R, ++Kernels) {
      const ojson &K = Ks[R], &P = PKs[R];
      for (const char *Key : {"name", "key", "kind", "handle", "in_mapping"})
        EXPECT_EQ(K[Key], P[Key]) << Key;
      EXPECT_EQ(K["call_lines"], P["calls"]);
      EXPECT_EQ(K["def_lines"].is_null(), !P.contains("def"));
      if (P.contains("def")) {
        EXPECT_EQ(K["def_lines"][0], P["def_begin"]);
        EXPECT_EQ(K["def_lines"][1], P["def"][1]);
      }
      ojson Post = ojson::array(), PreN = ojson::array();
      for (const ojson &Q : P["post"])
        Post.push_back(J["post_grad_nodes"][Q.get<size_t>()]["name"]);
      for (const ojson &Q : P["pre"])
        PreN.push_back(J["pre_grad_nodes"][Q.get<size_t>()]["name"]);
      EXPECT_EQ(K["post_nodes"], Post);
      EXPECT_EQ(K["pre_nodes"], PreN);
      ASSERT_EQ(K["source"].size(), P["sources"].size());
      for (size_t I = 0; I < P["sources"].size(); ++I) {
        const ojson &S = P["sources"][I];
        EXPECT_TRUE(SameSource(K["source"][I], PSrcs[S[0].get<size_t>()]));
        EXPECT_EQ(K["source"][I]["origin"], S[1]);
      }
      EXPECT_EQ(K["info"].is_null(), P["info"].is_null());
    }
    // Edges: the page's groups hold the JSON's edges.
    using Row = std::tuple<std::string, std::string, std::string, unsigned>;
    std::vector<Row> FromJSON, FromPage;
    for (const ojson &E : J["edges"])
      FromJSON.emplace_back(E["from"], E["to"], E["origin"], E["confidence"]);
    for (const ojson &G : Pg["edges"]) {
      const ojson &Flat = G[2];
      EXPECT_EQ(Flat.size() % 4, 0u);
      for (size_t I = 0; I + 3 < Flat.size(); I += 4) {
        Endpoint From, To;
        From.Kind = Endpoint::EndpointKind(Flat[I].get<unsigned>());
        From.Index = Flat[I + 1];
        To.Kind = Endpoint::EndpointKind(Flat[I + 2].get<unsigned>());
        To.Index = Flat[I + 3];
        FromPage.emplace_back(V.endpointText(From), V.endpointText(To), G[0],
                              G[1]);
      }
    }
    Edges += FromJSON.size();
    std::sort(FromJSON.begin(), FromJSON.end());
    std::sort(FromPage.begin(), FromPage.end());
    EXPECT_EQ(FromJSON, FromPage);
  }
  llvm::Error unit(const Module &M, const CompileUnit &U) override {
    check(M, U);
    return llvm::Error::success();
  }
  llvm::Error end(const Module &M) override { return llvm::Error::success(); }
};
} // namespace

TEST(UnitJSON, PageDataIsAProjectionOfTheJSONUnit) {
  for (const char *Log : {"jit_cuda_train", "aot_cuda_v2", "broken"}) {
    DriverOptions Opts;
    Opts.Input = unittest::fixtureLog(Log);
    Opts.Passes = defaultPipeline();
    EmitOptions EO;
    ProjectionCounts Counts;
    ProjectionCounts *C = &Counts;
    bool Made = false;
    Driver D("tlp-unittests");
    D.run(Opts, [&](DiagnosticEngine &Diags) {
      Made = true;
      return std::make_unique<ProjectionChecker>(EO, Diags, Counts);
    });
    ASSERT_TRUE(Made) << Log;
    EXPECT_GT(C->Units, 0u) << Log;
    if (llvm::StringRef(Log) != "broken") {
      EXPECT_GT(C->Nodes, 0u) << Log;
      EXPECT_GT(C->Kernels, 0u) << Log;
      EXPECT_GT(C->Edges, 0u) << Log;
    }
  }
}

TEST(EmitOptions, Enumerations) {
  EXPECT_EQ(emitOptionName(DOTGraph::Pre), "pre");
  EXPECT_EQ(emitOptionName(RenderFormat::HTML), "html");
  llvm::Expected<DOTGraph> G = parseEmitOption<DOTGraph>("post");
  ASSERT_TRUE(static_cast<bool>(G));
  EXPECT_EQ(*G, DOTGraph::Post);
  EXPECT_EQ(llvm::toString(parseEmitOption<DOTGraph>("all").takeError()),
            "unknown --graph value 'all' (expected pre, post or provenance)");
  EXPECT_EQ(
      llvm::toString(parseEmitOption<RenderFormat>("pdf").takeError()),
      "unknown --render value 'pdf' (expected markdown or html)");
}

TEST(EmitOptions, UnitSelector) {
  Fixture F;
  ASSERT_TRUE(F.M && F.M->Units.size() == 1);
  const CompileUnit &U = *F.M->Units[0];
  EXPECT_TRUE(UnitSelector().matches(U, 5));
  EXPECT_TRUE(UnitSelector(U.Key.slug()).matches(U, 5));
  EXPECT_TRUE(UnitSelector(U.Key.displayName()).matches(U, 5));
  EXPECT_TRUE(UnitSelector("5").matches(U, 5));
  EXPECT_FALSE(UnitSelector("4").matches(U, 5));
  EXPECT_FALSE(UnitSelector("nope").matches(U, 5));
}
