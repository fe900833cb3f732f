//===- ReaderInternals.h - What the log reader's files share ----*- C++ -*-===//
//
// Part of tlp. Private to lib/Parse: the declarations that the files of the
// log reader share. The reader is cut by concern:
//   LogEvents.cpp       the event names (include/tlp/Parse/LogEvents.def)
//   TraceReader.cpp     the orchestration: scan a log's chunks in parallel,
//                       merge them in log order, load payloads
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_PARSE_READERINTERNALS_H
#define TLP_LIB_PARSE_READERINTERNALS_H

#include "tlp/IR/Artifact.h"
#include "tlp/IR/Module.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tlp {
namespace reader {

//===----------------------------------------------------------------------===//
// Event names (LogEvents.def)
//===----------------------------------------------------------------------===//

/// Where an event's name is written (LogEvents.def, FORM).
enum class EventForm : uint8_t { Envelope, Artifact, GraphDump };
constexpr unsigned NumEventForms = 3;

/// What the reader makes of an event (LogEvents.def, BECOMES); Unknown: an
/// envelope kind with no row.
enum class EventClass : uint8_t {
  Unknown,
  Ignored,
  Strings,
  Named,
  Compile,
  Artifact,
  Health
};

/// Events that feed a compile record (CompileRecord.h), besides
/// dynamo_start (None).
enum class HealthKind : uint8_t {
  None,
  Metrics,          ///< compilation_metrics (metadata, no payload)
  BwdMetrics,       ///< bwd_compilation_metrics: the backward's compile
  RuntimeMetrics,   ///< compilation_metrics_runtime
  BwdRuntimeMetrics, ///< bwd_compilation_metrics_runtime
  Guards,           ///< dynamo_guards: JSON list of {code, ...}
  CppGuards,        ///< dynamo_cpp_guards_str: text
  Chromium,         ///< chromium_event: one trace event as JSON
  RecompileReasons, ///< artifact recompile_reasons: JSON list of strings
  DynamoError,      ///< artifact dynamo_error: a traceback
  GraphBreak,       ///< artifact dynamo_graph_break_reason: text
  Cache             ///< artifact {fx_graph,aotautograd}_cache_*: JSON
};

/// LogEvents.def, FLAGS.
enum LogEventFlags : uint8_t {
  NoFlags = 0,
  FXGraphCache = 1 << 0,
  AOTAutogradCache = 1 << 1,
  CacheHit = 1 << 2,
  CacheMiss = 1 << 3,
  CacheBypass = 1 << 4,
};

/// A row of LogEvents.def: what an event of that name becomes.
struct LogEventInfo {
  EventClass Class = EventClass::Unknown;
  Artifact::ArtifactKind AK = Artifact::AK_PreGradGraph; ///< Artifact
  CompileEvent::EventKind CE = CompileEvent::DynamoStart; ///< Compile
  HealthKind HK = HealthKind::None;                       ///< Health
  EventForm Names = EventForm::Envelope;                  ///< Named
  uint8_t Flags = NoFlags;
};

/// The row of \p Name written as \p Form, or null if it has none.
const LogEventInfo *lookupLogEvent(EventForm Form, llvm::StringRef Name);

} // namespace reader
} // namespace tlp

#endif // TLP_LIB_PARSE_READERINTERNALS_H
