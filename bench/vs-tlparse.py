#!/usr/bin/env python3
"""tlp and tlparse side by side: wall time, peak RSS and output size.

    bench/vs-tlparse.py [--build build] [--tlparse build/torch-venv/bin/tlparse]
                        [--gpt LOG] [--copies 56,330] [--work DIR] [--keep]

Inputs: the GPT-sized log utils/gen-torch-logs.py wrote
(build/torch-logs/gpt/trace/*.log, PyTorch 2.13, INDUCTOR_PROVENANCE=1), and
N copies of every corpus log made with ../shared/bench/replicate-log.py
(56 copies: 356 MB, 330: 2.1 GB; the logs of bench/bench.py). For each, one
run of each command, page cache warm (the log is read once before):

  tlparse    tlparse LOG --inductor-provenance --no-browser --overwrite -o DIR
  tlp-html   tlp-emit --html LOG -o DIR/
  tlp-json   tlp-emit --json LOG -o out.json

Wall time and peak RSS come from GNU time (/usr/bin/time); the output size
is the size of DIR (or out.json). Prints a Markdown table with the ratios
tlparse / tlp-html; docs/performance.md records it. Big files go under
--work (default: a new directory under build/), never the source tree."""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def du(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(d, f))
    return total


def timed(argv, tmp):
    f = os.path.join(tmp, "time.txt")
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", f] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall, rss = open(f).read().split()[-2:]
    return p.returncode, float(wall), int(rss) // 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--tlparse", default=os.path.join(
        ROOT, "build", "torch-venv", "bin", "tlparse"))
    ap.add_argument("--gpt", default=None)
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--replicate", default=os.path.join(
        ROOT, "..", "shared", "bench", "replicate-log.py"))
    ap.add_argument("--copies", default="56,330")
    ap.add_argument("--work")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    emit = os.path.join(a.build, "bin", "tlp-emit")
    for tool in (emit, a.tlparse):
        if not os.access(tool, os.X_OK):
            raise SystemExit("vs-tlparse: error: no %s (utils/build.sh; "
                             "utils/install-deps.sh --torch)" % tool)
    gpt = a.gpt or (glob.glob(os.path.join(
        a.build, "torch-logs", "gpt", "trace", "*.log")) or [None])[0]
    os.makedirs(a.build, exist_ok=True)
    work = a.work or tempfile.mkdtemp(prefix="vs-tlparse-", dir=a.build)
    os.makedirs(work, exist_ok=True)
    inputs = []
    if gpt:
        inputs.append(("GPT (gen-torch-logs)", gpt))
    logs = sorted(glob.glob(os.path.join(a.corpus, "*.txt")) +
                  glob.glob(os.path.join(a.corpus, "*.log")) +
                  glob.glob(os.path.join(a.corpus, "multi_rank_logs", "*.log")))
    for n in [int(c) for c in a.copies.split(",") if c]:
        log = os.path.join(work, "corpus-x%d.log" % n)
        if not os.path.exists(log):
            subprocess.check_call([sys.executable, a.replicate, "-n", str(n),
                                   "-o", log] + logs)
        inputs.append(("corpus x%d" % n, log))
    print("| log | size | tool | exit | wall | peak RSS | output |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    ratios = []
    try:
        for label, log in inputs:
            size = os.path.getsize(log) / 1e6
            subprocess.run(["cat", log], stdout=subprocess.DEVNULL)
            res = {}
            for tool in ("tlparse", "tlp-html", "tlp-json"):
                out = os.path.join(work, "out-" + tool)
                shutil.rmtree(out, ignore_errors=True)
                if os.path.isfile(out):
                    os.remove(out)
                if tool == "tlparse":
                    argv = [a.tlparse, log, "--inductor-provenance",
                            "--no-browser", "--overwrite", "-o", out]
                elif tool == "tlp-html":
                    argv = [emit, "--html", log, "-o", out + "/"]
                else:
                    argv = [emit, "--json", log, "-o", out]
                rc, wall, rss = timed(argv, work)
                res[tool] = (wall, rss)
                print("| %s | %.0f MB | %s | %d | %.2f s | %d MB | %.0f MB |" % (
                    label, size, tool, rc, wall, rss, du(out) / 1e6), flush=True)
                shutil.rmtree(out, ignore_errors=True)
                if os.path.isfile(out):
                    os.remove(out)
            (tw, tr), (hw, hr) = res["tlparse"], res["tlp-html"]
            ratios.append("%s: tlparse / tlp-html: time %.1fx, peak RSS %.1fx"
                          % (label, tw / max(hw, 0.01), tr / max(hr, 1)))
        print()
        for r in ratios:
            print(r)
    finally:
        if not a.keep and not a.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
