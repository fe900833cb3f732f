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
post-grad graph's node count must be tlp's. Each fused node's share of its
kernel's post-grad nodes (`split`) is checked against fx_graph_transformed.py
and the file's own lines: its nodes are the kernel's; each buffer it writes
has a node of its layout (dtype and sizes) among them; each of them none
of the others uses is of the layout of a buffer it writes (stored, not
dropped); what they use inside the kernel is among them or, of the
layout of a buffer the node reads, in the share of the fused node that
writes it. `pre_fusion` must be the
fused node's sub-nodes (or the node itself), each a node of
ir_pre_fusion.txt. Then the run's directory (logs
and folders together): every folder joins the unit of its own process's
log, each such unit carries the folder's scheduler nodes, and its shares
(linked with the log's graph and edges) are checked against the folder's
files as above. Prints one
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


SUB_PROP = re.compile(r"^(\w+)\.(writes|unmet_dependencies|met_dependencies)"
                      r" = (.*)$")
LAYOUT = re.compile(r"^\s*(\w+)(?:\.layout = |_layout = )"
                    r"\w+\('[^']*', torch\.(\w+), size=\[([^\]]*)\]")
FX_NODE = re.compile(r'^\s+(\w+): "([^"]*)" = (.*)$')
DTYPES = {"float32": "f32", "float64": "f64", "float16": "f16",
          "bfloat16": "bf16", "int8": "i8", "int16": "i16", "int32": "i32",
          "int64": "i64", "uint8": "u8", "bool": "b8"}


def sub_nodes(text):
    """Every node (sub-nodes too): name -> {writes, reads}, and the
    layouts of the buffers the file names: buffer -> 'f32[4, 1]'."""
    nodes, layouts, lines = {}, {}, text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = HEADER.match(line)
        if m:
            nodes[m.group(1)] = {"writes": [], "reads": []}
        m = SUB_PROP.match(line)
        if m and m.group(1) in nodes:
            value = m.group(3)
            # pprint breaks a long list onto the lines below.
            while value.count("[") > value.count("]") or not value.strip():
                i += 1
                value += lines[i]
            key = "writes" if m.group(2) == "writes" else "reads"
            for b in QUOTED.findall(value):
                if b not in nodes[m.group(1)][key]:
                    nodes[m.group(1)][key].append(b)
        m = LAYOUT.match(line)
        if m and m.group(2) in DTYPES:
            dims = ", ".join(d.strip() for d in m.group(3).split(","))
            layouts[m.group(1)] = "%s[%s]" % (DTYPES[m.group(2)], dims)
        i += 1
    return nodes, layouts


def fx_graph(text):
    """The post-grad graph: name -> (short type, inputs), and what it
    returns."""
    nodes, order = {}, []
    for line in text.split("\n"):
        m = FX_NODE.match(line)
        if not m:
            continue
        t = re.match(r"^(\w+)(\[[^\]]*\])", m.group(2))
        rhs = re.sub(r"'[^']*'", "", m.group(3).split(";")[0])
        words = re.findall(r"(?<![\w.])([A-Za-z_]\w*)(?![\w(])", rhs)
        nodes[m.group(1)] = (t.group(1) + t.group(2) if t else None,
                             [w for w in words if w in nodes])
        order.append(m.group(1))
    ret = re.search(r"^\s+return \((.*)\)\s*$", text, re.M)
    returned = set(re.findall(r"\w+", ret.group(1))) if ret else set()
    return nodes, returned


def check_split(name, g, raw, layouts, fx, pre_names, problems):
    """The shares of g's fused nodes and g's pre-fusion nodes against the
    files; returns (fused nodes, with post-grad nodes, unknown)."""
    known = unknown = 0
    want_pre = g["fused"] or [g["name"]]
    if g["pre_fusion"] is not None:
        if g["pre_fusion"] != want_pre:
            problems.append("%s: node %s: pre_fusion %s, the file fused %s"
                            % (name, g["name"], g["pre_fusion"], want_pre))
        for p in g["pre_fusion"]:
            if p not in pre_names:
                problems.append("%s: node %s: %s is not in ir_pre_fusion.txt"
                                % (name, g["name"], p))
    kernel = set(g["post_grad_nodes"])
    for s in g["split"]:
        if s["post_grad_unknown"] is not None:
            unknown += 1
            if s["post_grad_nodes"]:
                problems.append("%s: %s has post-grad nodes and is unknown"
                                % (name, s["name"]))
            continue
        if not s["post_grad_nodes"]:
            continue
        known += 1
        where = "%s: %s of %s" % (name, s["name"], g["name"])
        mine = set(s["post_grad_nodes"])
        if kernel and not mine <= kernel:
            problems.append("%s: %s are not the kernel's" % (
                where, sorted(mine - kernel)))
            continue
        if any(n not in fx for n in mine):
            problems.append("%s: %s not in fx_graph_transformed.py" % (
                where, sorted(n for n in mine if n not in fx)))
            continue
        node = raw.get(s["name"], {"writes": [], "reads": []})
        write_types = {layouts.get(b) for b in node["writes"]}
        for b in node["writes"]:
            if not any(fx[n][0] == layouts.get(b) for n in mine):
                problems.append("%s: no node of buffer %s's layout %s" % (
                    where, b, layouts.get(b)))
        # What it computes and uses itself for nothing is what it stores:
        # of the layout of a buffer it writes.
        used = {i for n in mine for i in fx[n][1]}
        for n in mine - used:
            if fx[n][0] not in write_types:
                problems.append("%s: %s (%s) is used by none of them and "
                                "is no buffer it writes %s" % (
                                    where, n, fx[n][0], node["writes"]))
        # What it uses inside the kernel and does not compute it loads: a
        # node of the share of the fused node that writes a buffer it
        # reads, of that buffer's layout.
        loaded = set()
        for b in node["reads"]:
            for other in g["split"]:
                if b in raw.get(other["name"], {"writes": []})["writes"]:
                    loaded |= {i for i in other["post_grad_nodes"]
                               if i in fx and fx[i][0] == layouts.get(b)}
        for n in mine:
            for i in fx[n][1]:
                if i in kernel and i not in mine and i not in loaded:
                    problems.append("%s: %s uses %s, which it neither "
                                    "computes nor reads" % (where, n, i))
    return len(g["split"]), known, unknown


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
    raw, layouts = sub_nodes(ir)
    fx, _ = fx_graph(open(os.path.join(folder,
                                       "fx_graph_transformed.py")).read())
    pre_path = os.path.join(folder, "ir_pre_fusion.txt")
    pre_names = [n["name"] for n in scheduler_nodes(open(pre_path).read())] \
        if os.path.exists(pre_path) else []
    fused = kernels = 0
    shares = [0, 0, 0]
    for g, w in zip(got, want):
        for k, v in enumerate(check_split(name, g, raw, layouts, fx,
                                          pre_names, problems)):
            shares[k] += v
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
          "post-grad graph %s; %d fused nodes, %d with their post-grad "
          "nodes, %d unknown" % (name, len(want), fused, kernels,
                                 post["name"] if post else None, *shares))


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
    # The shares of the units the folders joined (linked with the log's
    # graphs and edges) checked against the folder's files as well.
    shares = [0, 0, 0]
    for line in out.stderr.split("\n"):
        m = re.search(r"^(\S+): note: this folder is unit (\S+) (\w+) "
                      r"(?:\(log \d+\) )?of (\S+\.log) ", line)
        if not m:
            continue
        folder, cid, graph, log = m.groups()
        unit = [u for u in with_ir if u["log"] == log and
                u["compile_id"] == cid and u["graph"] == graph]
        if len(unit) != 1:
            problems.append("%s: joined %d units" % (folder, len(unit)))
            continue
        raw, layouts = sub_nodes(open(os.path.join(
            folder, "ir_post_fusion.txt")).read())
        fx, _ = fx_graph(open(os.path.join(
            folder, "fx_graph_transformed.py")).read())
        pre = os.path.join(folder, "ir_pre_fusion.txt")
        pre_names = [n["name"] for n in scheduler_nodes(open(pre).read())] \
            if os.path.exists(pre) else []
        for g in unit[0]["scheduler_nodes"]:
            for k, v in enumerate(check_split(unit[0]["id"], g, raw, layouts,
                                              fx, pre_names, problems)):
                shares[k] += v
    print("directory: %d units, %d with scheduler nodes, %d folders joined "
          "their log's unit; %d fused nodes, %d with their post-grad nodes, "
          "%d unknown" % (len(units), len(with_ir), joined, *shares))
    for p in problems:
        print("problem:", p)
    print("%d folders checked, %d problems" % (len(folders), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
