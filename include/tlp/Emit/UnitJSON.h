//===- UnitJSON.h - The one JSON serialisation of a unit --------*- C++ -*-===//
//
// Part of tlp. A unit as JSON, from its UnitView. unitJSON() is the unit
// object of `tlp-emit --json` (schema tlp-json/3, docs/json.md).
// unitPageJSON() is the data block of the HTML page (docs/html.md), a
// projection of the same unit for a browser that must load graphs of
// 20,000 nodes fast: the same facts with nodes, kernels and sources as
// indices instead of names, nodes and sources as arrays instead of
// objects, the texts of the graphs and code added, and what the page
// derives once (unlinked rows, grouped edges, op names) precomputed. Both
// read the same view, so the two outputs cannot disagree; docs/html.md
// lists each page field with the JSON field it projects, and
// UnitViewTest checks the correspondence.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_EMIT_UNITJSON_H
#define TLP_EMIT_UNITJSON_H

#include "tlp/Analysis/UnitView.h"

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

namespace tlp {

/// The unit object of the JSON output (docs/json.md, "units").
nlohmann::ordered_json unitJSON(const UnitView &V);

/// The HTML page's data of the unit (docs/html.md, "Unit data"), under the
/// id \p Id (the slug, or a de-duplicated one).
nlohmann::ordered_json unitPageJSON(const UnitView &V, llvm::StringRef Id);

/// A source line of the JSON output: {file, line, function, code}.
nlohmann::ordered_json sourceJSON(const SourceLoc &S);

} // namespace tlp

#endif // TLP_EMIT_UNITJSON_H
