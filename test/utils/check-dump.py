#!/usr/bin/env python3
"""Check a tlp-emit --dump directory against the log and its JSON.

    check-dump.py LOG OUT.json DIR

For every unit of OUT.json: its folder exists; pre_grad.py, post_grad.py,
output_code.py / wrapper.cpp and kernel.cpp, with the "tlp:" notes and the
closing footer taken off, are exactly the logged payloads (so every line
keeps its number); every kernel definition has a file under kernels/ that
starts with a "tlp: kernel NAME" header; links are relative, stay inside
DIR and resolve; no two regular files have the same content; index.md
links to every file. Prints one line per problem, exits 1 if any."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog.log import payloads  # noqa: E402

NOTE = re.compile(r"  (#|//) tlp: .*$")


def strip(text):
    lines = text.split("\n")
    # The footer is the last line (after the payload's own final newline).
    assert lines[-1] == "", "no final newline"
    assert " tlp: notes that start with" in lines[-2], "no footer"
    body = lines[:-2]
    return "\n".join(NOTE.sub("", l) for l in body)


def main():
    log, js, d = sys.argv[1:4]
    pay = payloads(log)
    doc = json.load(open(js, encoding="utf-8"))
    problems = []
    index = open(os.path.join(d, "index.md"), encoding="utf-8").read()
    contents = {}
    for root, _, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            rel = os.path.relpath(p, d)
            if os.path.islink(p):
                t = os.readlink(p)
                if os.path.isabs(t):
                    problems.append("%s: absolute link" % rel)
                real = os.path.realpath(p)
                if not real.startswith(os.path.realpath(d) + os.sep) or \
                        not os.path.isfile(real):
                    problems.append("%s: link does not resolve inside DIR" % rel)
            elif n != "index.md":
                c = open(p, "rb").read()
                if c in contents:
                    problems.append("%s: same content as %s" % (rel, contents[c]))
                contents[c] = rel
            if n != "index.md" and "](%s)" % rel not in index:
                problems.append("%s: not in index.md" % rel)
    folders = {}
    for u in doc["units"]:
        folder = u["id"]
        folders[folder] = folders.get(folder, 0) + 1
        if folders[folder] > 1:
            folder += "-%d" % folders[folder]
        art = u["artifacts"]
        files = [("pre_grad", "pre_grad.py"), ("post_grad", "post_grad.py"),
                 ("kernel_code", "kernel.cpp")]
        if art["code"]:
            files.append(("code", "wrapper.cpp" if u["code"]["language"] == "cpp"
                          else "output_code.py"))
        for role, name in files:
            if not art[role]:
                continue
            p = os.path.join(d, folder, name)
            if not os.path.exists(p):
                problems.append("%s/%s: missing" % (folder, name))
                continue
            try:
                got = strip(open(p, encoding="utf-8", newline="").read())
            except AssertionError as e:
                problems.append("%s/%s: %s" % (folder, name, e))
                continue
            want = pay.get(art[role]["line"])
            if want is not None and got.rstrip("\n") != want.rstrip("\n"):
                problems.append("%s/%s: differs from the payload at log line %d"
                                % (folder, name, art[role]["line"]))
        for k in u["kernels"]:
            if not k["def_lines"] and not k["kernel_code_lines"]:
                continue
            kd = os.path.join(d, folder, "kernels")
            base = re.sub(r"[^A-Za-z0-9_.-]", "_", k["name"])
            hits = [n for n in (os.listdir(kd) if os.path.isdir(kd) else [])
                    if n.rsplit(".", 1)[0].split("-")[0] == base]
            if not hits:
                problems.append("%s: no file for kernel %s" % (folder, k["name"]))
                continue
            head = open(os.path.join(kd, hits[0]), encoding="utf-8").readline()
            if "tlp: kernel %s (" % k["name"] not in head:
                problems.append("%s/kernels/%s: no header" % (folder, hits[0]))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
