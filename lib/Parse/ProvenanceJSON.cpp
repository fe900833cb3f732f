//===- ProvenanceJSON.cpp - The provenance JSON artifacts -----------------===//
//
// inductor_provenance_tracking_node_mappings (FORMAT.md 4.2-4.3):
//   {"preToPost": {pre: [post...]}, "postToPre": {...},
//    "cppCodeToPost": {key: [post...]}, "postToCppCode": {post: [key...]},
//    "version": 2.0}          (no "version": v1, bare kernel names)
// inductor_provenance_tracking_kernel_stack_traces: {key: [trace...]}
// triton_kernel_info: {kernel: {...}}
// inductor_post_to_pre_grad_nodes: {post: [NodeSource...]} (4.6)
// inductor_triton_kernel_to_post_grad_nodes: {kernel: [post...]}
//
//===----------------------------------------------------------------------===//

#include "tlp/Parse/JSONScan.h"
#include "tlp/Parse/PayloadParsers.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace llvm;

namespace tlp {

namespace {

bool parseTop(StringRef Text, json::Value &V, PayloadContext &Ctx) {
  json::ParseError Err;
  if (!json::parse(Text, V, Err)) {
    Ctx.jsonError(Text, Err.Offset, Err.Message);
    return false;
  }
  if (!V.isObject()) {
    Ctx.warning(1, "expected a JSON object in '" + Ctx.artifactName() + "'");
    return false;
  }
  return true;
}

/// Read {name: [string...]} into \p Out; report entries of another shape.
void readNameLists(const json::Value &Obj, StringRef Field, NameListMap &Out,
                   PayloadContext &Ctx) {
  unsigned Bad = 0;
  json::forEachMember(Obj, [&](StringRef Key, const json::Value &V) {
    if (!V.isArray()) {
      ++Bad;
      return true;
    }
    std::vector<std::string> Names;
    json::forEachElement(V, [&](const json::Value &E) {
      if (E.isString())
        Names.push_back(json::decodeString(E));
      else
        ++Bad;
      return true;
    });
    Out.emplace_back(Key.str(), std::move(Names));
    return true;
  });
  if (Bad)
    Ctx.warning(1, Twine(Bad) + " entries of '" + Field +
                       "' are not lists of names and were skipped");
}

} // namespace

bool parseNodeMappings(StringRef Text, MappingArtifact &M,
                       PayloadContext &Ctx) {
  json::Value Top;
  if (!parseTop(Text, Top, Ctx))
    return false;
  json::forEachMember(Top, [&](StringRef Key, const json::Value &V) {
    NameListMap *Target = StringSwitch<NameListMap *>(Key)
                              .Case("preToPost", &M.PreToPost)
                              .Case("postToPre", &M.PostToPre)
                              .Case("cppCodeToPost", &M.KernelToPost)
                              .Case("postToCppCode", &M.PostToKernel)
                              .Default(nullptr);
    if (Target) {
      if (V.isObject())
        readNameLists(V, Key, *Target, Ctx);
      else
        Ctx.warning(1, "'" + Key + "' is not an object");
      return true;
    }
    if (Key == "version") {
      double D;
      if (json::getDouble(V, D))
        M.Version = D;
      else
        Ctx.warning(1, "'version' is not a number");
      return true;
    }
    // Unknown keys are tolerated: newer PyTorch may add some.
    return true;
  });
  return true;
}

bool parseKernelStackTraces(StringRef Text, StackTraceArtifact &S,
                            PayloadContext &Ctx) {
  json::Value Top;
  if (!parseTop(Text, Top, Ctx))
    return false;
  readNameLists(Top, Ctx.artifactName(), S.Traces, Ctx);
  return true;
}

bool parseKernelInfo(StringRef Text, KernelInfoArtifact &K,
                     PayloadContext &Ctx) {
  json::Value Top;
  if (!parseTop(Text, Top, Ctx))
    return false;
  json::forEachMember(Top, [&](StringRef Key, const json::Value &V) {
    K.Entries.push_back(KernelInfoArtifact::Entry{Key.str(), V.Text.str()});
    return true;
  });
  return true;
}

namespace {
void collectOrigins(const json::Value &Arr, std::vector<NodeOrigin> &Out,
                    unsigned Depth) {
  if (Depth > 64)
    return;
  json::forEachElement(Arr, [&](const json::Value &E) {
    if (!E.isObject())
      return true;
    NodeOrigin O;
    json::Value From;
    bool HasName = false;
    json::forEachMember(E, [&](StringRef Key, const json::Value &V) {
      if (Key == "name" && V.isString()) {
        O.Name = json::decodeString(V);
        HasName = true;
      } else if (Key == "graph_id") {
        json::getInt(V, O.GraphId);
      } else if (Key == "from_node" && V.isArray()) {
        From = V;
      }
      return true;
    });
    if (HasName && !O.Name.empty() &&
        std::find(Out.begin(), Out.end(), O) == Out.end())
      Out.push_back(O);
    if (From.isArray())
      collectOrigins(From, Out, Depth + 1);
    return true;
  });
}
} // namespace

bool parseNodeTree(StringRef Text, NodeTreeArtifact &T, PayloadContext &Ctx) {
  json::Value Top;
  if (!parseTop(Text, Top, Ctx))
    return false;
  json::forEachMember(Top, [&](StringRef Key, const json::Value &V) {
    std::vector<NodeOrigin> Origins;
    if (V.isArray())
      collectOrigins(V, Origins, 0);
    T.Entries.emplace_back(Key.str(), std::move(Origins));
    return true;
  });
  return true;
}

bool parseKernelNodes(StringRef Text, KernelNodesArtifact &K,
                      PayloadContext &Ctx) {
  json::Value Top;
  if (!parseTop(Text, Top, Ctx))
    return false;
  readNameLists(Top, Ctx.artifactName(), K.Entries, Ctx);
  return true;
}

} // namespace tlp
