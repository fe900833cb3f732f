#!/usr/bin/env python3
"""The event kinds and artifact names an installed PyTorch can write into a
TORCH_TRACE log, found by reading its source (an AST scan), against the
kinds tlp's reader table names (include/tlp/Parse/LogEvents.def).

    scan-torch-kinds.py --torch DIR --def LogEvents.def [--known FILE]

DIR is the torch package (its torch/ directory). Every call of
`trace_structured(NAME, metadata_fn=...)`, `dtrace_structured(NAME, ...)`
and `trace_structured_artifact(NAME, ...)` is read: NAME is the envelope
kind; an `artifact` or `graph_dump` event is named `artifact:NAME` /
`graph_dump:NAME` by the "name" of the dict its metadata_fn returns. A
name PyTorch builds at run time (an f-string, a variable) is one
`<runtime>` entry per call site, with its file and line.

Each kind is then one of:
  read     a row of LogEvents.def that reads it;
  known    a row that counts it as not read (tlp knows it; docs/inputs.md);
  listed   in --known: a kind tlp's table does not name yet, written down
           with why (the list shrinks as tlp reads more);
  NEW      none of these: a kind this PyTorch writes that tlp has never
           been told about. The scan exits 1.
Prints the counts, then every NEW kind and every runtime-built name with
its place.
"""
import argparse
import ast
import os
import re
import sys

CALLS = {"trace_structured", "dtrace_structured", "trace_structured_artifact"}


def const_str(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def dict_name(node):
    """The "name" of the dict a metadata_fn returns: the lambda's body or a
    function's return; None when it is not a constant."""
    if isinstance(node, ast.Lambda):
        node = node.body
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if const_str(k) == "name":
                return const_str(v) or "<runtime>"
    return "<runtime>"


def scan(root):
    kinds = {}
    runtime = []
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            path = os.path.join(dirpath, f)
            try:
                text = open(path, encoding="utf-8").read()
                # Each name of CALLS contains "trace_structured": a file
                # without it has none of the calls (and is not parsed).
                if "trace_structured" not in text:
                    continue
                tree = ast.parse(text, path)
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            rel = os.path.relpath(path, os.path.dirname(root))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else (
                    fn.id if isinstance(fn, ast.Name) else None)
                if name not in CALLS or not node.args:
                    continue
                where = "%s:%d" % (rel, node.lineno)
                first = const_str(node.args[0])
                if name == "trace_structured_artifact":
                    kind = "artifact:" + first if first else None
                elif first in ("artifact", "graph_dump"):
                    meta = next((k.value for k in node.keywords
                                 if k.arg == "metadata_fn"), None)
                    if meta is None and len(node.args) > 1:
                        meta = node.args[1]
                    n = dict_name(meta) if meta is not None else "<runtime>"
                    kind = first + ":" + n if n != "<runtime>" else None
                else:
                    kind = first
                if kind is None:
                    runtime.append((name, where))
                    continue
                kinds.setdefault(kind, where)
    return kinds, runtime


def table(def_path):
    """(read, known) kind names of LogEvents.def."""
    text = open(def_path).read()
    read, known = set(), set()
    for form, name, becomes in re.findall(
            r'TLP_LOG_EVENT\(\s*(\w+),\s*"([^"]+)",\s*(\w+)', text):
        key = {"Envelope": name, "Artifact": "artifact:" + name,
               "GraphDump": "graph_dump:" + name}[form]
        (known if becomes == "Ignored" else read).add(key)
    # The generic envelopes are read by name.
    read -= {"artifact", "graph_dump"}
    return read, known


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torch", required=True)
    ap.add_argument("--def", dest="defs", required=True)
    ap.add_argument("--known")
    a = ap.parse_args()
    kinds, runtime = scan(a.torch)
    read, known = table(a.defs)
    listed = {}
    if a.known:
        for line in open(a.known):
            line = line.split("#", 1)
            k = line[0].strip()
            if k:
                listed[k] = line[1].strip() if len(line) > 1 else ""
    groups = {"read": [], "known": [], "listed": [], "NEW": []}
    for k in sorted(kinds):
        g = ("read" if k in read else "known" if k in known
             else "listed" if k in listed else "NEW")
        groups[g].append(k)
    print("%d kinds and artifact names (+ %d built at run time): %s" % (
        len(kinds), len(runtime),
        ", ".join("%d %s" % (len(v), g) for g, v in groups.items())))
    for k in groups["NEW"]:
        print("NEW: %s (%s)" % (k, kinds[k]))
    for k in sorted(set(listed) - set(kinds)):
        print("stale: %s is listed but this PyTorch does not write it" % k)
    for name, where in sorted(runtime, key=lambda r: r[1]):
        print("runtime: %s at %s" % (name, where))
    return 1 if groups["NEW"] else 0


if __name__ == "__main__":
    sys.exit(main())
