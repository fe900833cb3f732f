#!/usr/bin/env python3
"""Check what tlp says of a real depyf dump against the dump's files.

Reads the dump itself (independently of tlp's reader) and tlp-emit's JSON
of it, and prints one line a check for FileCheck:
  units: each unit's code is a module with `def call(` and every such
    module is a unit's code;
  kinds: each unit's graph kind is its code's `# AOT ID` suffix;
  pairing: the placeholders of each unit's AFTER_POST_GRAD graph are the
    names its code's call() unpacks from args (the graph and the code are
    the same compile);
  stages: each stage's name is its file's, its file is of the unit's graph
    or the graph its AOT id names, and the last stage is the unit's
    post-grad graph;
  guards: each Dynamo code file's guards are the `__guard_hit = __guard_hit
    and` lines of its cache entry's guard function in full_code_for_*.py.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlp-emit", required=True)
    ap.add_argument("dump")
    a = ap.parse_args()
    r = subprocess.run([a.tlp_emit, "--json", a.dump], check=True,
                       capture_output=True, text=True)
    sys.stderr.write(r.stderr)  # tlp's diagnostics, for the test to check
    out = r.stdout
    units = json.loads(out)["units"]
    files = sorted(glob.glob(os.path.join(a.dump, "**", "*.py"),
                             recursive=True))
    text = {f: open(f, encoding="utf-8").read() for f in files}
    base = {os.path.basename(f): f for f in files}
    calls = {os.path.basename(f) for f, t in text.items()
             if re.search(r"def call\(", t) and ".kernel_" in f}
    codes = {u["artifacts"]["code"]["name"] for u in units
             if u["artifacts"]["code"]}
    print("units: %d, code modules %d, %s" %
          (len(units), len(calls), "same" if calls == codes else
           "DIFFER: %s" % sorted(calls ^ codes)))

    bad = []
    for u in units:
        code = text[base[u["artifacts"]["code"]["name"]]]
        m = re.search(r"# AOT ID: \['\d+_(\w+)'\]", code)
        if not m or m.group(1) != u["graph"]:
            bad.append(u["id"])
    print("kinds: %d bad %s" % (len(bad), bad))

    bad = []
    for u in units:
        code = text[base[u["artifacts"]["code"]["name"]]]
        m = re.search(r"^\s+(.*) = args$", code, re.M)
        unpacked = [n.strip() for n in m.group(1).split(",") if n.strip()]
        post = [n["name"] for n in u["post_grad_nodes"]
                if n["op"] == "placeholder"]
        if sorted(unpacked) != sorted(post):
            bad.append(u["id"])
    print("pairing: %d bad %s" % (len(bad), bad))

    bad = []
    for u in units:
        fn = u["fn"].split("-")[-1]
        # The graph depyf filed the code under (a backward compiled when a
        # later graph was current is filed under that one).
        filed = u["artifacts"]["code"]["name"].split(".")[0]
        for s in u["stages"]:
            name = os.path.basename(s["file"])
            m = re.match(r"(__compiled_fn_\d+)\.(.*)\.\d+\.py$", name)
            owner = filed if s["stage"] == "AFTER_POST_GRAD" else fn
            if not m or m.group(2) != s["stage"] or m.group(1) != owner:
                bad.append((u["id"], name))
        last = os.path.basename(u["stages"][-1]["file"])
        if last != u["artifacts"]["post_grad"]["name"]:
            bad.append((u["id"], "last " + last))
    print("stages: %d units, %d stages, %d bad %s" %
          (len(units), sum(len(u["stages"]) for u in units), len(bad), bad))

    guards = {}
    for f, t in text.items():
        if not os.path.basename(f).startswith("full_code_for_"):
            continue
        cur = None
        for line in t.splitlines():
            m = re.match(r"def __guard_(\d+)_for_(\w+)\(", line)
            if m:
                cur = guards.setdefault((m.group(1), m.group(2)), [])
            elif line and not line[0].isspace():
                cur = None
            elif cur is not None and line.strip().startswith(
                    "__guard_hit = __guard_hit and "):
                cur.append(line)
    bad, n = [], 0
    for u in units:
        for f in u["files"]:
            if f["kind"] != "dynamo_code":
                continue
            m = re.match(r"__transformed_code_(\d+)_for_(\w+)\.py$",
                         os.path.basename(f["file"]))
            want = guards.get((m.group(1), m.group(2)), [])
            n += 1
            if len(want) != len(f["guards"]) or any(
                    g["code"] not in w for g, w in zip(f["guards"], want)):
                bad.append(os.path.basename(f["file"]))
    print("guards: %d Dynamo code files, %d bad %s" % (n, len(bad), bad))
    return 0


if __name__ == "__main__":
    sys.exit(main())
