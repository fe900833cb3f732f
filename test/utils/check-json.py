#!/usr/bin/env python3
"""Check tlp-emit --json output against docs/json.md: valid JSON, the schema
version, and the required keys and types of units, nodes, kernels and
diagnostics. Exit 1 with a message on the first problem."""
import json
import sys

UNIT_KEYS = ["id", "name", "log", "rank", "compile_id", "graph", "frame",
             "artifacts", "pre_grad_nodes", "post_grad_nodes", "code",
             "kernel_code", "kernels", "coverage"]
NODE_KEYS = ["name", "line", "op", "target", "type", "source"]
KERNEL_KEYS = ["name", "kind", "handle", "key", "call_lines", "post_nodes",
               "pre_nodes", "source", "in_mapping", "info"]
GRAPHS = {"forward", "backward", "inference", "unknown"}
KINDS = {"triton", "cpp", "extern", "fallback", "combo", "template",
         "collective", "unknown"}


def fail(path, msg):
    print("%s: %s" % (path, msg))
    sys.exit(1)


def check(path):
    with open(path, encoding="utf-8") as f:
        try:
            doc = json.load(f)
        except ValueError as e:
            fail(path, "invalid JSON: %s" % e)
    if doc.get("schema") != "tlp-json/2":
        fail(path, "bad schema %r" % doc.get("schema"))
    for key in ("logs", "units", "stats", "diagnostics"):
        if key not in doc:
            fail(path, "missing %r" % key)
    for u in doc["units"]:
        for k in UNIT_KEYS:
            if k not in u:
                fail(path, "unit %s lacks %r" % (u.get("id"), k))
        if u["graph"] not in GRAPHS:
            fail(path, "bad graph %r" % u["graph"])
        if not (u["rank"] is None or isinstance(u["rank"], int)):
            fail(path, "bad rank")
        for n in u["pre_grad_nodes"] + u["post_grad_nodes"]:
            for k in NODE_KEYS:
                if k not in n:
                    fail(path, "node %s lacks %r" % (n.get("name"), k))
            if not isinstance(n["line"], int) or n["line"] < 1:
                fail(path, "node %s has bad line" % n["name"])
        if u["code"] is not None and u["code"]["language"] not in ("python", "cpp"):
            fail(path, "bad language")
        for k in u["kernels"]:
            for key in KERNEL_KEYS:
                if key not in k:
                    fail(path, "kernel %s lacks %r" % (k.get("name"), key))
            if k["kind"] not in KINDS:
                fail(path, "bad kernel kind %r" % k["kind"])
            if not all(isinstance(x, int) and x > 0 for x in k["call_lines"]):
                fail(path, "kernel %s has bad call lines" % k["key"])
            if u["code"] and any(x > u["code"]["lines"] for x in k["call_lines"]):
                fail(path, "kernel %s calls past the code" % k["key"])
    for d in doc["diagnostics"]:
        if d.get("severity") not in ("error", "warning", "note"):
            fail(path, "bad severity")
        if "message" not in d:
            fail(path, "diagnostic without message")


for p in sys.argv[1:]:
    check(p)
