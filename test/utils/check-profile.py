#!/usr/bin/env python3
"""Check tlp-emit --profile's figures against torch.profiler's own.

    test/utils/check-profile.py [--training] TLP.json KEY_AVERAGES.json NAME

TLP.json is `tlp-emit --json --profile work/profile.json trace` of a
profiled run of utils/gen-torch-logs.py (profile-mlp, profile-gpt);
KEY_AVERAGES.json is the run's work/key_averages.json (prof.key_averages():
name, count, self_cpu_time_total and cpu_time_total, microseconds as
floats). Compared in integer nanoseconds (the Chrome trace writes three
decimals), exactly:

  - each C++ kernel event (graph_N_NAME): count and self time against the
    kernels tlp matched to NAME;
  - each aten op that tlp matched to extern kernels: count and self time;
  - each compile's regions ("Torch-Compiled Region: ID"): count and
    inclusive time (cpu_time_total); the graph calls likewise;
  - each unmatched event name: count and self time;
  - nothing dropped: kernel calls, events inside them, regions and graph
    calls and unmatched events add up to the timed events, and no graph
    call lacks a unit.

With --training (profile-train: a forward and a backward compiled, the
FX graph cache on), also:

  - the forward unit's kernels and the backward unit's kernels are both
    timed, each kernel as many times as the steps profiled (the count
    of the compiled region);
  - each C++ kernel event's count and self time, per unit: the forward's
    against key_averages, the backward's likewise (their names differ);
  - every graph call was told by the FX graph cache key it names: as
    many keys as units, each naming one unit, the backward's key in the
    calls outside any region, the forward's in its compile's region.

  and not the unmatched events by name: in a training step the same ops
  (aten::copy_, aten::as_strided) run both inside kernel calls (tlp counts
  them there) and in the optimizer, and key_averages merges an op with a
  same-named only child (aten::div_ inside aten::div_ counts once), so
  a name's unmatched figures are not its key_averages row. Nothing
  dropped and no unmatched event in a graph call are still checked.

Prints one line per problem and `NAME: N figures checked, P problems`;
exits 1 on a problem."""
import json
import sys


def ns(us):
    return round(us * 1000)


def main():
    args = sys.argv[1:]
    training = "--training" in args
    args = [a for a in args if a != "--training"]
    tlp, ka, name = args[:3]
    p = json.load(open(tlp))["profile"]
    rows = {r["name"]: r for r in json.load(open(ka))}
    problems = []
    checked = 0

    def same(what, got, want):
        nonlocal checked
        checked += 1
        if got != want:
            problems.append("%s: tlp %s, key_averages %s" % (what, got, want))

    # Kernels by the name their events have.
    by_event = {}
    for k in p["kernels"]:
        e = by_event.setdefault(k["event"], [0, 0])
        e[0] += k["count"]
        e[1] += k["self_ns"]
    for n, r in sorted(rows.items()):
        if n.startswith("graph_"):
            kernel = n.split("_", 2)[2]
            got = by_event.get(kernel, [0, 0])
            same(n + " count", got[0], r["count"])
            same(n + " self", got[1], ns(r["self_cpu_time_total"]))
    for e, (count, self_ns) in sorted(by_event.items()):
        if e.startswith("aten::"):
            same(e + " count", count, rows.get(e, {}).get("count"))
            same(e + " self", self_ns,
                 ns(rows.get(e, {}).get("self_cpu_time_total", 0)))
    for c in p["compiles"]:
        if c["compile_id"] is None:  # graph calls outside any region
            continue
        r = rows.get("Torch-Compiled Region: %s" % c["compile_id"], {})
        same("region %s count" % c["compile_id"], c["regions"], r.get("count"))
        same("region %s time" % c["compile_id"], c["region_ns"],
             ns(r.get("cpu_time_total", 0)))
    calls = [r for n, r in rows.items() if n.startswith("## Call CompiledFxGraph")]
    same("graph calls", sum(c["graph_calls"] for c in p["compiles"]),
         sum(r["count"] for r in calls))
    same("graph call time", sum(c["graph_call_ns"] for c in p["compiles"]),
         sum(ns(r["cpu_time_total"]) for r in calls))
    unmatched = {}
    for u in p["unmatched"]:
        e = unmatched.setdefault(u["name"], [0, 0])
        e[0] += u["count"]
        e[1] += u["self_ns"]
    for n, (count, self_ns) in sorted(unmatched.items()):
        if n not in rows:  # the profiler's own span ("PyTorch Profiler (0)")
            continue
        if training:  # not comparable by name (the docstring says why)
            continue
        same(n + " count", count, rows[n]["count"])
        same(n + " self", self_ns, ns(rows[n]["self_cpu_time_total"]))
    ev = p["events"]
    same("events add up", ev["kernel_calls"] + ev["in_kernel_calls"] +
         ev["regions_and_graph_calls"] + ev["unmatched"], ev["timed"])
    same("graph calls without a unit", ev["graph_calls_without_unit"], 0)
    same("unmatched in graph calls",
         sum(u["count"] for u in p["unmatched"] if u["where"] == "graph call"),
         0)
    if training:
        check_training(p, rows, same)
    for line in problems:
        print("%s: %s" % (name, line))
    print("%s: %d kernels, %d figures checked, %d problems"
          % (name, len(p["kernels"]), checked, len(problems)))
    return 1 if problems else 0


def check_training(p, rows, same):
    """The forward's and the backward's figures apart, and the graph
    calls told by their keys (each figure through same())."""
    steps = rows["Torch-Compiled Region: 0/0"]["count"]
    units = sorted({k["unit"] for k in p["kernels"]})
    kinds = sorted(u.rsplit("-", 1)[1] for u in units)
    same("units timed", kinds, ["backward", "forward"])
    for u in units:
        ks = [k for k in p["kernels"] if k["unit"] == u]
        same(u + " kernels timed", len(ks) > 0, True)
        for k in ks:
            same("%s %s count" % (u, k["kernel"]), k["count"], steps)
            if k["kind"] == "cpp":
                r = rows.get("graph_0_" + k["event"], {})
                same("%s %s self" % (u, k["kernel"]), k["self_ns"],
                     ns(r.get("self_cpu_time_total", 0)))
    by_key = [(c["compile_id"], b) for c in p["compiles"]
              for b in c["graph_calls_by_key"]]
    same("keys", len(by_key), len(units))
    calls = sum(c["graph_calls"] for c in p["compiles"])
    same("graph calls by key", p["events"]["graph_calls_by_key"], calls)
    for cid, b in by_key:
        same("key %s calls" % b["key"], b["calls"], steps)
        kind = (b["unit"] or "-").rsplit("-", 1)[-1]
        same("key %s unit" % b["key"], kind,
             "forward" if cid is not None else "backward")


if __name__ == "__main__":
    sys.exit(main())
