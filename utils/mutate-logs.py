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
through `tlp-emit --json MUTANT -o OUT` and must (rules 1 to 3 are
tlplog.verdict.judge's, which every campaign keeps):

  1. not crash: exit 0 or 1, no signal, no crash report, within the
     timeout;
  2. after exit 1, have printed an error and left no output file (never
     a valid-looking output after a failure);
  3. after exit 0, have written valid JSON of schema tlp-json/3;
  4. keep every unit and link of the unmutated log, or say why: if the
     units, kernels or node links decreased, at least one warning or error
     must have been printed.

One kind of mutant is exempt from rule 4, by name in the summary: a log
truncated right after a line break that ends an event (the next line of
the unmutated log is an event line, or there is none), or right before
that break when the event ends in a payload line. What is left is a
whole, valid log of a run that logged less; nothing in it can tell that
more came after: the payload's md5 covers its lines, not the last break,
and whole logs lack that break (the corpus's simple.log). A cut inside a
payload is told by the payload's md5, and a cut envelope line with no
payload by its missing line break; neither is exempt.

Prints a summary (mutants per kind, exit codes, how many lost something
and said why, how many were exempt) and every violation; exits 1 if any
rule was broken (--allow-silent: not for rule 4, to explore).
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tlplog import verdict  # noqa: E402
from tlplog.mutate import KINDS, clean_cut, find_logs, mutate  # noqa: E402


def run(tool, log, out, timeout):
    if os.path.exists(out):
        os.remove(out)
    return verdict.run([tool, "--json", log, "-o", out], timeout)


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
    work = args.work or tempfile.mkdtemp(prefix="tlp-mutate-")
    os.makedirs(work, exist_ok=True)
    # A fixture described in YAML (test/Inputs) is mutated as the log that
    # tlp-yaml2log, next to tlp-emit, makes of it.
    yaml2log = os.path.join(os.path.dirname(args.tlp_emit), "tlp-yaml2log")
    found = list(find_logs(paths))
    n = 0
    for p in paths:
        for root, _, files in (os.walk(p) if os.path.isdir(p) else []):
            for f in sorted(files):
                if f.endswith(".yaml"):
                    made = os.path.join(work, "fixtures", "%d-%s.log" % (n, f[:-5]))
                    n += 1
                    os.makedirs(os.path.dirname(made), exist_ok=True)
                    subprocess.run([yaml2log, os.path.join(root, f), "-o", made],
                                   check=True)
                    found.append(made)
    logs = [l for l in sorted(found) if os.path.getsize(l) <= args.max_log_bytes]
    rng = random.Random(args.seed)
    start = time.time()

    base = {}
    base_problems = []
    for log in logs:
        out = os.path.join(work, "base.json")
        rc, err = run(args.tlp_emit, log, out, args.timeout)
        if rc == 0:
            base[log] = (open(log, "rb").read(), verdict.summary(out))
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
        data, before = base[log]
        units0, kernels0, links0 = before
        kind = rng.choice(KINDS)
        per_kind[kind] += 1
        mutated = mutate(data, kind, rng)
        clean = clean_cut(data, mutated, kind)
        with open(mutant, "wb") as f:
            f.write(mutated)
        rc, err = run(args.tlp_emit, mutant, out, args.timeout)
        codes[rc] = codes.get(rc, 0) + 1
        what = "mutant %d (%s of %s)" % (n, kind, os.path.basename(log))
        # Rules 1 to 3 (tlplog.verdict.judge).
        broken = verdict.judge([None if rc == "timeout" else rc], err, out)
        if rc == "timeout":
            broken.insert(0, "no exit within %s s" % args.timeout)
        if broken:
            problems.append("%s: %s\n%s" % (what, "; ".join(broken),
                                            err[-2000:]))
            if rc not in (0, 1):
                keep = os.path.join(work, "crash-%d.log" % n)
                os.replace(mutant, keep)
            continue
        if rc == 1:
            continue
        units, kernels, links = after = verdict.summary(out)
        # Rule 4.
        lost = verdict.lost(before, after)
        if lost and verdict.said_something(err):
            lost_said += 1
        elif lost and clean:
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
          "why: %d; exempt, cut at the end of an event (a whole, shorter log, "
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
