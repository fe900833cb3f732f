#!/usr/bin/env python3
"""Print the units, kernels and node links of a tlp-emit --json output:
`UNIT-ID ...: N kernels, M links` (what utils/mutate-logs.py compares:
tlplog.verdict.summary)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog import verdict  # noqa: E402

d = json.load(open(sys.argv[1]))
units, kernels, links = verdict.summary(d)
print("%s: %d kernels, %d links" % (
    " ".join(u["id"] for u in d["units"]), kernels, links))
