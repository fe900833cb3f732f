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

faults (issue 19), with the TLP_FAULT hooks (docs/testing.md):
  - no exchange (NFS): a run swaps with two renames and succeeds; SIGTERM,
    SIGINT or SIGHUP between the two renames leaves the old output whole
    at its name and no temporary;
  - a signal during the removal of an old output holding an entry that
    cannot be deleted ends the process within 10 s (it looped forever);
  - where it runs as root on a file system with `chattr +i`, a really
    immutable file in the old output: the run ends with a warning and the
    new output in place;
  - SIGKILL in the middle of writing leaves a temporary; the next
    successful run removes it;
  - an input cut while it is read (a real truncation, racing the reader,
    on a 20 MB log): exit 0 or 1, never a crash; exit 1 says that the file
    changed;
  - an output in a directory the user cannot write (as nobody when root):
    the message names the directory.

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
    subprocess.run([args.tlp_opt, "--verify-each", "--link-provenance",
                    os.path.join(args.inputs, "jit_cuda_train.log"), "-o", ir],
                   check=True)
    with open(ir) as f:
        text = f.read()
    # The header and the first unit; the rest is held back until the signal.
    first = text[:text.index("\n--- !tlp.unit", text.index("--- !tlp.unit") + 1) + 1]
    shapes = [
        ("json", [args.tlp_emit, "--verify-each", "--json", "-", "-o"], "out.json"),
        ("html", [args.tlp_emit, "--verify-each", "--html", "-", "-o"], "html"),
        ("dump", [args.tlp_emit, "--verify-each", "--dump", "-", "-o"], "dump"),
        ("ir", [args.tlp_opt, "--verify-each", "-", "-o"], "out.yaml"),
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
            subprocess.run([args.tlp_emit, "--verify-each", "--" + fmt, log, "-o", target],
                           check=True, stderr=subprocess.DEVNULL)
            expected.append(snapshot(target))
        for round_ in range(3):
            procs = [subprocess.Popen(
                [args.tlp_emit, "--verify-each", "--" + fmt, inputs[i % 2], "-o", target],
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


def wait_for(p, text, limit=20):
    """Read p's stderr until a line holds text (or the limit); the lines."""
    lines = []
    deadline = time.time() + limit
    while time.time() < deadline:
        line = p.stderr.readline()
        if not line:
            break
        lines.append(line.decode(errors="replace"))
        if text in lines[-1]:
            break
    return lines


def faults(args, problems):
    work = os.path.join(args.work, "faults")
    os.makedirs(work)
    count = len(problems)
    runs = 0
    logs = [os.path.join(args.inputs, "jit_cuda_train.log"),
            os.path.join(args.inputs, "handles.log")]

    def env(fault):
        e = dict(os.environ)
        e["TLP_FAULT"] = fault
        return e

    # No RENAME_EXCHANGE: a signal between the two renames.
    for fmt in ("html", "dump"):
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            runs += 1
            what = "no exchange, %s, %s between the renames" % (fmt, sig.name)
            target = os.path.join(work, "nx-" + fmt)
            remove(target)
            subprocess.run([args.tlp_emit, "--verify-each", "--" + fmt, logs[0], "-o", target],
                           check=True)
            before = snapshot(target)
            p = subprocess.Popen(
                [args.tlp_emit, "--verify-each", "--" + fmt, logs[1], "-o", target],
                stderr=subprocess.PIPE, preexec_fn=default_signals,
                env=env("no-exchange,pause=between-renames"))
            seen = wait_for(p, "paused at between-renames")
            if not any("paused" in l for l in seen):
                problems.append(what + ": never paused: " + "".join(seen))
            p.send_signal(sig)
            try:
                rc = p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
                problems.append(what + ": still running 10 s after the signal")
            if rc != -sig:
                problems.append("%s: exit %d" % (what, rc))
            if snapshot(target) != before:
                problems.append(what + ": the old output is not back whole")
            left = temps(work)
            if left:
                problems.append(what + ": left " + ", ".join(left))
                for n in left:
                    remove(os.path.join(work, n))
        runs += 1
        target = os.path.join(work, "nx-" + fmt)
        subprocess.run([args.tlp_emit, "--verify-each", "--" + fmt, logs[0], "-o", target],
                       check=True)
        r = subprocess.run([args.tlp_emit, "--verify-each", "--" + fmt, logs[1], "-o", target],
                           stderr=subprocess.PIPE, env=env("no-exchange"))
        got = snapshot(target)
        subprocess.run([args.tlp_emit, "--verify-each", "--" + fmt, logs[1], "-o", target],
                       check=True)
        if r.returncode != 0 or got != snapshot(target):
            problems.append("no exchange, %s: exit %d, %s" % (
                fmt, r.returncode, "the new output" if got == snapshot(target)
                else "not the new output"))

    # A signal while an undeletable old output is being removed. The new
    # output's files: those of an undisturbed run.
    fresh = os.path.join(work, "fresh")
    subprocess.run([args.tlp_emit, "--html", logs[1], "-o", fresh], check=True)
    want_files = sorted(os.listdir(fresh))
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        for extra in ("", ",no-exchange"):
            runs += 1
            what = "undeletable, %s during the removal%s" % (
                sig.name, extra.replace(",", ", "))
            target = os.path.join(work, "stuck")
            subprocess.run([args.tlp_emit, "--verify-each", "--html", logs[0], "-o", target],
                           check=True)
            p = subprocess.Popen(
                [args.tlp_emit, "--verify-each", "--html", logs[1], "-o", target],
                stderr=subprocess.PIPE, preexec_fn=default_signals,
                env=env("undeletable=index.html,pause=before-remove" + extra))
            wait_for(p, "paused at before-remove")
            p.send_signal(sig)
            try:
                rc = p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
                problems.append(what + ": still running 10 s after the signal")
            if rc != -sig:
                problems.append("%s: exit %d" % (what, rc))
            if sorted(os.listdir(target)) != want_files:
                problems.append(what + ": the new output is not in place")
            # What could not be removed is left; a later run removes it.
            subprocess.run([args.tlp_emit, "--verify-each", "--html", logs[1], "-o", target],
                           check=True)
            left = temps(work)
            if left:
                problems.append(what + ": left after a later run " +
                                ", ".join(left))
                for n in left:
                    remove(os.path.join(work, n))

    # A really immutable file (root, ext4 and the like).
    target = os.path.join(work, "immutable")
    subprocess.run([args.tlp_emit, "--verify-each", "--html", logs[0], "-o", target],
                   check=True)
    victim = os.path.join(target, "tlp.css")
    if os.geteuid() == 0 and shutil.which("chattr") and subprocess.run(
            ["chattr", "+i", victim], stderr=subprocess.DEVNULL).returncode == 0:
        runs += 1
        try:
            r = subprocess.run(
                [args.tlp_emit, "--verify-each", "--html", logs[1], "-o", target],
                stderr=subprocess.PIPE, timeout=60)
            err = r.stderr.decode()
            if r.returncode != 0 or "'tlp.css' is left" not in err:
                problems.append("immutable: exit %d: %s" % (r.returncode, err))
        except subprocess.TimeoutExpired:
            problems.append("immutable: still running after 60 s")
        finally:
            for n in temps(work):
                subprocess.run(["chattr", "-i",
                                os.path.join(work, n, "tlp.css")],
                               stderr=subprocess.DEVNULL)
                remove(os.path.join(work, n))
            subprocess.run(["chattr", "-i", victim], stderr=subprocess.DEVNULL)
    else:
        print("faults: no chattr +i here (not root, or the file system has "
              "no immutable flag); the TLP_FAULT runs stand in")

    # SIGKILL leaves a temporary; the next successful run removes it.
    for fmt, out in (("json", "k.json"), ("html", "khtml")):
        runs += 1
        target = os.path.join(work, out)
        p = subprocess.Popen(
            [args.tlp_emit, "--verify-each", "--" + fmt, logs[0], "-o", target],
            stderr=subprocess.PIPE, env=env("pause=before-remove") if fmt ==
            "html" else None, stdin=subprocess.DEVNULL)
        if fmt == "html":
            subprocess.run([args.tlp_emit, "--verify-each", "--html", logs[1], "-o", target],
                           check=True)
        p.kill()
        p.wait()
        # A killed run of each kind, planted by hand if the kill was late.
        if not temps(work):
            os.makedirs(os.path.join(work, ".%s.tlp-tmp-%s-%d-zzzzzz" % (
                out, "00000000", p.pid)))
        subprocess.run([args.tlp_emit, "--verify-each", "--" + fmt, logs[1], "-o", target],
                       check=True)
        left = [n for n in temps(work) if "-00000000-" not in n]
        if left:
            problems.append("SIGKILL, %s: left after the next run: %s" % (
                fmt, ", ".join(left)))
        for n in temps(work):
            remove(os.path.join(work, n))

    # An input cut while it is read, for real: a 20 MB log, truncated by
    # another process as soon as the reader starts.
    big = os.path.join(work, "big.log")
    with open(logs[0], "rb") as f:
        one = f.read()
    with open(big, "wb") as f:
        for _ in range(max(1, (20 << 20) // len(one))):
            f.write(one)
    data = open(big, "rb").read()
    for delay in (0.0, 0.01, 0.03, 0.1):
        runs += 1
        with open(big, "wb") as f:
            f.write(data)
        p = subprocess.Popen([args.tlp_emit, "--verify-each", "--json", big, "-o",
                              os.path.join(work, "cut.json")],
                             stderr=subprocess.PIPE)
        time.sleep(delay)
        os.truncate(big, 4096)
        _, err = p.communicate(timeout=120)
        err = err.decode(errors="replace")
        if p.returncode not in (0, 1) or (
                p.returncode == 1 and "changed while it was read" not in err
                and "error" not in err):
            problems.append("input cut after %g s: exit %d: %s" % (
                delay, p.returncode, err[-300:]))
    for n in temps(work):
        problems.append("input cut: left " + n)
        remove(os.path.join(work, n))
    # An output in a directory the user cannot write: the message names the
    # directory (it named the output, which may itself be writable). Root
    # writes anywhere, so as root the run is made as nobody.
    ro = os.path.join(work, "ro")
    os.makedirs(ro)
    with open(os.path.join(ro, "x.json"), "w") as f:
        f.write("{}")
    os.chmod(os.path.join(ro, "x.json"), 0o666)
    os.chmod(ro, 0o555)
    os.chmod(work, 0o755)
    os.chmod(args.work, 0o755)

    def as_user():
        if os.geteuid() == 0:
            os.setgid(65534)
            os.setuid(65534)

    for fmt, out, want in (
            ("json", "x.json", "cannot open output file '%s': cannot create "
             "a file in the directory '%s': Permission denied"),
            ("html", "h", "cannot create directory '%s': cannot create a "
             "directory in the directory '%s': Permission denied")):
        runs += 1
        target = os.path.join(ro, out)
        r = subprocess.run([args.tlp_emit, "--verify-each", "--" + fmt, logs[1], "-o", target],
                           stderr=subprocess.PIPE, preexec_fn=as_user)
        err = r.stderr.decode()
        if r.returncode != 1 or want % (target, ro) not in err:
            problems.append("unwritable directory, %s: exit %d: %s" % (
                fmt, r.returncode, err.strip()))
    os.chmod(ro, 0o755)
    print("faults: %d runs, %d problems" % (runs, len(problems) - count))


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
    faults(args, problems)
    for p in problems:
        print("problem: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
