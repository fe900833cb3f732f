#!/usr/bin/env python3
"""Check tlp-emit --json output against docs/json.md: valid JSON, the schema
version, and the required keys and types of units, nodes, kernels and
diagnostics (tlplog.verdict.json_problems). Exit 1 with a message on the
first problem."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog import verdict  # noqa: E402


def check(path):
    with open(path, encoding="utf-8") as f:
        try:
            doc = json.load(f)
        except ValueError as e:
            print("%s: invalid JSON: %s" % (path, e))
            sys.exit(1)
    for p in verdict.json_problems(doc)[:1]:
        print("%s: %s" % (path, p))
        sys.exit(1)


for p in sys.argv[1:]:
    check(p)
