//===- Metrics.h - A compile's metrics, grouped -----------------*- C++ -*-===//
//
// Part of tlp. compilation_metrics is a record of a hundred fields; shown
// whole, a reader finds the few they want in groups: the reasons (why it
// failed, restarted, skipped cudagraphs), the times, the caches, the
// counts, the rest. See docs/IR.md, "Metrics".
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_METRICS_H
#define TLP_ANALYSIS_METRICS_H

#include "tlp/IR/CompileRecord.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace tlp {

/// The groups, in the order reports show them.
enum class MetricGroup { Reasons, Times, Cache, Counts, Other };
constexpr unsigned NumMetricGroups = 5;
/// "reasons", "times", "cache", "counts", "other".
llvm::StringRef metricGroupName(MetricGroup G);
/// The group of the metric \p Name, by its name: reasons (`*reason*`,
/// `fail_*`, `*exception*`, `stack_trace`), times (`*_s`, `*_us`, `*_ms`,
/// `*time*`, `*duration*`), cache (`*cache*`), counts (`*count*`,
/// `*_size`, `num_*`), other; the first that fits.
MetricGroup metricGroupOf(llvm::StringRef Name);

/// \p Metrics (name, JSON text) split by group, each in log order.
std::array<std::vector<MetricList::value_type>, NumMetricGroups>
groupMetrics(const MetricList &Metrics);

} // namespace tlp

#endif // TLP_ANALYSIS_METRICS_H
