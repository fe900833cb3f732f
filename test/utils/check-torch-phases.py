#!/usr/bin/env python3
"""Where the time went, checked against the raw logs.

    check-torch-phases.py --tools BIN --logs DIR RUN...

For each log of each run (DIR/RUN/trace/*.log), tlp-emit --json of the
log, and the log read here on its own (tlplog.log): for every compile
with compilation_metrics (and its bwd_compilation_metrics), tlp's phases
must give back PyTorch's figures, each phase being its figure less the
ones nested in it and less the leaf spans (compile_file, async_compile.*,
autotuning, cache loads) that lie inside it:
  forward total      = entire_frame_compile_time_s
  backward total     = backward_cumulative_compile_time_us
  code_gen + leaves in code_gen spans = inductor_code_gen_cumulative_..._us
  inductor + code_gen + leaves in inductor_compile spans
                     = inductor_cumulative_compile_time_us
  aot + inductor figure + leaves in backend_compile, not in inductor_compile
                     = aot_autograd_cumulative_compile_time_us
  compile            = wall time of the compile_file/async_compile spans
  and a part's phases add up to its total.
Prints one line per compile and `N compiles checked, P problems`.
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog.log import compile_id, envelopes, lines, payloads  # noqa: E402

TOL = 5e-6  # the figures are whole microseconds; spans are floats


def is_leaf(name):
    return (name == "compile_file" or name.startswith("async_compile.") or
            name == "aoti_compile_fatbin" or
            name.endswith("_template_autotuning") or
            name.endswith("_template_precompiling") or
            name.startswith("CachingAutotuner.") or
            name in ("AOTAutogradCache.inductor_load",
                     "inductor_codecache_torch_key",
                     "CacheBase.get_system.triton_key") or
            name.startswith("TritonBundler."))


def is_compile(name):
    return (name == "compile_file" or name.startswith("async_compile.") or
            name == "aoti_compile_fatbin")


def us(x):
    """\p x microseconds rounded to a whole one as tlp does (llround)."""
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def union(iv):
    out = []
    for b, e in sorted(iv):
        if out and b <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([b, e])
    return out


def inside(iv, region):
    """Length of the intervals iv inside the intervals region."""
    n = 0
    for b, e in union(iv):
        for rb, re_ in region:
            n += max(0, min(e, re_) - max(b, rb))
    return n


def read_log(path):
    """(compile id, ordinal) -> {'metrics', 'bwd', 'spans': [(name,
    begin, end)]}."""
    text = lines(path)
    pl = payloads(text)
    comps, open_, seen = {}, {}, {}
    for i, env in envelopes(text):
        cid = compile_id(env)
        if cid is None:
            continue
        # A compile of an id begins at its "dynamo" span, which comes just
        # before its dynamo_start (after torch._dynamo.reset() the ids
        # start again): key (id, ordinal), a new ordinal when the id's
        # compile so far has had its dynamo_start or its metrics.
        st = seen.setdefault(cid, {"n": 1, "start": False, "metrics": False})
        begins = "dynamo_start" in env and st["start"]
        if "chromium_event" in env and (st["start"] or st["metrics"]):
            ev = json.loads(pl[i])
            begins = ev["name"] == "dynamo" and ev["ph"] == "B"
        if begins:
            st.update(n=st["n"] + 1, start=False, metrics=False)
        if "dynamo_start" in env:
            st["start"] = True
        if "compilation_metrics" in env:
            st["metrics"] = True
        key0 = (cid, st["n"])
        c = comps.setdefault(key0, {"metrics": None, "bwd": None,
                                    "spans": []})
        if "compilation_metrics" in env:
            c["metrics"] = env["compilation_metrics"]
        if "bwd_compilation_metrics" in env:
            c["bwd"] = env["bwd_compilation_metrics"]
        if "chromium_event" in env:
            ev = json.loads(pl[i])
            key = (key0, ev["name"], ev.get("tid"))
            # tlp rounds span times to whole microseconds, to the nearest
            # (halves away from zero, as C's llround): PyTorch writes them
            # as floats ("ts": 1796490367643120.5). Truncating here instead
            # was up to 1 us off per span edge, 6 us over a compile's
            # compile_file spans in a fresh log (more than TOL).
            ts = us(ev["ts"])
            if ev["ph"] == "B":
                open_.setdefault(key, []).append(ts)
            elif ev["ph"] == "E" and open_.get(key):
                b = open_[key].pop()
                c["spans"].append((ev["name"], b, ts))
            elif ev["ph"] == "X":
                c["spans"].append((ev["name"], ts, ts + us(ev.get("dur", 0))))
    return comps


def spans_named(c, name, within=None):
    iv = union([(b, e) for n, b, e in c["spans"] if n == name])
    if within is None:
        return iv
    return union([(max(b, rb), min(e, re_)) for b, e in iv
                  for rb, re_ in within if min(e, re_) > max(b, rb)])


def minus(a, b):
    """a less b (both unions)."""
    out = []
    for s, e in a:
        cur = s
        for bs, be in b:
            if be <= cur or bs >= e:
                continue
            if bs > cur:
                out.append((cur, bs))
            cur = max(cur, be)
        if cur < e:
            out.append((cur, e))
    return out


def check_part(c, part, figures, root_name, has_backend, say):
    probs = 0
    leaves = [(b, e) for n, b, e in c["spans"] if is_leaf(n)]
    root = spans_named(c, root_name)
    ind = spans_named(c, "inductor_compile", root)
    cg = spans_named(c, "code_gen", root)
    total, aot, inductor, code_gen = figures

    def eq(what, got, want):
        nonlocal probs
        if abs(got - want) > TOL:
            say("  %s: %.6f, want %.6f" % (what, got, want))
            probs += 1

    p = {k: (v["s"] or 0.0) for k, v in part.items() if isinstance(v, dict)}
    eq("total", part["total_s"], total)
    eq("phases add up", sum(p.values()), total)
    lin = lambda region: inside(leaves, region) / 1e6  # noqa: E731
    if code_gen is not None:
        eq("code_gen", p["code_gen"] + lin(cg), code_gen)
    if inductor is not None:
        eq("inductor", p["inductor"] + p["code_gen"] + lin(ind), inductor)
    if has_backend and aot is not None and inductor is not None:
        be = spans_named(c, "backend_compile", root)
        eq("aot_autograd", p["aot_autograd"] + inductor + lin(minus(be, ind)),
           aot)
    comp = [(b, e) for n, b, e in c["spans"] if is_compile(n)]
    eq("compile", p["compile"], inside(comp, root) / 1e6)
    return probs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--logs", required=True)
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    checked = problems = 0
    for run in a.runs:
        for n, log in enumerate(sorted(glob.glob(os.path.join(
                a.logs, run, "trace", "*.log")))):
            out = subprocess.run(
                [os.path.join(a.tools, "tlp-emit"), "--verify-each", "--json", log, "-o", "-"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
            doc = json.loads(out.stdout)
            raw = read_log(log)
            for c in doc["compiles"]:
                r = raw.get((c["compile_id"], c["ordinal"] or 1))
                if not r or not r["metrics"] or c["rank"] is not None:
                    continue
                checked += 1
                msgs = []
                m, ph = r["metrics"], c["phases"]
                fwd = (m["entire_frame_compile_time_s"],
                       m.get("aot_autograd_cumulative_compile_time_us"),
                       m.get("inductor_cumulative_compile_time_us"),
                       m.get("inductor_code_gen_cumulative_compile_time_us"))
                fwd = tuple(x / 1e6 if x is not None and i else x
                            for i, x in enumerate(fwd))
                probs = check_part(r, ph["forward"], fwd,
                                   "entire_frame_compile", True, msgs.append)
                parts = "forward"
                if r["bwd"]:
                    b = r["bwd"]
                    bwd = tuple(x / 1e6 if x is not None else None for x in (
                        b.get("backward_cumulative_compile_time_us"), None,
                        b.get("inductor_cumulative_compile_time_us"),
                        b.get("inductor_code_gen_cumulative_compile_time_us")))
                    probs += check_part(r, ph["backward"], bwd,
                                        "entire_backward_compile", False,
                                        msgs.append)
                    parts = "forward+backward"
                elif ph["backward"] is not None:
                    msgs.append("  a backward part without bwd metrics")
                    probs += 1
                problems += probs
                print("%s: log %d: %s: %s, %s" % (
                    run, n, c["name"], parts,
                    "ok" if not probs else "%d problems" % probs))
                for x in msgs:
                    print(x)
    print("%d compiles checked, %d problems" % (checked, problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
