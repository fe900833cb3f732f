#!/usr/bin/env python3
"""Mutation campaign: damage real logs thousands of ways, run tlp on each.

    mutate-logs.py --tlp-emit PATH [--logs FILE|DIR ...] [-n N] [--seed S]
                   [--work DIR] [--timeout SEC]

Takes every log given (files, or the files of directories; by default the
corpus `../shared/corpus` with its rank logs, `build/torch-logs` and
`test/Inputs` when present), and makes N mutants (default 2000) spread
over them, with a fixed seed (default 13): a line dropped, duplicated or
cut, an event envelope line dropped, an event repeated or moved first or
swapped with the next, a compile-id or rank field given as "3", 3.0, -1 or
2^63, a byte flipped, the log truncated, garbage inserted. Each mutant goes
through `tlp-emit --json MUTANT -o OUT` and must:

  1. not crash: exit 0 or 1, no signal, within the timeout;
  2. after exit 1, leave no output file (never a valid-looking output
     after a failure);
  3. after exit 0, have written valid JSON;
  4. keep every unit and link of the unmutated log, or say why: if the
     units, kernels or node links decreased, at least one warning or error
     must have been printed.

One kind of mutant is exempt from rule 4, by name in the summary: a log
truncated right after a line break that ends an event (the next line of
the unmutated log is an event line, or there is none). What is left is a
whole, valid log of a run that logged less; nothing in it can tell that
more came after (a cut inside a payload is told by the payload's md5 or
by the last line's missing line break, and is not exempt).

Prints a summary (mutants per kind, exit codes, how many lost something
and said why, how many were exempt) and every violation; exits 1 if any
rule was broken (--allow-silent: not for rule 4, to explore).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

KINDS = ["drop-line", "dup-line", "cut-line", "drop-envelope", "dup-event",
         "event-first", "swap-events", "id-field", "flip-byte", "truncate",
         "garbage"]
ID_VALUES = ['"3"', "3.0", "-1", "9223372036854775807", "9223372036854775808",
             "null", "true", '"x"', "1e3"]
ID_KEYS = ["frame_id", "frame_compile_id", "attempt", "rank",
           "compiled_autograd_id"]


def find_logs(paths):
    logs = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith((".log", ".txt")) and "README" not in f:
                        logs.append(os.path.join(root, f))
        elif os.path.isfile(p):
            logs.append(p)
    return sorted(set(logs))


def events(lines):
    out = []
    for i, l in enumerate(lines):
        if not l.startswith(b"\t") and b"] {" in l:
            j = i + 1
            while j < len(lines) and lines[j].startswith(b"\t"):
                j += 1
            out.append((i, j))
    return out


def mutate(data, kind, rng):
    lines = data.split(b"\n")
    ev = events(lines)
    if kind == "drop-line" and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    elif kind == "dup-line":
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == "cut-line":
        i = rng.randrange(len(lines))
        lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    elif kind == "drop-envelope" and ev:
        b, _ = rng.choice(ev)
        del lines[b]
    elif kind == "dup-event" and ev:
        b, e = rng.choice(ev)
        lines[e:e] = lines[b:e]
    elif kind == "event-first" and ev:
        b, e = rng.choice(ev)
        lines = lines[b:e] + lines[:b] + lines[e:]
    elif kind == "swap-events" and len(ev) > 1:
        k = rng.randrange(len(ev) - 1)
        (b1, e1), (b2, e2) = ev[k], ev[k + 1]
        lines = lines[:b1] + lines[b2:e2] + lines[b1:e1] + lines[e2:]
    elif kind == "id-field" and ev:
        b, _ = rng.choice(ev)
        key = rng.choice(ID_KEYS).encode()
        val = rng.choice(ID_VALUES).encode()
        l = lines[b]
        p = l.find(b'"' + key + b'": ')
        if p >= 0:
            q = p + len(key) + 4
            r = q
            while r < len(l) and l[r:r + 1] not in (b",", b"}"):
                r += 1
            lines[b] = l[:q] + val + l[r:]
        else:
            lines[b] = l[:-1] + b', "' + key + b'": ' + val + b"}"
    elif kind == "flip-byte" and data:
        d = bytearray(data)
        i = rng.randrange(len(d))
        d[i] ^= 1 << rng.randrange(8)
        return bytes(d)
    elif kind == "truncate" and data:
        return data[:rng.randrange(len(data))]
    elif kind == "garbage":
        i = rng.randrange(len(lines) + 1)
        lines.insert(i, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))))
    return b"\n".join(lines)


def summary(path):
    """Units, kernels and links of a JSON output."""
    with open(path) as f:
        d = json.load(f)
    units = set()
    kernels = links = 0
    for u in d["units"]:
        units.add(u["id"])
        for k in u["kernels"]:
            kernels += 1
            links += len(k.get("pre_nodes", [])) + len(k.get("post_nodes", []))
    return units, kernels, links


def run(tool, log, out, timeout):
    if os.path.exists(out):
        os.remove(out)
    try:
        p = subprocess.run([tool, "--json", log, "-o", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def said_something(err):
    return any(": warning: " in l or ": error: " in l for l in err.splitlines())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlp-emit", required=True)
    ap.add_argument("--logs", nargs="*")
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--work")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--allow-silent", action="store_true",
                    help="do not fail on silent losses (rule 4)")
    ap.add_argument("--strict", action="store_true",
                    help="accepted for old command lines: rule 4 is "
                         "always enforced unless --allow-silent")
    ap.add_argument("--max-log-bytes", type=int, default=4 << 20,
                    help="skip logs larger than this (time)")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = args.logs if args.logs else [
        os.path.join(root, "..", "shared", "corpus"),
        os.path.join(root, "build", "torch-logs"),
        os.path.join(root, "test", "Inputs")]
    logs = [l for l in find_logs(paths)
            if os.path.getsize(l) <= args.max_log_bytes]
    work = args.work or tempfile.mkdtemp(prefix="tlp-mutate-")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(args.seed)
    start = time.time()

    base = {}
    base_problems = []
    for log in logs:
        out = os.path.join(work, "base.json")
        rc, err = run(args.tlp_emit, log, out, args.timeout)
        if rc == 0:
            base[log] = (open(log, "rb").read(), summary(out))
        elif rc != 1:
            # A timeout or crash would silently change the campaign.
            base_problems.append("%s (unmutated): exit %s\n%s" % (
                log, rc, err[-2000:]))
    logs = sorted(base)
    if not logs:
        print("mutate-logs: no logs to mutate")
        return 1

    problems = base_problems
    silent = []
    per_kind = {k: 0 for k in KINDS}
    codes = {}
    lost_said = unchanged = 0
    out = os.path.join(work, "out.json")
    os.makedirs(os.path.join(work, "m"), exist_ok=True)
    clean_cuts = 0
    for n in range(args.n):
        log = logs[n % len(logs)]
        # The log's own name: a rank log's name gives its rank.
        mutant = os.path.join(work, "m", os.path.basename(log))
        data, (units0, kernels0, links0) = base[log]
        kind = rng.choice(KINDS)
        per_kind[kind] += 1
        mutated = mutate(data, kind, rng)
        # A log cut right after the line break that ends an event is a
        # whole, shorter log: what it lacks cannot be told from a run that
        # logged less. (A cut inside a payload is not one: the md5 tells.)
        rest = data[len(mutated):].split(b"\n", 1)[0]
        clean_cut = (kind == "truncate" and
                     (not mutated or mutated.endswith(b"\n")) and
                     (not rest.startswith(b"\t") and rest.strip() != b""
                      or len(mutated) == len(data)))
        with open(mutant, "wb") as f:
            f.write(mutated)
        rc, err = run(args.tlp_emit, mutant, out, args.timeout)
        codes[rc] = codes.get(rc, 0) + 1
        what = "mutant %d (%s of %s)" % (n, kind, os.path.basename(log))
        if rc not in (0, 1):
            problems.append("%s: exit %s\n%s" % (what, rc, err[-2000:]))
            keep = os.path.join(work, "crash-%d.log" % n)
            os.replace(mutant, keep)
            continue
        if rc == 1:
            if os.path.exists(out):
                problems.append(what + ": exit 1 but an output was written")
            if not said_something(err):
                problems.append(what + ": exit 1 without an error")
            continue
        try:
            units, kernels, links = summary(out)
        except (ValueError, KeyError) as e:
            problems.append("%s: exit 0 with invalid JSON: %s" % (what, e))
            continue
        lost = not units0 <= units or kernels < kernels0 or links < links0
        if lost and said_something(err):
            lost_said += 1
        elif lost and clean_cut:
            clean_cuts += 1
        elif lost:
            keep = os.path.join(work, "silent-%d.log" % n)
            os.replace(mutant, keep)
            silent.append(
                "%s: lost units/kernels/links (%d/%d/%d -> %d/%d/%d) without "
                "a diagnostic; kept as %s" % (
                    what, len(units0), kernels0, links0, len(units), kernels,
                    links, keep))
        else:
            unchanged += 1

    secs = time.time() - start
    print("mutate-logs: %d mutants of %d logs, seed %d, %.0f s" % (
        args.n, len(logs), args.seed, secs))
    print("kinds: " + ", ".join("%s %d" % (k, per_kind[k]) for k in KINDS))
    print("exit codes: " + ", ".join(
        "%s: %d" % (k, v) for k, v in sorted(codes.items(), key=str)))
    print("exit 0 keeping every unit and link: %d; losing some and saying "
          "why: %d; exempt, cut between two events (a whole, shorter log, "
          "nothing to tell): %d" % (
              unchanged, lost_said, clean_cuts))
    print("violations (crash, exit code, output after failure, bad JSON): %d"
          % len(problems))
    print("silent losses: %d" % len(silent))
    for p in problems:
        print("violation: " + p)
    for p in silent:
        print("silent loss: " + p)
    return 1 if problems or (silent and not args.allow_silent) else 0


if __name__ == "__main__":
    sys.exit(main())
