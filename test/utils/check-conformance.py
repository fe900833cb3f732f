#!/usr/bin/env python3
"""Cross-check tlp-emit --json output against the log it came from, with a
reader written independently of tlp's (plain Python, FORMAT.md section 1):

  - every key of every provenance mapping has a kernel row with call lines;
  - every call line of every kernel is a code line that names the kernel;
  - every node name the mapping uses is a node of the unit's graphs;
  - every node line is a graph line that names the node.

    check-conformance.py LOG OUT.json

LOG is a log file, or a directory of rank logs (each unit's payloads are
then read from the unit's own `log`). Exit 1 with one message per
problem."""
import json
import os
import re
import sys

from logpayloads import payloads



def names_kernel(text, name):
    # A custom op of AOTInductor (aoti_torch_cpu_scale_rows) is called
    # through the proxy executor.
    if (name.startswith("aoti_torch_")
            and "aoti_torch_proxy_executor_call_function(" in text):
        return True
    for cand in (name, "call_" + name):
        for m in re.finditer(re.escape(cand), text):
            before = text[m.start() - 1] if m.start() else " "
            after = text[m.end()] if m.end() < len(text) else " "
            if (before.isalnum() or before in "_.") and cand[0].isalnum():
                continue
            if after.isalnum() or after == "_":
                continue
            return True
    return False


def main():
    log, out = sys.argv[1], sys.argv[2]
    by_log = {}

    def texts_of(u):
        path = log
        if os.path.isdir(log):
            path = u["log"]
            if not os.path.isabs(path) and not os.path.exists(path):
                path = os.path.join(log, os.path.basename(path))
        if path not in by_log:
            by_log[path] = payloads(path)
        return by_log[path]

    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    problems = []
    for u in doc["units"]:
        texts = texts_of(u)
        art = u["artifacts"]
        kernels = {k["key"]: k for k in u["kernels"]}
        code = texts.get(art["code"]["line"]) if art["code"] else None
        code_lines = code.split("\n") if code is not None else []
        for k in u["kernels"]:
            for n in k["call_lines"]:
                if n > len(code_lines) or not names_kernel(code_lines[n - 1], k["name"]):
                    problems.append("%s: kernel %s: line %d does not name it"
                                    % (u["id"], k["key"], n))
        pre = {n["name"] for n in u["pre_grad_nodes"]}
        post = {n["name"] for n in u["post_grad_nodes"]}
        for role, nodes in (("pre_grad", u["pre_grad_nodes"]),
                            ("post_grad", u["post_grad_nodes"])):
            if not art[role]:
                continue
            text = texts[art[role]["line"]].split("\n")
            for n in nodes:
                if n["op"] == "output":
                    continue
                if n["line"] > len(text) or not re.search(
                        r"(^|[^\w.])" + re.escape(n["name"]) + r"(\W|$)",
                        text[n["line"] - 1]):
                    problems.append("%s: %s node %s: line %d does not name it"
                                    % (u["id"], role, n["name"], n["line"]))
        if not art["mapping"]:
            continue
        mapping = json.loads(texts[art["mapping"]["line"]])
        keys = set(mapping.get("cppCodeToPost", {}))
        for vs in mapping.get("postToCppCode", {}).values():
            keys.update(vs)
        # PyTorch 2.13 logs the entries of earlier compiles with a unit
        # (docs/passes/drop-carried-provenance.md): keys whose handle is
        # below the lowest handle comment of the code and that no comment
        # names. They must have no kernel row; their post-grad names are
        # the earlier compile's.
        comment_keys = set()
        for m in re.finditer(r"\[Provenance debug handles\]([^\n]*)", code or ""):
            for k in m.group(1).split(","):
                if re.search(r":\d+$", k.strip()):
                    comment_keys.add(k.strip())
        lowest = min((int(k.rsplit(":", 1)[1]) for k in comment_keys), default=None)
        carried = {k for k in keys if lowest is not None
                   and re.search(r":\d+$", k) and k not in comment_keys
                   and int(k.rsplit(":", 1)[1]) < lowest}
        for key in sorted(carried):
            if key in kernels:
                problems.append("%s: mapping key %s of an earlier compile has "
                                "a kernel row" % (u["id"], key))
        carried_posts = {n for n, vs in mapping.get("postToCppCode", {}).items()
                         if vs and all(v in carried for v in vs)}
        for k in carried:
            carried_posts.update(mapping.get("cppCodeToPost", {}).get(k, []))
        for key in sorted(keys - carried):
            k = kernels.get(key)
            if k is None:
                problems.append("%s: mapping key %s has no kernel row" % (u["id"], key))
            elif not k["call_lines"]:
                problems.append("%s: mapping key %s has no call line" % (u["id"], key))
        for a, b, sa, sb in (("preToPost", "pre", pre, post),
                             ("postToPre", "post", post, pre)):
            for name, vals in mapping.get(a, {}).items():
                # A compile that hit the FX graph cache logs no pre-grad
                # graph: its pre-grad names cannot be checked.
                if name not in sa and (b == "post" or art["pre_grad"]):
                    problems.append("%s: %s name %s is not a node" % (u["id"], b, name))
                for v in vals:
                    if v not in sb and (a == "postToPre" and not art["pre_grad"]):
                        continue
                    if v not in sb:
                        problems.append("%s: %s name %s is not a node" % (u["id"], a, v))
        for name in mapping.get("postToCppCode", {}):
            if name not in post and name not in carried_posts:
                problems.append("%s: post name %s is not a node" % (u["id"], name))
    for p in problems:
        print("%s: %s" % (log, p))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
