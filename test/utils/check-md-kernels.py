#!/usr/bin/env python3
"""Check the kernel tables of a tlp-emit --md report against the log.

    check-md-kernels.py LOG REPORT.md

Every kernel key of every provenance mapping in LOG (cppCodeToPost keys
and postToCppCode values) has exactly one row in the report's kernel
tables per mapping that names it, and no row is there twice. Exit 1 with a
message per problem."""
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog.log import envelopes, kind, lines, mapping_keys, payloads  # noqa: E402

MAPPING = "artifact:inductor_provenance_tracking_node_mappings"


def log_mapping_keys(path):
    """Each kernel key of each mapping of the log, once a mapping."""
    out = collections.Counter()
    text = lines(path)
    pl = payloads(text)
    for i, env in envelopes(text):
        if kind(env) == MAPPING:
            out.update(mapping_keys(json.loads(pl[i])))
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
    want = log_mapping_keys(sys.argv[1])
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
