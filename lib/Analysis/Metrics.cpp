//===- Metrics.cpp - A compile's metrics, grouped -------------------------===//

#include "tlp/Analysis/Metrics.h"

using namespace llvm;

namespace tlp {

StringRef metricGroupName(MetricGroup G) {
  switch (G) {
  case MetricGroup::Reasons:
    return "reasons";
  case MetricGroup::Times:
    return "times";
  case MetricGroup::Cache:
    return "cache";
  case MetricGroup::Counts:
    return "counts";
  case MetricGroup::Other:
    return "other";
  }
  return "other";
}

MetricGroup metricGroupOf(StringRef Name) {
  if (Name.contains("reason") || Name.startswith("fail_") ||
      Name.contains("exception") || Name == "stack_trace")
    return MetricGroup::Reasons;
  if (Name.endswith("_s") || Name.endswith("_us") || Name.endswith("_ms") ||
      Name.contains("time") || Name.contains("duration"))
    return MetricGroup::Times;
  if (Name.contains("cache"))
    return MetricGroup::Cache;
  if (Name.contains("count") || Name.endswith("_size") ||
      Name.startswith("num_"))
    return MetricGroup::Counts;
  return MetricGroup::Other;
}

std::array<std::vector<MetricList::value_type>, NumMetricGroups>
groupMetrics(const MetricList &Metrics) {
  std::array<std::vector<MetricList::value_type>, NumMetricGroups> Out;
  for (MetricList::value_type KV : Metrics)
    Out[static_cast<unsigned>(metricGroupOf(KV.first))].push_back(KV);
  return Out;
}

} // namespace tlp
