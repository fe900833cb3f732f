#!/usr/bin/env python3
"""Measure inferred provenance links against the mapping.

For each log, runs `tlp-opt --link-provenance` (the truth: edges from the
provenance mapping or the older maps) and `tlp-opt --strip-provenance
--link-provenance` (the mapping hidden: every link is inferred from what
logs without INDUCTOR_PROVENANCE hold), then compares, per unit that has a
mapping, the edges by kind:
  pre->post      pre-grad node -> post-grad node
  post->kernel   post-grad node -> kernel row (by key)
  pre->kernel    pre-grad node -> kernel row, direct or through a post node
Prints precision and recall per log and in total; with --min-recall /
--min-precision, exits 1 if the total falls below (percent).
"""

import argparse
import os
import re
import subprocess
import sys

EDGE = re.compile(r"^  - \{ from: '([a-z]+):(.*)', to: '([a-z]+):(.*)', origin: ([a-z-]+)")
TRUTH = {"mapping", "node-tree", "kernel-nodes"}
KINDS = ("pre->post", "post->kernel", "pre->kernel")


def read_units(ir):
    """unit key line -> list of (from kind, from, to kind, to, origin)."""
    units = {}
    cur = None
    in_edges = False
    for line in ir.splitlines():
        if line.startswith("--- !tlp.unit"):
            cur = None
            in_edges = False
        elif line.startswith("key:"):
            cur = line
            units[cur] = []
        elif line.startswith("edges:"):
            in_edges = True
        elif in_edges and line.startswith("  - "):
            m = EDGE.match(line)
            if m and cur is not None:
                units[cur].append(m.groups())
        elif not line.startswith(" "):
            in_edges = False
    return units


def edge_sets(edges, keep):
    pp, pk, prek = set(), set(), set()
    for fk, f, tk, t, origin in edges:
        if not keep(origin):
            continue
        if fk == "pre" and tk == "post":
            pp.add((f, t))
        elif fk == "post" and tk == "kernel":
            pk.add((f, t))
        elif fk == "pre" and tk == "kernel":
            prek.add((f, t))
    post_k = {}
    for q, k in pk:
        post_k.setdefault(q, set()).add(k)
    for p, q in pp:
        for k in post_k.get(q, ()):
            prek.add((p, k))
    return {"pre->post": pp, "post->kernel": pk, "pre->kernel": prek}


def label(log):
    """The log's file name; for a trace folder of gen-torch-logs.py
    (RUN/trace), the run's name."""
    path = os.path.normpath(log)
    if os.path.basename(path) == "trace":
        return os.path.basename(os.path.dirname(path))
    return os.path.basename(path)


def run(tool, args):
    r = subprocess.run([tool, "--verify-each"] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, universal_newlines=True)
    if r.returncode != 0:
        sys.exit("error: %s %s failed" % (tool, " ".join(args)))
    return r.stdout


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tlp-opt", default="tlp-opt")
    ap.add_argument("--min-recall", type=float)
    ap.add_argument("--min-precision", type=float)
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print each missed and each wrong edge")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    total = {k: [0, 0, 0] for k in KINDS}  # true positives, inferred, truth
    for log in a.logs:
        truth_units = read_units(run(a.tlp_opt, ["--link-provenance", log]))
        inf_units = read_units(run(a.tlp_opt, ["--strip-provenance",
                                               "--link-provenance", log]))
        per = {k: [0, 0, 0] for k in KINDS}
        units = 0
        for key, edges in sorted(truth_units.items()):
            truth = edge_sets(edges, lambda o: o in TRUTH)
            if not any(truth.values()):
                continue
            units += 1
            inf = edge_sets(inf_units.get(key, []), lambda o: True)
            for k in KINDS:
                if a.verbose:
                    for e in sorted(truth[k] - inf[k]):
                        print("  missed %s %s: %s -> %s" % (key, k, e[0], e[1]))
                    for e in sorted(inf[k] - truth[k]):
                        print("  wrong  %s %s: %s -> %s" % (key, k, e[0], e[1]))
                per[k][0] += len(truth[k] & inf[k])
                per[k][1] += len(inf[k])
                per[k][2] += len(truth[k])
        figures = []
        for k in KINDS:
            tp, ni, nt = per[k]
            for i in range(3):
                total[k][i] += per[k][i]
            figures.append("%s %d/%d recall, %d/%d precision" % (k, tp, nt, tp, ni))
        print("%s: %d units: %s" % (label(log), units, "; ".join(figures)))
    tp = sum(v[0] for v in total.values())
    ni = sum(v[1] for v in total.values())
    nt = sum(v[2] for v in total.values())
    for k in KINDS:
        print("total %s: recall %.1f%% (%d/%d), precision %.1f%% (%d/%d)" % (
            k, pct(total[k][0], total[k][2]), total[k][0], total[k][2],
            pct(total[k][0], total[k][1]), total[k][0], total[k][1]))
    recall, precision = pct(tp, nt), pct(tp, ni)
    print("total: recall %.1f%% (%d/%d), precision %.1f%% (%d/%d)" % (
        recall, tp, nt, precision, tp, ni))
    bad = []
    if a.min_recall is not None and recall < a.min_recall:
        bad.append("recall %.1f%% is below %.1f%%" % (recall, a.min_recall))
    if a.min_precision is not None and precision < a.min_precision:
        bad.append("precision %.1f%% is below %.1f%%" % (precision, a.min_precision))
    for b in bad:
        print("error: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
