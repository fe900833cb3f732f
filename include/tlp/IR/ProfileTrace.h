//===- ProfileTrace.h - The timed events of a profiler trace ----*- C++ -*-===//
//
// Part of tlp. What tlp keeps of a torch.profiler Chrome trace
// (export_chrome_trace, docs/profile.md): each complete ("ph": "X") event's
// name, track (its pid and tid), start and duration in nanoseconds, and the
// line it starts on. Read by lib/Parse (readChromeTrace), joined onto the
// units by lib/Analysis (attributeProfile).
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_PROFILETRACE_H
#define TLP_IR_PROFILETRACE_H

#include <cstdint>
#include <string>
#include <vector>

namespace tlp {

/// One complete event. Times are integer nanoseconds (the trace writes
/// microseconds with three decimals), so sums are exact.
struct ProfileEvent {
  uint32_t Name = 0;  ///< index into ProfileTrace::Names
  uint32_t Track = 0; ///< index into ProfileTrace::Tracks
  uint32_t Line = 0;  ///< 1-based line of the event in the trace
  int64_t Start = 0;
  int64_t Duration = 0;
};

struct ProfileTrace {
  /// The path as the user gave it.
  std::string Path;
  /// Event names, each once, in order of first appearance.
  std::vector<std::string> Names;
  /// Tracks ("pid/tid"), each once, in order of first appearance.
  std::vector<std::string> Tracks;
  /// The complete events, in trace order.
  std::vector<ProfileEvent> Events;
  /// Events of other phases (metadata "M", instant "i", flows, counters):
  /// counted, not timed.
  uint64_t Untimed = 0;
  /// Events left out with a warning (not an object, no name, no ts/dur).
  uint64_t Damaged = 0;
};

} // namespace tlp

#endif // TLP_IR_PROFILETRACE_H
