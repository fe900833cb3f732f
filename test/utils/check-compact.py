#!/usr/bin/env python3
"""The compact IR (tlp-opt --compact) holds what the text holds.

    check-compact.py --tools BIN --tmp TMP [--passes P,...]
                     [--formats json,md,html,...] [--pipe-formats html,...]
                     [--torch-logs DIR] INPUT...

For every INPUT (a log, a directory of logs, or a run directory of
utils/gen-torch-logs.py under --torch-logs: its `trace` directory):

  - `tlp-opt --compact` gives the same exit status and diagnostics as
    `tlp-opt`, and the same IR: `tlp-opt` reading the compact form back
    prints the text byte for byte (YAML -> compact -> YAML), from the file
    and from stdin; `tlp-opt --compact` reading the text prints the same
    compact bytes as from the log;
  - every format of --formats that `tlp-emit` writes from the text IR
    file, it writes from the compact IR file byte for byte (an output
    file, or every file of an output directory), with the same exit status
    and diagnostics;
  - every format of --pipe-formats through a pipe: `tlp-opt INPUT |
    tlp-emit --FMT -` and `tlp-opt --compact INPUT | tlp-emit --FMT -`
    write the same bytes.

Prints one line per input and `check-compact: N inputs, M outputs
compared, D differ`; exit 1 if any differ (each difference is listed).
"""
import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys

# tlp-emit formats whose output is a directory.
DIR_FORMATS = {"html", "dump"}


def run(cmd, stdin=None, input_bytes=None, cwd=None):
    return subprocess.run(cmd, stdin=stdin, input=input_bytes,
                          capture_output=True, cwd=cwd)


def same_tree(a, b):
    """'' if file or directory a and b hold the same bytes, else why not."""
    if os.path.isdir(a) != os.path.isdir(b):
        return "one is a directory"
    if not os.path.isdir(a):
        if not os.path.exists(a) or not os.path.exists(b):
            return "missing: %s" % (a if not os.path.exists(a) else b)
        return "" if filecmp.cmp(a, b, shallow=False) else "bytes differ"
    names_a = sorted(os.listdir(a))
    names_b = sorted(os.listdir(b))
    if names_a != names_b:
        return "files differ: %s" % sorted(set(names_a) ^ set(names_b))[:5]
    for n in names_a:
        why = same_tree(os.path.join(a, n), os.path.join(b, n))
        if why:
            return "%s: %s" % (n, why)
    return ""


def inputs_of(args):
    """(path, short name) of each input."""
    out = [(p, os.path.basename(p.rstrip("/"))) for p in args.inputs]
    if args.torch_logs:
        top = json.load(open(os.path.join(args.torch_logs, "manifest.json")))
        names = [r["name"] if isinstance(r, dict) else r
                 for r in top.get("runs", top)]
        for name in sorted(names):
            m = os.path.join(args.torch_logs, name, "manifest.json")
            trace = json.load(open(m)).get("trace") if os.path.exists(m) else None
            if trace:
                out.append((os.path.join(args.torch_logs, name, trace),
                            name + "/" + trace))
    return out


def check(args, path, short, tmp, problems):
    tools = args.tools
    opt = [os.path.join(tools, "tlp-opt"), "--verify-each"]
    emit = [os.path.join(tools, "tlp-emit"), "--verify-each"]
    passes = ["--" + p for p in args.passes.split(",") if p]
    label = path
    a = os.path.join(tmp, "text")
    b = os.path.join(tmp, "compact")
    for d in (a, b):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    ta, tb = os.path.join(a, "ir"), os.path.join(b, "ir")
    pa = run(opt + passes + [path, "-o", ta])
    pb = run(opt + passes + ["--compact", path, "-o", tb])
    compared = 0
    if (pa.returncode, pa.stderr) != (pb.returncode, pb.stderr):
        problems.append("%s: tlp-opt --compact: exit %d, text %d; stderr:\n%s"
                        % (label, pb.returncode, pa.returncode,
                           pb.stderr.decode("utf-8", "replace")[-800:]))
        return 0
    if pa.returncode != 0 or not os.path.exists(ta):
        print("%s: tlp-opt exit %d, no IR to compare" % (label, pa.returncode))
        return 0
    with open(tb, "rb") as f:
        if not f.read(4) == b"\x89tlp":
            problems.append("%s: --compact wrote no compact IR" % label)
            return 0
    # YAML -> compact -> YAML, from a file and from stdin.
    back = os.path.join(tmp, "back.yaml")
    p = run(opt + [tb, "-o", back])
    compared += 1
    if p.returncode != 0 or same_tree(ta, back):
        problems.append("%s: the compact IR read back is not the text (exit "
                        "%d): %s" % (label, p.returncode,
                                     p.stderr.decode("utf-8", "replace")[-400:]))
    with open(tb, "rb") as f:
        p = run(opt + ["-", "-o", back], stdin=f)
    compared += 1
    if p.returncode != 0 or same_tree(ta, back):
        problems.append("%s: the compact IR read back from stdin is not the "
                        "text (exit %d)" % (label, p.returncode))
    again = os.path.join(tmp, "again.tlpc")
    p = run(opt + ["--compact", ta, "-o", again])
    compared += 1
    if p.returncode != 0 or same_tree(tb, again):
        problems.append("%s: the text IR made compact is not what the log "
                        "made (exit %d)" % (label, p.returncode))
    for fmt in [f for f in args.formats.split(",") if f]:
        # Each in its directory, as `ir`, so that the names they print and
        # write are the same.
        oa, ob = os.path.join(a, "out." + fmt), os.path.join(b, "out." + fmt)
        ea = run(emit + ["--" + fmt, "ir", "-o", "out." + fmt], cwd=a)
        eb = run(emit + ["--" + fmt, "ir", "-o", "out." + fmt], cwd=b)
        compared += 1
        why = ""
        if (ea.returncode, ea.stderr) != (eb.returncode, eb.stderr):
            why = "exit %d against %d, stderr:\n%s\n---\n%s" % (
                eb.returncode, ea.returncode,
                ea.stderr.decode("utf-8", "replace")[-400:],
                eb.stderr.decode("utf-8", "replace")[-400:])
        elif os.path.exists(oa) or os.path.exists(ob):
            why = same_tree(oa, ob)
        if why:
            problems.append("%s: tlp-emit --%s: %s" % (label, fmt, why))
    for fmt in [f for f in args.pipe_formats.split(",") if f]:
        outs = []
        for compact in (False, True):
            # In a directory each, as `out.FMT`: the command line is in
            # the output.
            d = os.path.join(tmp, "pipe-c" if compact else "pipe-t")
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            o = os.path.join(d, "out." + fmt)
            cmd = opt + passes + (["--compact"] if compact else []) + [path]
            prod = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL)
            cons = run(emit + ["--" + fmt, "-", "-o", "out." + fmt],
                       stdin=prod.stdout, cwd=d)
            prod.stdout.close()
            prod.wait()
            outs.append((o, prod.returncode, cons.returncode, cons.stderr))
        compared += 1
        (oa, pra, ra, sa), (ob, prb, rb, sb) = outs
        why = ""
        if (pra, ra, sa) != (prb, rb, sb):
            why = "exits %s against %s, stderr:\n%s\n---\n%s" % (
                (prb, rb), (pra, ra), sa.decode("utf-8", "replace")[-400:],
                sb.decode("utf-8", "replace")[-400:])
        elif os.path.exists(oa) or os.path.exists(ob):
            why = same_tree(oa, ob)
        if why:
            problems.append("%s: tlp-opt | tlp-emit --%s: %s" % (label, fmt, why))
    print("%s: %d outputs compared" % (short if args.short else label,
                                       compared))
    return compared


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--passes", default="link-provenance")
    ap.add_argument("--formats", default="json,md,html")
    ap.add_argument("--pipe-formats", default="html")
    ap.add_argument("--torch-logs")
    ap.add_argument("--short", action="store_true",
                    help="name each input by its last component (a run "
                    "of --torch-logs: NAME/trace)")
    ap.add_argument("inputs", nargs="*")
    args = ap.parse_args()
    # Tools run in the output directories.
    args.tools = os.path.abspath(args.tools)
    args.tmp = os.path.abspath(args.tmp)
    os.makedirs(args.tmp, exist_ok=True)
    problems = []
    total = 0
    inputs = inputs_of(args)
    for path, short in inputs:
        total += check(args, path, short, args.tmp, problems)
    print("check-compact: %d inputs, %d outputs compared, %d differ" % (
        len(inputs), total, len(problems)))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
