//===- UnitJSON.h - The one JSON serialisation of a unit --------*- C++ -*-===//
//
// Part of tlp. A unit as JSON, from its UnitView, written through a
// JSONWriter as it is produced (no DOM). unitJSON() is the unit
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
#include "tlp/Support/JSONWriter.h"

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

namespace tlp {

/// The unit object of the JSON output (docs/json.md, "units"), under the
/// id \p Id (empty: the unit's slug).
void unitJSON(JSONWriter &W, const UnitView &V, llvm::StringRef Id = "");

/// The HTML page's data of the unit (docs/html.md, "Unit data"), under the
/// id \p Id (the slug, or a de-duplicated one). With a Pretty writer of
/// IndentWidth 1, the page's layout: the unit object and the objects under
/// it one key per line, arrays of arrays or objects one element per line,
/// everything below that on one line (so a node, a kernel or a source line
/// is one line for grep and FileCheck).
void unitPageJSON(JSONWriter &W, const UnitView &V, llvm::StringRef Id);

/// A source line of the JSON output: {file, line, function, code, span?,
/// underlined?}.
void sourceJSON(JSONWriter &W, const SourceLoc &S);
/// Its members only, for an object that adds its own.
void sourceMembers(JSONWriter &W, const SourceLoc &S);
/// The same as a DOM, for the outputs that still build one.
nlohmann::ordered_json sourceJSON(const SourceLoc &S);

/// Write a DOM (what nlohmann parsed, or built on a cold path) through
/// \p W: the bytes nlohmann's dump would give at that place.
void writeJSON(JSONWriter &W, const nlohmann::ordered_json &J);

} // namespace tlp

#endif // TLP_EMIT_UNITJSON_H
