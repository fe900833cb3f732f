#!/usr/bin/env python3
"""Cross-check tlp-emit --json output against the log it came from, with a
reader written independently of tlp's (plain Python, FORMAT.md section 1;
tlplog.verdict.conformance):

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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog import verdict  # noqa: E402


def main():
    log, out = sys.argv[1], sys.argv[2]
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    problems = verdict.conformance(log, doc)
    for p in problems:
        print("%s: %s" % (log, p))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
