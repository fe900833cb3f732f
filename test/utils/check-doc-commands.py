#!/usr/bin/env python3
"""Run the commands of a doc page and compare their output.

    check-doc-commands.py SRCROOT TOOLDIR PAGE.md

Every ```console block of PAGE is a sequence of `$ command` lines, each
followed by the output it must print. Commands run with /bin/sh in SRCROOT
with TOOLDIR first on PATH; the output must match exactly. Prints a diff per
mismatch and exits 1 if any."""
import difflib
import os
import re
import subprocess
import sys


def blocks(text):
    for m in re.finditer(r"^```console\n(.*?)^```$", text, re.M | re.S):
        yield m.group(1)


def main():
    root, tools, page = sys.argv[1:4]
    env = dict(os.environ, PATH=tools + os.pathsep + os.environ["PATH"])
    bad = runs = 0
    for b in blocks(open(page, encoding="utf-8").read()):
        cmds = []
        for line in b.split("\n")[:-1]:
            if line.startswith("$ "):
                cmds.append([line[2:], []])
            elif cmds:
                cmds[-1][1].append(line)
        for cmd, want in cmds:
            runs += 1
            p = subprocess.run(cmd, shell=True, cwd=root, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            got = p.stdout.split("\n")
            if got and got[-1] == "":
                got.pop()
            if p.returncode or got != want:
                bad += 1
                print("$ %s (exit %d)" % (cmd, p.returncode))
                print(p.stderr, end="")
                print("\n".join(difflib.unified_diff(want, got, "page", "run",
                                                     lineterm="")))
    print("%d commands, %d mismatches" % (runs, bad))
    return 1 if bad or not runs else 0


if __name__ == "__main__":
    sys.exit(main())
