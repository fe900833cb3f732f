#!/usr/bin/env python3
"""Interrupt tlp runs while they write, and run several on one output.

    output-races.py --tlp-emit PATH --tlp-opt PATH --inputs DIR --work DIR

signals: for each output shape (a JSON file, an HTML directory, a dump
directory, tlp-opt's IR file) and for SIGTERM and SIGINT, with and without
an earlier output in place: feed the tool IR through a pipe, wait until it
has made its temporary sibling (so it is in the middle of writing), send
the signal, and check that the earlier output is unchanged (or that there
is none), and that no temporary sibling (`.NAME.tlp-*`) is left.

concurrent: start eight runs at once on one -o, half with one input and
half with another, three times, for a file and a directory; every run must
succeed, and the output must then be exactly what one of the two inputs
gives alone, with no temporary sibling left.

Prints one line per part with the number of runs and of problems, and the
problems; exits 1 if there were any.
"""
import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time


def snapshot(path):
    """A comparable picture of a file or a directory tree (None if absent)."""
    if not os.path.lexists(path):
        return None
    if os.path.isfile(path) and not os.path.islink(path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    out = {}
    for root, dirs, files in os.walk(path):
        for name in sorted(dirs + files):
            p = os.path.join(root, name)
            rel = os.path.relpath(p, path)
            if os.path.islink(p):
                out[rel] = "link:" + os.readlink(p)
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
            else:
                out[rel] = "dir"
    return out


def default_signals():
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


def temps(parent):
    return sorted(n for n in os.listdir(parent) if ".tlp-" in n)


def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def signals(args, problems):
    work = os.path.join(args.work, "signals")
    os.makedirs(work)
    ir = os.path.join(work, "in.yaml")
    subprocess.run([args.tlp_opt, "--link-provenance",
                    os.path.join(args.inputs, "jit_cuda_train.log"), "-o", ir],
                   check=True)
    with open(ir) as f:
        text = f.read()
    # The header and the first unit; the rest is held back until the signal.
    first = text[:text.index("\n--- !tlp.unit", text.index("--- !tlp.unit") + 1) + 1]
    shapes = [
        ("json", [args.tlp_emit, "--json", "-", "-o"], "out.json"),
        ("html", [args.tlp_emit, "--html", "-", "-o"], "html"),
        ("dump", [args.tlp_emit, "--dump", "-", "-o"], "dump"),
        ("ir", [args.tlp_opt, "-", "-o"], "out.yaml"),
    ]
    runs = 0
    for name, cmd, out in shapes:
        for sig in (signal.SIGTERM, signal.SIGINT):
            for earlier in (False, True):
                runs += 1
                what = "%s, %s, %s earlier output" % (
                    name, sig.name, "with" if earlier else "no")
                target = os.path.join(work, out)
                remove(target)
                if earlier:
                    subprocess.run(cmd + [target], input=text.encode(),
                                   check=True, stderr=subprocess.DEVNULL)
                before = snapshot(target)
                # Default actions in the child: a shell that runs tests in
                # the background may have SIGINT ignored (tlp keeps an
                # ignored signal ignored, as it should).
                p = subprocess.Popen(cmd + [target], stdin=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL,
                                     preexec_fn=default_signals)
                p.stdin.write(first.encode())
                p.stdin.flush()
                deadline = time.time() + 20
                while not temps(work) and time.time() < deadline:
                    time.sleep(0.01)
                if not temps(work):
                    problems.append(what + ": no temporary sibling appeared")
                p.send_signal(sig)
                try:
                    p.stdin.close()
                except BrokenPipeError:
                    pass
                rc = p.wait(timeout=30)
                if rc not in (-sig, 128 + sig, 1):
                    problems.append("%s: exit %d" % (what, rc))
                if snapshot(target) != before:
                    problems.append(what + ": the output changed")
                left = temps(work)
                if left:
                    problems.append(what + ": left " + ", ".join(left))
                    for n in left:
                        remove(os.path.join(work, n))
    print("signals: %d runs, %d problems" % (runs, len(problems)))


def concurrent(args, problems):
    work = os.path.join(args.work, "concurrent")
    os.makedirs(work)
    inputs = [os.path.join(args.inputs, "jit_cuda_train.log"),
              os.path.join(args.inputs, "jit_cpu_v1.log")]
    shapes = [("json", "same.json"), ("html", "same"), ("dump", "samedump")]
    count = len(problems)
    runs = 0
    for fmt, out in shapes:
        target = os.path.join(work, out)
        expected = []
        for log in inputs:
            remove(target)
            subprocess.run([args.tlp_emit, "--" + fmt, log, "-o", target],
                           check=True, stderr=subprocess.DEVNULL)
            expected.append(snapshot(target))
        for round_ in range(3):
            procs = [subprocess.Popen(
                [args.tlp_emit, "--" + fmt, inputs[i % 2], "-o", target],
                stderr=subprocess.PIPE) for i in range(8)]
            for p in procs:
                _, err = p.communicate(timeout=120)
                runs += 1
                if p.returncode != 0:
                    problems.append("%s round %d: exit %d: %s" % (
                        fmt, round_, p.returncode, err.decode()[-300:]))
            if snapshot(target) not in expected:
                problems.append("%s round %d: the output is a mixture" % (
                    fmt, round_))
            left = temps(work)
            if left:
                problems.append("%s round %d: left %s" % (
                    fmt, round_, ", ".join(left)))
    print("concurrent: %d runs, %d problems" % (runs, len(problems) - count))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlp-emit", required=True)
    ap.add_argument("--tlp-opt", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    remove(args.work)
    os.makedirs(args.work)
    problems = []
    signals(args, problems)
    n = len(problems)
    concurrent(args, problems)
    for p in problems:
        print("problem: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
