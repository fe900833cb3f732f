#!/usr/bin/env python3
"""Print the Content-Security-Policy of each argument (a page, or the one
policy shared by every page of a directory) and count pages without one,
or whose policy comes after a script or style element."""
import os
import re
import sys

META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
missing = 0
for arg in sys.argv[1:]:
    files = [arg]
    if os.path.isdir(arg):
        files = sorted(os.path.join(d, f) for d, _, fs in os.walk(arg)
                       for f in fs if f.endswith(".html"))
    policies = set()
    for f in files:
        text = open(f, encoding="utf-8").read()
        m = META.search(text)
        first = min([i for i in (text.find("<script"), text.find("<style"),
                                 text.find("<link")) if i >= 0] or [len(text)])
        if not m or m.start() > first:
            print("no policy:", f)
            missing += 1
            continue
        policies.add(m.group(1))
    print("%s: %s" % (os.path.basename(arg), " | ".join(sorted(policies))))
print("pages without a policy:", missing)
