#!/usr/bin/env python3
"""Cut an IR stream at every document boundary and check each cut is told.

    cut-ir.py TLP-OPT TLP-EMIT IR WORKDIR

For every line of IR that starts a document (bar the first), the text
before it is given to `tlp-opt FILE` and, on stdin, to `tlp-emit --json -`
(the streaming reader). Each must exit 1 with the error that the IR was cut
short, naming the input and a line. The whole IR must still pass. Prints
one summary line; exits 1 on any cut that read as complete.
"""
import os
import subprocess
import sys

MSG = "error: the IR ends without its closing '--- !tlp.end' document"


def main():
    opt, emit, ir, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    text = open(ir, "rb").read()
    starts = []
    pos = 0
    for line in text.split(b"\n"):
        if line.startswith(b"---") and pos > 0:
            starts.append(pos)
        pos += len(line) + 1
    bad = []
    cut = os.path.join(work, "cut.yaml")
    for n, at in enumerate(starts + [len(text)]):
        data = text[:at]
        whole = at == len(text)
        with open(cut, "wb") as f:
            f.write(data)
        runs = [
            ("tlp-opt", subprocess.run([opt, "--verify-each", cut, "-o", os.path.join(work, "out.yaml")],
                                       capture_output=True)),
            ("tlp-emit", subprocess.run([emit, "--verify-each", "--json", "-", "-o", os.path.join(work, "out.json")],
                                        input=data, capture_output=True)),
        ]
        for tool, p in runs:
            err = p.stderr.decode("utf-8", "replace")
            if whole:
                if p.returncode != 0:
                    bad.append("whole IR: %s exit %d\n%s" % (tool, p.returncode, err))
            elif p.returncode != 1 or MSG not in err or ":%s" % "" not in err:
                bad.append("cut %d at byte %d: %s exit %d, stderr:\n%s" % (
                    n, at, tool, p.returncode, err[-600:]))
    print("cut-ir: %d cuts at document boundaries, %d not told" % (
        len(starts), len(bad)))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
