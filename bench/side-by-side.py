#!/usr/bin/env python3
"""tlp against the reading limit (md5sum), shape by shape: issue 24's table.

    bench/side-by-side.py [--build build] [--shapes 356mb,2gb,64ranks,1000ranks,gpt]
                          [--runs 3] [--cores 2] [--work DIR] [--keep]
                          [--outputs DIR]

Makes each input shape once under --work (default: a new directory under
build/, never the source tree):

  356mb      one file: 56 copies of every corpus log (replicate-log.py)
  2gb        one file: 330 copies (2.1 GB)
  10gb       one file: 1,570 copies (10 GB; not in the default set: the
             memory goal's largest log, on disk rather than in memory)
  64ranks    a directory of 64 rank logs, 5 copies of the corpus each (~32 MB)
  1000ranks  a directory of 1,000 rank logs, one small corpus log each
  gpt        the GPT-sized log of utils/gen-torch-logs.py (one 5 MB unit log)

Rank logs are named dedicated_log_torch_trace_rank_N.log and their envelopes'
"rank" fields are set to N. Then, page cache warm, for each shape and --runs
times, in pairs (md5sum right before each tlp command, so both see the same
machine state):

  md5sum     md5sum FILES                       one pass of hashing, one core
  json       tlp-emit --json IN -o out.json
  html       tlp-emit --html IN -o DIR
  md         tlp-emit --md IN -o out.md
  pipe       tlp-opt --link-provenance IN | tlp-emit --html -o DIR
  pipe-compact  the same pipe with tlp-opt --compact (docs/IR.md)
  json-1t    tlp-emit --json --threads=1 IN      (the two-thread speedup)

Every process is pinned to the first --cores CPUs. A ratio is the median over
the runs of (tlp wall / md5sum wall) of each pair; peak RSS (GNU time) is the
largest of any one process, for a pipe each side. Each command writes a new
output under --outputs, all removed at the end (see command() for why).
Prints one Markdown table;
docs/performance.md records it with the commit and the date. Needs GNU time
(/usr/bin/time). Timings never go into the test suite.
"""
import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME = "/usr/bin/time"
RANK = re.compile(rb'"rank": \d+')


def corpus_logs(corpus):
    logs = []
    for dirpath, _, files in os.walk(corpus):
        for f in sorted(files):
            if f.endswith((".log", ".txt")):
                logs.append(os.path.join(dirpath, f))
    return sorted(logs)


def set_rank(src, dst, rank):
    """Copy a log, every envelope's rank set to `rank` (payloads as is)."""
    with open(src, "rb") as f, open(dst, "wb") as out:
        for line in f:
            if not line.startswith(b"\t"):
                line = RANK.sub(b'"rank": %d' % rank, line, count=1)
            out.write(line)


def make_shapes(a, shapes):
    os.makedirs(a.work, exist_ok=True)
    logs = corpus_logs(a.corpus)
    made = {}

    def replicate(n, out):
        if not os.path.exists(out):
            subprocess.run([sys.executable, a.replicate, "-n", str(n), "-o", out]
                           + logs, check=True)
        return out

    for s in shapes:
        if s == "356mb":
            made[s] = [replicate(56, os.path.join(a.work, "x56.log"))]
        elif s == "2gb":
            made[s] = [replicate(330, os.path.join(a.work, "x330.log"))]
        elif s == "10gb":
            made[s] = [replicate(1570, os.path.join(a.work, "x1570.log"))]
        elif s == "64ranks":
            d = os.path.join(a.work, "ranks64")
            one = replicate(5, os.path.join(a.work, "x5.log"))
            os.makedirs(d, exist_ok=True)
            for r in range(64):
                p = os.path.join(d, "dedicated_log_torch_trace_rank_%d.log" % r)
                if not os.path.exists(p):
                    set_rank(one, p, r)
            made[s] = [d]
        elif s == "1000ranks":
            d = os.path.join(a.work, "ranks1000")
            src = os.path.join(a.corpus, "inductor_provenance_jit_log.txt")
            os.makedirs(d, exist_ok=True)
            for r in range(1000):
                p = os.path.join(d, "dedicated_log_torch_trace_rank_%d.log" % r)
                if not os.path.exists(p):
                    set_rank(src, p, r)
            made[s] = [d]
        elif s == "gpt":
            g = sorted(glob.glob(os.path.join(a.gpt, "*.log")))
            if not g:
                sys.exit("side-by-side: no GPT log in %s (run "
                         "utils/gen-torch-logs.py)" % a.gpt)
            made[s] = [g[0]]
        else:
            sys.exit("side-by-side: unknown shape %r" % s)
    return made


def files_of(path):
    if os.path.isdir(path):
        return sorted(os.path.join(path, f) for f in os.listdir(path))
    return [path]


def size_of(path):
    return sum(os.path.getsize(f) for f in files_of(path))


def run(argvs, cpus, tmp):
    """Run a pipeline of argv lists; return (seconds, [peak RSS KiB])."""
    def pin():
        os.sched_setaffinity(0, cpus)
    procs, rss_files, prev = [], [], None
    t0 = time.perf_counter()
    for i, argv in enumerate(argvs):
        rf = os.path.join(tmp, "rss%d" % i)
        rss_files.append(rf)
        last = i == len(argvs) - 1
        p = subprocess.Popen([TIME, "-f", "%M", "-o", rf] + argv,
                             stdin=prev.stdout if prev else subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL if last else subprocess.PIPE,
                             stderr=subprocess.DEVNULL, preexec_fn=pin)
        if prev:
            prev.stdout.close()
        procs.append(p)
        prev = p
    codes = [p.wait() for p in procs]
    secs = time.perf_counter() - t0
    rss = []
    for rf in rss_files:
        with open(rf) as f:
            rss.append(int(f.read().split()[-1]))
    # tlp exits 1 when it warned; only a crash (> 1, or a signal) is fatal.
    if any(c < 0 or c > 1 for c in codes):
        sys.exit("side-by-side: %s failed (%s)" % (argvs, codes))
    return secs, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--replicate", default=os.path.join(
        ROOT, "..", "shared", "bench", "replicate-log.py"))
    ap.add_argument("--gpt", default=os.path.join(ROOT, "build", "torch-logs",
                                                  "gpt", "trace"))
    ap.add_argument("--shapes", default="356mb,2gb,64ranks,1000ranks,gpt")
    ap.add_argument("--commands",
                    default="json,html,md,pipe,pipe-compact,json-1t")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--work")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--outputs", help="where the outputs go (default: "
                    "WORK/outputs; /dev/shm for a file system in memory); "
                    "removed at the end")
    a = ap.parse_args()
    if not os.access(TIME, os.X_OK):
        sys.exit("side-by-side: needs GNU time (%s; Debian package `time`)" % TIME)
    own_work = not a.work
    if own_work:
        a.work = tempfile.mkdtemp(prefix="side-by-side.", dir=a.build)
    opt = os.path.join(a.build, "bin", "tlp-opt")
    emit = os.path.join(a.build, "bin", "tlp-emit")
    cpus = set(range(min(a.cores, os.cpu_count() or 1)))
    shapes = a.shapes.split(",")
    commands = a.commands.split(",")
    made = make_shapes(a, shapes)
    outputs = a.outputs or os.path.join(a.work, "outputs")
    os.makedirs(outputs, exist_ok=True)
    serial = [0]

    def command(name, inp):
        # Each timed command writes a new path, and no output is removed
        # until every command has run: on this machine's ext4, which has no
        # journal, creating a file right after thousands were removed makes
        # the inode allocator read the inode table for each candidate it
        # skips as recently deleted (find_inode_bit, recently_deleted: 60 s
        # or more), which tripled --html of the 356 MB log (1.0 s -> 3.1-3.5
        # s) when the last run's pages were removed before the clock
        # started. tlp itself removes an old output only after the new one
        # is written (docs/outputs.md). What is on the file system is put
        # on disk before the clock starts: --html ends with a syncfs
        # (docs/outputs.md), which would otherwise write the earlier
        # outputs' pages too.
        serial[0] += 1
        out = os.path.join(outputs, "out%d" % serial[0])
        os.sync()
        if name == "json":
            return [[emit, "--json", inp, "-o", out + ".json"]]
        if name == "json-1t":
            return [[emit, "--json", "--threads=1", inp, "-o", out + ".json"]]
        if name == "html":
            return [[emit, "--html", inp, "-o", out]]
        if name == "md":
            return [[emit, "--md", inp, "-o", out + ".md"]]
        if name == "pipe":
            return [[opt, "--link-provenance", inp], [emit, "--html", "-o", out]]
        if name == "pipe-compact":
            return [[opt, "--link-provenance", "--compact", inp],
                    [emit, "--html", "-o", out]]
        sys.exit("side-by-side: unknown command %r" % name)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for s in shapes:
            inp = made[s][0]
            files = files_of(inp)
            for f in files:  # warm the page cache
                with open(f, "rb") as fh:
                    while fh.read(1 << 24):
                        pass
            md5 = ["md5sum"] + files
            ratios = {c: [] for c in commands}
            walls = {c: [] for c in commands}
            rss = {c: [] for c in commands}
            md5s = []
            for _ in range(a.runs):
                for c in commands:
                    m, _ = run([md5], cpus, tmp)
                    t, r = run(command(c, inp), cpus, tmp)
                    md5s.append(m)
                    walls[c].append(t)
                    ratios[c].append(t / m)
                    rss[c].append(r)
            row = {"shape": s, "bytes": size_of(inp), "files": len(files),
                   "md5sum": statistics.median(md5s)}
            for c in commands:
                row[c] = (statistics.median(ratios[c]), statistics.median(walls[c]),
                          [max(r[i] for r in rss[c]) for i in range(len(rss[c][0]))])
            rows.append(row)
    shown = [c for c in commands if c != "json-1t"]
    speedup = "json" in commands and "json-1t" in commands
    print("| log | size | md5sum | " + " | ".join(
        "`%s` / md5sum (wall)" % c for c in shown)
        + (" | two threads / one (json)" if speedup else "") + " | peak RSS |")
    print("| --- | ---: | ---: | " + " | ".join("---:" for _ in shown)
          + (" | ---:" if speedup else "") + " | --- |")
    for row in rows:
        cells = ["%.2fx (%.2f s)" % (row[c][0], row[c][1]) for c in shown]
        if speedup:
            cells.append("%.2fx" % (row["json-1t"][1] / row["json"][1]))
        peaks = "; ".join("%s %s" % (c, " + ".join("%d MiB" % (k // 1024)
                                                   for k in row[c][2]))
                          for c in shown)
        print("| %s | %.0f MB, %d file%s | %.2f s | %s | %s |" % (
            row["shape"], row["bytes"] / 1e6, row["files"],
            "" if row["files"] == 1 else "s", row["md5sum"], " | ".join(cells), peaks))
    shutil.rmtree(outputs, ignore_errors=True)
    if own_work and not a.keep:
        shutil.rmtree(a.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
