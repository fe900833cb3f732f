//===- LogYAML.h - A TORCH_TRACE log described in YAML ----------*- C++ -*-===//
//
// The YAML description of a structured log that tlp-yaml2log turns into
// the bytes PyTorch writes (the idea of LLVM's ObjectYAML and yaml2obj):
// test fixtures are written as readable YAML in the tests and made into
// logs when the test runs. The format is docs/CommandGuide/tlp-yaml2log.md;
// the line grammar it writes is FORMAT.md section 1.
//
// A document:
//
//   pid: 4242                       # the process id of every line
//   start: 0819 12:00:00.007000     # the time of the first event
//   step_ms: 7                      # each next event is this much later
//   source: torch/_inductor/compile_fx.py:1000  # default path:line
//   events:
//     - event: artifact
//       metadata: {name: before_pre_grad_graph, encoding: string}
//       frame_id: 0
//       frame_compile_id: 0
//       attempt: 0
//       payload: |
//         class GraphModule(torch.nn.Module):
//     - raw: "a line written as is"
//
// Only lib/LogYAML and tools/tlp-yaml2log use this; the reader (lib/Parse)
// does not.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LOGYAML_LOGYAML_H
#define TLP_LOGYAML_LOGYAML_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/YAMLTraits.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tlp {
namespace logyaml {

/// A JSON value given as YAML (a mapping, a sequence or a scalar), kept as
/// the text Python's json.dumps writes for it (", " and ": " separators,
/// ensure_ascii), with the keys of a mapping in the order of the YAML. A
/// plain scalar that reads as a JSON number, true, false or null is that;
/// any other scalar is a string.
struct JSONText {
  std::string Text;
};

/// One line of the log and its payload lines: an event, or a raw line.
struct Event {
  // An event.
  std::string Name;             ///< `event`: the first key of the envelope.
  llvm::Optional<JSONText> Metadata; ///< Its value; {} when absent.
  llvm::Optional<int64_t> Rank;
  llvm::Optional<JSONText> Stack;
  llvm::Optional<JSONText> CompiledAutogradId; ///< A number or null.
  llvm::Optional<int64_t> FrameId;
  llvm::Optional<int64_t> FrameCompileId;
  llvm::Optional<int64_t> Attempt;
  llvm::Optional<std::string> Payload;
  /// has_payload: the payload's md5 unless given. Given without a
  /// payload, the envelope announces one that does not follow.
  llvm::Optional<std::string> MD5;
  // The glog-style prefix.
  llvm::Optional<std::string> Source; ///< path:line of the logging call.
  llvm::Optional<std::string> Time;   ///< MMDD HH:MM:SS.ffffff; sets the clock.
  llvm::Optional<std::string> Level;  ///< One of VIWEC; V by default.
  llvm::Optional<int64_t> Pid;
  // A raw line (or lines), written as is; exclusive with the above.
  llvm::Optional<std::string> Raw;
};

/// One log file.
struct Log {
  int64_t Pid = 0;
  std::string Start;   ///< MMDD HH:MM:SS.ffffff, the first event's time.
  int64_t StepMs = 1;  ///< Time between events.
  std::string Source;  ///< The default path:line.
  std::string LineEnding; ///< "lf" or "crlf".
  bool FinalNewline = true;
  std::vector<Event> Events;
};

/// Write \p L as the bytes of a log to \p OS. Text of a payload or raw line
/// is UTF-8, except that the encoding of a lone surrogate U+DC80..U+DCFF
/// (a "\uDCxx" escape in a double-quoted scalar) stands for the byte 0xXX,
/// as Python's surrogateescape, so that a fixture can hold invalid UTF-8.
llvm::Error writeLog(const Log &L, llvm::raw_ostream &OS);

/// Read document \p DocNum (1-based) of \p YIn and write its log to \p OS.
/// Errors in the YAML are reported through \p YIn's diagnostic handler
/// (file:line:col: error: message); the returned error then only says that
/// the YAML was bad.
llvm::Error convertYAML(llvm::yaml::Input &YIn, llvm::raw_ostream &OS,
                        unsigned DocNum = 1);

/// A time of the prefix, "MMDD HH:MM:SS.ffffff": the date and the
/// microseconds since midnight.
struct LogTime {
  std::string Date;
  int64_t Micros = 0;
};
llvm::Expected<LogTime> parseTime(llvm::StringRef S);

/// "path:line" of the prefix: a path without ':' and a line number.
llvm::Error checkSource(llvm::StringRef S);

/// The text of the JSON string literal for \p S as json.dumps writes it
/// (ensure_ascii). An error if \p S is not valid UTF-8.
llvm::Expected<std::string> quoteJSON(llvm::StringRef S);

} // namespace logyaml
} // namespace tlp

LLVM_YAML_IS_SEQUENCE_VECTOR(tlp::logyaml::Event)

namespace llvm {
namespace yaml {
template <> struct MappingTraits<tlp::logyaml::Event> {
  static void mapping(IO &IO, tlp::logyaml::Event &E);
  static std::string validate(IO &IO, tlp::logyaml::Event &E);
};
template <> struct MappingTraits<tlp::logyaml::Log> {
  static void mapping(IO &IO, tlp::logyaml::Log &L);
  static std::string validate(IO &IO, tlp::logyaml::Log &L);
};
} // namespace yaml
} // namespace llvm

namespace tlp {
namespace logyaml {
/// Reads any YAML node into a JSONText (found by argument-dependent lookup
/// from YAML I/O, which has no trait for a value of any shape). Input only.
void yamlize(llvm::yaml::IO &IO, JSONText &V, bool Required,
             llvm::yaml::EmptyContext &Ctx);
} // namespace logyaml
} // namespace tlp

#endif // TLP_LOGYAML_LOGYAML_H
