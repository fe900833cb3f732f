#!/usr/bin/env python3
"""Check the page script's modules (test/Emit/html-assets.test).

    check-js-modules.py NODE MODULE-DIR JOINED

Each *.js of MODULE-DIR must pass `NODE --check` alone, and the joined
script's head must list each of them (the build joins every module).
"""
import glob
import os
import re
import subprocess
import sys


def main():
    node, folder, joined = sys.argv[1:4]
    modules = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.js")))
    for m in modules:
        subprocess.run([node, "--check", os.path.join(folder, m)], check=True)
    with open(joined, encoding="utf-8") as f:
        head = f.read().split("*/", 1)[0]
    listed = sorted(re.findall(r"[\w-]+\.js", head.split("in order:", 1)[1]))
    if listed != modules:
        print("error: modules %s, joined %s" % (modules, listed))
        return 1
    print("%d modules, each valid alone, all joined" % len(modules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
