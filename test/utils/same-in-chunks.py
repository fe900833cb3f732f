#!/usr/bin/env python3
"""Check that reading a log in chunks changes nothing tlp writes.

    same-in-chunks.py TLP-EMIT WORKDIR [--yaml2log TLP-YAML2LOG] INPUT...
    same-in-chunks.py TLP-EMIT WORKDIR --torch-logs DIR

The reader scans a log in chunks and merges each into the module as soon as
it and those before it are scanned (lib/Parse/TraceReader.cpp); a compile's
events may lie in several chunks, and a span Dynamo opens just before a
dynamo_start is held until the next event of its frame says which compile it
belongs to (CompileMerger). For each INPUT (a log, a directory of logs, or,
with --yaml2log, a log in YAML), `tlp-emit --json` and `--md` run as a user
runs them, then with the hidden --chunk-size option at its smallest (every
event its own chunk, in a small log) on one and two threads, and at 4 KB on
three: the outputs and the diagnostics must be byte-identical (the report's
"Made by" line names the command and is left out). Prints one line per input, "NAME:
same" or "NAME: differs: ..." with the first differing line, then how many
were the same. --torch-logs: every run's trace directory of
utils/gen-torch-logs.py's output.
"""
import os
import subprocess
import sys

def configs(path):
    """The chunkings to compare with one chunk: the smallest (every event
    its own chunk in a log of up to 2,000 events' bytes, else about 2,000
    chunks: a chunk costs a scanner's start) on one and two threads, and
    4 KB chunks on three."""
    size = sum(os.path.getsize(os.path.join(path, f))
               for f in os.listdir(path)) if os.path.isdir(path) \
        else os.path.getsize(path)
    small = "--chunk-size=%d" % max(1, size // 2000)
    return [
        ("the smallest chunks, one thread", [small, "--threads=1"]),
        ("the smallest chunks, two threads", [small, "--threads=2"]),
        ("4 KB chunks, three threads", ["--chunk-size=4096", "--threads=3"]),
    ]


def run(emit, fmt, extra, path, out):
    p = subprocess.run([emit, "--" + fmt] + extra + [path, "-o", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    text = b""
    if os.path.exists(out):
        with open(out, "rb") as f:
            text = f.read()
        os.remove(out)
    lines = [l for l in text.split(b"\n") if not l.startswith(b"Made by tlp")]
    return p.returncode, p.stderr, lines


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "line %d: %r != %r" % (i + 1, x[:120], y[:120])
    return "%d lines against %d" % (len(a), len(b))


def main():
    args = sys.argv[1:]
    emit, work = args[0], args[1]
    rest = args[2:]
    yaml2log = None
    if rest[:1] == ["--yaml2log"]:
        yaml2log, rest = rest[1], rest[2:]
    if rest[:1] == ["--torch-logs"]:
        runs = rest[1]
        rest = [os.path.join(runs, r, "trace") for r in sorted(os.listdir(runs))
                if os.path.isdir(os.path.join(runs, r, "trace"))]
    os.makedirs(work, exist_ok=True)
    same = 0
    for n, inp in enumerate(rest):
        name = os.path.basename(inp.rstrip("/"))
        if name == "trace":
            name = os.path.basename(os.path.dirname(inp))
        if inp.endswith(".yaml"):
            log = os.path.join(work, "%d-%s.log" % (n, name[:-5]))
            subprocess.run([yaml2log, inp, "-o", log], check=True)
            inp = log
        problems = []
        for fmt in ("json", "md"):
            base = run(emit, fmt, [], inp, os.path.join(work, "%d.%s" % (n, fmt)))
            for what, extra in configs(inp):
                out = os.path.join(work, "%d-chunked.%s" % (n, fmt))
                got = run(emit, fmt, extra, inp, out)
                if got[0] != base[0]:
                    problems.append("%s, --%s: exit %d, not %d"
                                    % (what, fmt, got[0], base[0]))
                elif got[1] != base[1]:
                    problems.append("%s, --%s: diagnostics: %s" % (
                        what, fmt, first_difference(base[1].split(b"\n"),
                                                    got[1].split(b"\n"))))
                elif got[2] != base[2]:
                    problems.append("%s, --%s: %s" % (
                        what, fmt, first_difference(base[2], got[2])))
        print("%s: %s" % (name, "same" if not problems
                          else "differs: " + "; ".join(problems)))
        same += not problems
    print("%d of %d inputs the same" % (same, len(rest)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
