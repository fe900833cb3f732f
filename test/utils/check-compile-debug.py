#!/usr/bin/env python3
"""Check what tlp says of the TORCH_COMPILE_DEBUG folders of a real run
against the files themselves (test/Integration/Torch/compile-debug.test).

For every graph folder (torch_compile_debug/run_*/torchinductor/model__*):
its scheduler nodes after fusion, read here with regular expressions of
this script's own (the node headers not under a `snodes[i] =` line, their
`writes`, the `snodes` of fused nodes, `node.kernel`), must be tlp's
scheduler_nodes (names, classes, written buffers, fused nodes); each node's
kernel must be called in output_code.py on a line that passes one of the
buffers it writes (an extern node: a call of its `node.kernel`); the
post-grad graph's node count must be tlp's. Then the run's directory (logs
and folders together): every folder joins the unit of its own process's
log, and each such unit carries the folder's scheduler nodes. Prints one
line a folder and a summary; exit 1 on a problem.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

HEADER = re.compile(r"^(\w+): (\w+Node)\((.*)\)$")
PROP = re.compile(r"^(\w+)\.(writes|node\.kernel) = (.*)$")
SNODE = re.compile(r"^(\w+)\.snodes\[\d+\] =$")
QUOTED = re.compile(r"(?:name=)?'([^']+)'")


def scheduler_nodes(text):
    """Top-level nodes: name -> {class, writes, fused, kernel}."""
    nodes, order, parent_next, parents = {}, [], None, {}
    for line in text.split("\n"):
        m = SNODE.match(line)
        if m:
            parent_next = m.group(1)
            continue
        m = HEADER.match(line)
        if m:
            name = m.group(1)
            if parent_next:
                parents[name] = parent_next
                nodes[parent_next]["fused"].append(name)
                parent_next = None
            else:
                order.append(name)
            nodes[name] = {"class": m.group(2), "writes": [], "fused": [],
                           "kernel": None}
            continue
        m = PROP.match(line)
        if m and m.group(1) in nodes:
            n = nodes[m.group(1)]
            if m.group(2) == "writes":
                for b in QUOTED.findall(m.group(3)):
                    if b not in n["writes"]:
                        n["writes"].append(b)
            else:
                n["kernel"] = m.group(3).strip()
    out = []
    for name in order:
        n = dict(nodes[name], name=name)
        if not n["writes"]:
            for s in n["fused"]:
                n["writes"] += [b for b in nodes[s]["writes"]
                                if b not in n["writes"]]
        out.append(n)
    return out


def call_lines(code, kernel):
    """The lines of output_code.py that call `kernel(`."""
    pat = re.compile(r"(^|[^\w.])" + re.escape(kernel) + r"\(")
    return [l for l in code.split("\n")
            if pat.search(l) and not l.lstrip().startswith("#")
            and "async_compile" not in l]


def passes(line, buf):
    return re.search(r"(^|[^\w])" + re.escape(buf) + r"([^\w]|$)", line)


def check_folder(tools, folder, problems):
    ir = open(os.path.join(folder, "ir_post_fusion.txt")).read()
    code = open(os.path.join(folder, "output_code.py")).read()
    want = scheduler_nodes(ir)
    out = subprocess.run([os.path.join(tools, "tlp-emit"), "--json",
                          "--strict", folder], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if out.returncode:
        problems.append("%s: tlp-emit failed: %s" % (folder, out.stderr))
        return
    units = json.loads(out.stdout)["units"]
    if len(units) != 1:
        problems.append("%s: %d units" % (folder, len(units)))
        return
    u = units[0]
    got = u["scheduler_nodes"] or []
    name = os.path.basename(folder)
    if [n["name"] for n in got] != [n["name"] for n in want]:
        problems.append("%s: nodes %s, the file has %s" % (
            name, [n["name"] for n in got], [n["name"] for n in want]))
        return
    fused = kernels = 0
    for g, w in zip(got, want):
        if g["class"] != w["class"] or g["writes"] != w["writes"] or \
                g["fused"] != w["fused"]:
            problems.append("%s: node %s: tlp %s, the file %s" % (
                name, w["name"], (g["class"], g["writes"], g["fused"]),
                (w["class"], w["writes"], w["fused"])))
        fused += bool(w["fused"])
        if not g["kernel"]:
            problems.append("%s: node %s has no kernel" % (name, w["name"]))
            continue
        kname = g["kernel"].rsplit(":", 1)[0]
        if w["kernel"] and kname != w["kernel"]:
            problems.append("%s: node %s: kernel %s, node.kernel %s" % (
                name, w["name"], kname, w["kernel"]))
        lines = call_lines(code, kname)
        if not any(passes(l, b) for l in lines for b in w["writes"]):
            problems.append("%s: node %s: no call of %s passes %s" % (
                name, w["name"], kname, w["writes"]))
            continue
        kernels += 1
    post = u["artifacts"]["post_grad"]
    print("%s: %d scheduler nodes, %d fused, %d with their kernel, "
          "post-grad graph %s" % (name, len(want), fused, kernels,
                                  post["name"] if post else None))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", required=True)
    ap.add_argument("--run", required=True, help="a gen-torch-logs run")
    a = ap.parse_args()
    problems = []
    folders = sorted(glob.glob(os.path.join(
        a.run, "work", "torch_compile_debug", "run_*", "torchinductor",
        "model__*")))
    for f in folders:
        check_folder(a.tools, f, problems)
    # The run's directory: every folder joins its process's log unit.
    out = subprocess.run([os.path.join(a.tools, "tlp-emit"), "--json",
                          "--strict", a.run], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    joined = len(re.findall(r"note: this folder is unit", out.stderr))
    units = json.loads(out.stdout)["units"] if not out.returncode else []
    with_ir = [u for u in units if u["scheduler_nodes"]]
    pids = {}
    for log in glob.glob(os.path.join(a.run, "trace", "*.log")):
        m = re.search(r"^\S+ \S+ (\d+) ", open(log).readline())
        pids[os.path.basename(log)] = m.group(1) if m else None
    for line in out.stderr.split("\n"):
        m = re.search(r"pid_(\d+)/torchinductor/(\S+): note: this folder is "
                      r"unit .* of \S*/(\S+\.log) ", line)
        if m and pids.get(m.group(3)) != m.group(1):
            problems.append("%s of pid %s joined %s of pid %s" % (
                m.group(2), m.group(1), m.group(3), pids.get(m.group(3))))
    print("directory: %d units, %d with scheduler nodes, %d folders joined "
          "their log's unit" % (len(units), len(with_ir), joined))
    for p in problems:
        print("problem:", p)
    print("%d folders checked, %d problems" % (len(folders), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
