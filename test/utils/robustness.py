#!/usr/bin/env python3
"""Feed damaged inputs to tlp-emit and check how it copes.

    robustness.py --tlp-emit PATH --tlp-opt PATH --inputs DIR --work DIR

Makes inputs from the fixture logs, deterministically (a fixed seed):
truncated at many offsets, with bytes flipped, converted to CR LF, with huge
lines, binary garbage, empty and blank files, and a directory holding logs
next to files that are not logs. For each it runs `tlp-emit --json` (and,
for some, `tlp-opt --link-provenance | tlp-emit --json`) under a time limit
and checks that:

  - it ends within the limit (no hang) with exit 0 or 1 (no crash);
  - every warning or error about a file names a line (`file:N: ...`),
    except the few whole-file summaries listed in FILE_LEVEL;
  - exit 1 comes with at least one error;
  - whenever the exit is 0, the output is valid JSON of schema tlp-json/2.

Prints one line per kind of damage ("truncated: 40 inputs ok") and, for any
input that breaks a rule, the input, the rule and the tool's stderr; exits 1
if any did.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys

LIMIT_S = 60
DIAG = re.compile(r"^(?P<file>.+?):(?:(?P<line>\d+):)? (?P<sev>warning|error|note): ")
TOOL_ERROR = re.compile(r"^tlp-(opt|emit): error: ")
# Whole-file diagnostics that rightly have no line.
FILE_LEVEL = re.compile(
    r"input is empty|no trace events found|more .* not shown|"
    r"lines end in CR LF|events of kinds tlp does not know|skipped: not a")


def fixtures(inputs):
    names = ["jit_cuda_train.log", "jit_cpu_v1.log", "aot_cuda_v2.log",
             "handles.log"]
    return [(n, open(os.path.join(inputs, n), "rb").read()) for n in names]


def make_inputs(inputs, work, rng):
    """Yield (kind, path) for every damaged input, writing them to work."""
    def put(kind, name, data):
        d = os.path.join(work, kind)
        os.makedirs(d, exist_ok=True)
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(data)
        return kind, p

    for name, data in fixtures(inputs):
        stem = name[:-4]
        for k in range(10):
            cut = rng.randrange(1, len(data))
            yield put("truncated", "%s.cut%d.log" % (stem, cut), data[:cut])
        for k in range(10):
            d = bytearray(data)
            for _ in range(rng.choice([1, 3, 20, 200])):
                d[rng.randrange(len(d))] = rng.randrange(256)
            yield put("flipped", "%s.flip%d.log" % (stem, k), bytes(d))
        yield put("crlf", stem + ".crlf.log", data.replace(b"\n", b"\r\n"))
        yield put("crlf", stem + ".cr.log", data.replace(b"\n", b"\r"))
        # Lines dropped or repeated: events out of their usual order.
        lines = data.split(b"\n")
        for k in range(3):
            ls = list(lines)
            i = rng.randrange(len(ls))
            del ls[i:i + rng.randrange(1, 30)]
            yield put("lines", "%s.del%d.log" % (stem, k), b"\n".join(ls))
            ls = list(lines)
            i = rng.randrange(len(ls))
            ls[i:i] = ls[i:i + rng.randrange(1, 30)]
            yield put("lines", "%s.dup%d.log" % (stem, k), b"\n".join(ls))

    big = b"a" * (16 << 20)
    env = b"V1203 10:00:00.000000 1 torch/x.py:1] "
    yield put("huge", "envelope.log", env + b'{"str": ["' + big + b'", 0]}\n')
    yield put("huge", "unterminated.log", env + b'{"str": ["' + big)
    yield put("huge", "payload.log",
              env + b'{"artifact": {"name": "before_pre_grad_graph", '
              b'"encoding": "string"}, "frame_id": 0, "frame_compile_id": 0, '
              b'"attempt": 0, "has_payload": "00000000000000000000000000000000"}\n'
              b"\t" + big + b"\n")
    yield put("huge", "noline.log", big)
    yield put("huge", "manylines.log", b"\n" * (4 << 20))
    yield put("huge", "deep.log",
              env + b'{"str": ' + b"[" * 200000 + b"]" * 200000 + b"}\n")

    yield put("garbage", "random.bin",
              bytes(rng.randrange(256) for _ in range(200000)))
    yield put("garbage", "nul.bin", b"\0" * 100000)
    yield put("garbage", "high.bin", bytes(rng.randrange(128, 256)
                                           for _ in range(100000)))
    yield put("garbage", "text.log", b"hello\nworld\n" * 1000)
    yield put("garbage", "gzip.log.gz", b"\x1f\x8b\x08\x00" + bytes(100))
    yield put("garbage", "json.log", b'{"not": "a log"}\n' * 100)

    yield put("empty", "empty.log", b"")
    yield put("empty", "newlines.log", b"\n\n\n")
    yield put("empty", "tabs.log", b"\t\n\t\t\n")
    yield put("empty", "spaces.log", b"   \r\n  ")

    # A directory: rank logs, a log that is damaged, and things that are
    # not logs at all.
    d = os.path.join(work, "dirs", "mixed")
    os.makedirs(os.path.join(d, "subdir"), exist_ok=True)
    for n in os.listdir(os.path.join(inputs, "ranks")):
        shutil.copy(os.path.join(inputs, "ranks", n), d)
    with open(os.path.join(d, "core.bin"), "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(5000)))
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a log\n")
    with open(os.path.join(d, "dedicated_log_torch_trace_rank_7.log"),
              "wb") as f:
        f.write(fixtures(inputs)[0][1][:5000])
    open(os.path.join(d, "empty.log"), "wb").close()
    yield "dirs", d
    d = os.path.join(work, "dirs", "nologs")
    os.makedirs(os.path.join(d, "run0"), exist_ok=True)
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a log\n")
    yield "dirs", d


def check(kind, path, argvs, out):
    """Run the pipeline; return a list of problems."""
    if os.path.exists(out):
        os.remove(out)
    procs = []
    prev = None
    errs = []
    for i, argv in enumerate(argvs):
        err = open(out + ".err%d" % i, "w+b")
        errs.append(err)
        p = subprocess.Popen(argv, stdin=prev, stderr=err,
                             stdout=subprocess.PIPE if i + 1 < len(argvs)
                             else subprocess.DEVNULL)
        if prev:
            prev.close()
        prev = p.stdout
        procs.append(p)
    problems = []
    codes = []
    for p in procs:
        try:
            codes.append(p.wait(timeout=LIMIT_S))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            codes.append(None)
            problems.append("no exit within %d s" % LIMIT_S)
    stderr = ""
    for e in errs:
        e.seek(0)
        stderr += e.read().decode("utf-8", "replace")
        e.close()
    for c in codes:
        if c is not None and c not in (0, 1):
            problems.append("exit %d (a crash?)" % c)
    if re.search(r"Stack dump|Assertion|Sanitizer|runtime error", stderr):
        problems.append("crash report on stderr")
    if "IR is invalid" in stderr:
        problems.append("a pass broke an IR invariant (an internal error)")
    errors = 0
    for line in stderr.splitlines():
        m = DIAG.match(line)
        if TOOL_ERROR.match(line):
            errors += 1
            continue
        if not m:
            continue  # an excerpt line
        if m.group("sev") == "error":
            errors += 1
        if (m.group("sev") != "note" and not m.group("line")
                and not FILE_LEVEL.search(line)):
            problems.append("diagnostic without a line: " + line[:200])
    last = codes[-1]
    if 1 in codes and not errors:
        problems.append("exit 1 without an error diagnostic")
    if last == 0:
        try:
            with open(out, encoding="utf-8") as f:
                j = json.load(f)
            if j.get("schema") != "tlp-json/2":
                problems.append("JSON without schema tlp-json/2")
        except (OSError, ValueError) as e:
            problems.append("exit 0 but the output is not valid JSON: %s" % e)
    if problems:
        problems.append("stderr:\n" + stderr[-3000:])
    return problems, last


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tlp-emit", required=True)
    ap.add_argument("--tlp-opt", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    rng = random.Random(20261202)
    out = os.path.join(a.work, "out.json")
    stats = {}
    bad = 0
    for n, (kind, path) in enumerate(make_inputs(a.inputs, a.work, rng)):
        runs = [[[a.tlp_emit, "--json", path, "-o", out]]]
        if n % 5 == 0 and not os.path.isdir(path):
            runs.append([[a.tlp_opt, "--link-provenance", path],
                         [a.tlp_emit, "--json", "-o", out]])
        for argvs in runs:
            problems, code = check(kind, path, argvs, out)
            s = stats.setdefault(kind, [0, 0, 0])
            s[0] += 1
            s[1 if code == 0 else 2] += 1
            if problems:
                bad += 1
                print("FAIL %s: %s" % (kind, " | ".join(" ".join(x) for x in argvs)))
                for p in problems:
                    print("  " + p)
    for kind, (n, ok0, ok1) in stats.items():
        print("%s: %d runs (exit 0: %d, exit 1: %d)" % (kind, n, ok0, ok1))
    print("%d runs broke a rule" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
