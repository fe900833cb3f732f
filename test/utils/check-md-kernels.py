#!/usr/bin/env python3
"""Check the kernel tables of a tlp-emit --md report against the log.

    check-md-kernels.py LOG REPORT.md

Every kernel key of every provenance mapping in LOG (cppCodeToPost keys
and postToCppCode values) has exactly one row in the report's kernel
tables per mapping that names it, and no row is there twice. Exit 1 with a
message per problem."""
import collections
import json
import re
import sys

NAME = '"name": "inductor_provenance_tracking_node_mappings"'


def mapping_keys(path):
    out = collections.Counter()
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        if NAME not in line:
            continue
        payload = []
        for p in lines[i + 1:]:
            if not p.startswith("\t"):
                break
            payload.append(p[1:])
        m = json.loads("\n".join(payload))
        keys = set(m.get("cppCodeToPost", {}))
        for vs in m.get("postToCppCode", {}).values():
            keys.update(vs)
        out.update(keys)
    return out


def code_span(cell):
    m = re.match(r"^(`+) ?(.*?) ?\1$", cell.strip())
    return m.group(2).replace("\\|", "|") if m else None


def report_rows(path):
    rows = collections.Counter()
    in_table = False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("### "):
            in_table = line == "### Kernels"
            continue
        if in_table and line.startswith("| `"):
            cells = re.split(r"(?<!\\)\|", line)[1:-1]
            rows[code_span(cells[0])] += 1
    return rows


def main():
    want = mapping_keys(sys.argv[1])
    got = report_rows(sys.argv[2])
    problems = []
    if not want:
        problems.append("no mapping keys in the log")
    for k, n in sorted(want.items()):
        if got[k] != n:
            problems.append("mapping key %s: %d rows, expected %d" % (k, got[k], n))
    for k, n in sorted(got.items()):
        if n > 1 and n != want.get(k):
            problems.append("row %s appears %d times" % (k, n))
    for p in problems:
        print(p)
    print("%d mapping keys, %d rows" % (sum(want.values()), sum(got.values())))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
