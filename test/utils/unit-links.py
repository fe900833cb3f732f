#!/usr/bin/env python3
"""Print the units, kernels and node links of a tlp-emit --json output:
`UNIT-ID ...: N kernels, M links` (what utils/mutate-logs.py compares)."""
import json
import sys

d = json.load(open(sys.argv[1]))
kernels = sum(len(u["kernels"]) for u in d["units"])
links = sum(len(k.get("pre_nodes", [])) + len(k.get("post_nodes", []))
            for u in d["units"] for k in u["kernels"])
print("%s: %d kernels, %d links" % (
    " ".join(u["id"] for u in d["units"]), kernels, links))
