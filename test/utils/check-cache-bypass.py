#!/usr/bin/env python3
"""Every cache bypass of a log is listed in a Markdown report, at its line
and with the reason PyTorch logged (docs/markdown.md, "Why did the cache
miss?"). A reader of its own: the bypass artifacts are found in the raw
log by name (tlplog.log), their reasons read from their JSON payloads.

    check-cache-bypass.py LOG_DIR REPORT.md

Prints "N bypasses, N listed" and one line per problem; exit 1 on any."""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog.log import envelopes, kind, lines, payloads  # noqa: E402

BYPASS = ("artifact:fx_graph_cache_bypass", "artifact:aotautograd_cache_bypass")


def main():
    logdir, md = sys.argv[1], sys.argv[2]
    raw = {}
    for path in sorted(glob.glob(os.path.join(logdir, "*.log"))):
        text = lines(path)
        pl = payloads(text)
        for i, env in envelopes(text):
            if kind(env) in BYPASS:
                payload = json.loads(pl[i].strip())
                raw[i] = payload.get("cache_bypass_reason") or ""
    listed = {}
    for line in open(md, encoding="utf-8"):
        m = re.search(r" cache bypass \((?:region [^,]*, )?line (\d+)\): (.*)$", line)
        if m:
            listed[int(m.group(1))] = m.group(2).replace("\\", "")
    problems = []
    for n, reason in sorted(raw.items()):
        if n not in listed:
            problems.append("bypass at line %d is not listed" % n)
        elif " ".join(reason.split()) not in " ".join(listed[n].split()):
            problems.append("bypass at line %d: reason %r, listed %r"
                            % (n, reason, listed[n]))
    for n in sorted(set(listed) - set(raw)):
        problems.append("line %d is listed as a bypass but is none" % n)
    print("%d bypasses, %d listed" % (len(raw), len(listed)))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
