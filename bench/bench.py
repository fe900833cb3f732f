#!/usr/bin/env python3
"""Throughput and peak memory of tlp on large TORCH_TRACE logs.

    bench/bench.py [--build build] [--copies 10,56,100] [--cores 2] [--runs 3]

Builds logs of N copies of every corpus log with ../shared/bench/replicate-log.py
(each copy a distinct set of compile ids), then times, on a warm page cache:

  read       cat LOG > /dev/null                           (the disk, as a floor)
  md5sum     md5sum LOG                                    (one pass of hashing)
  json       tlp-emit --json LOG -o out.json
  pipe-json  tlp-opt --link-provenance LOG | tlp-emit --json -o out.json
  pipe-html  tlp-opt --link-provenance LOG | tlp-emit --html -o out/

Wall time is the median of --runs runs; peak RSS is the largest resident set
of any one process of the command (for a pipe, each side is given). With
--cores N every process is pinned to the first N CPUs. Prints a Markdown
table; docs/performance.md records the figures.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus_logs(corpus):
    logs = []
    for dirpath, _, files in os.walk(corpus):
        for f in sorted(files):
            if f.endswith((".log", ".txt")):
                logs.append(os.path.join(dirpath, f))
    return sorted(logs)


TIME = "/usr/bin/time"  # GNU time; Debian package `time`


def run_stage(argvs, cpus, stdout_path, tmp):
    """Run a pipeline of argv lists; return (seconds, [peak RSS KiB])."""
    def pin():
        if cpus:
            os.sched_setaffinity(0, cpus)

    use_time = os.access(TIME, os.X_OK)
    procs, rss_files = [], []
    start = time.perf_counter()
    prev = None
    for i, argv in enumerate(argvs):
        last = i == len(argvs) - 1
        if use_time:
            # GNU time measures the command alone (wait4 on our own child
            # would also count the Python process it was forked from).
            f = os.path.join(tmp, "rss.%d" % i)
            rss_files.append(f)
            argv = [TIME, "-f", "%M", "-o", f] + argv
        out = open(stdout_path, "wb") if last else subprocess.PIPE
        p = subprocess.Popen(argv, stdin=prev, stdout=out,
                             stderr=subprocess.DEVNULL, preexec_fn=pin)
        if prev is not None:
            prev.close()
        prev = p.stdout if not last else None
        if last:
            out.close()
        procs.append(p)
    rss, codes = [], []
    for p in procs:
        _, status, usage = os.wait4(p.pid, 0)
        codes.append(os.waitstatus_to_exitcode(status))
        rss.append(usage.ru_maxrss)
    secs = time.perf_counter() - start
    if any(c != 0 for c in codes):
        # The corpus logs give warnings, not errors: a failure is real.
        raise SystemExit("bench: error: command failed (%s): %s" %
                         (codes, " | ".join(" ".join(a) for a in argvs)))
    if use_time:
        rss = [int(open(f).read().split()[-1]) for f in rss_files]
    return secs, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build directory with bin/tlp-opt and bin/tlp-emit")
    ap.add_argument("--corpus",
                    default=os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--replicate",
                    default=os.path.join(ROOT, "..", "shared", "bench",
                                         "replicate-log.py"))
    ap.add_argument("--copies", default="10,56,100",
                    help="comma-separated copy counts (56 copies is about "
                         "the 356 MB of the tlparse figure)")
    ap.add_argument("--cores", type=int, default=2,
                    help="pin to this many CPUs (0: no pinning)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--stages", default="read,md5sum,json,pipe-json,pipe-html")
    ap.add_argument("--work", help="directory for logs and outputs "
                                   "(default: a temporary one)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory")
    ap.add_argument("--out", help="directory for the HTML output (default: "
                                  "the work directory; a tmpfs such as "
                                  "/dev/shm leaves the file system out)")
    a = ap.parse_args()

    bindir = os.path.join(a.build, "bin")
    opt = os.path.join(bindir, "tlp-opt")
    emit = os.path.join(bindir, "tlp-emit")
    for tool in (opt, emit):
        if not os.access(tool, os.X_OK):
            raise SystemExit("bench: error: no %s; build first "
                             "(utils/build.sh)" % tool)
    logs = corpus_logs(a.corpus)
    if not logs:
        raise SystemExit("bench: error: no logs in %s" % a.corpus)
    cpus = None
    if a.cores:
        avail = sorted(os.sched_getaffinity(0))
        cpus = set(avail[:a.cores])
    threads = ["--threads=%d" % a.cores] if a.cores else []

    work = a.work or tempfile.mkdtemp(prefix="tlp-bench-")
    os.makedirs(work, exist_ok=True)
    stages = a.stages.split(",")
    rows = []
    try:
        for n in [int(c) for c in a.copies.split(",")]:
            log = os.path.join(work, "corpus-x%d.log" % n)
            if not os.path.exists(log):
                subprocess.check_call([sys.executable, a.replicate, "-n",
                                       str(n), "-o", log] + logs)
            size = os.path.getsize(log)
            out_json = os.path.join(work, "out.json")
            out_root = a.out or work
            os.makedirs(out_root, exist_ok=True)
            cmds = {
                "read": [["cat", log]],
                "md5sum": [["md5sum", log]],
                "json": [[emit, "--json"] + threads + [log, "-o", out_json]],
                "pipe-json": [[opt, "--link-provenance"] + threads + [log],
                              [emit, "--json"] + threads + ["-o", out_json]],
                "pipe-html": [[opt, "--link-provenance"] + threads + [log],
                              [emit, "--html"] + threads + ["-o", "HTML"]],
            }
            # Warm the page cache.
            run_stage(cmds["read"], cpus, os.devnull, work)
            for stage in stages:
                times, peaks = [], None
                for r in range(a.runs):
                    # A new directory each run; removed after the stage.
                    out_html = os.path.join(out_root, "html.%d.%d" % (n, r))
                    argvs = [[out_html if x == "HTML" else x for x in argv]
                             for argv in cmds[stage]]
                    secs, rss = run_stage(argvs, cpus, os.devnull, work)
                    times.append(secs)
                    peaks = rss if peaks is None else [max(x, y) for x, y
                                                       in zip(peaks, rss)]
                for r in range(a.runs):
                    shutil.rmtree(os.path.join(out_root, "html.%d.%d" % (n, r)),
                                  ignore_errors=True)
                t = statistics.median(times)
                rows.append((n, size, stage, t, size / t / 1e6, peaks))
                print("%4dx %7.1f MB  %-10s %6.2f s  %7.0f MB/s  peak RSS %s" %
                      (n, size / 1e6, stage, t, size / t / 1e6,
                       " + ".join("%.0f MB" % (k / 1024) for k in peaks)),
                      file=sys.stderr, flush=True)
    finally:
        if not a.keep and not a.work:
            shutil.rmtree(work, ignore_errors=True)

    print("| copies | log size | command | wall (median of %d) | throughput |"
          " peak RSS |" % a.runs)
    print("| ---: | ---: | --- | ---: | ---: | ---: |")
    for n, size, stage, t, mbps, peaks in rows:
        print("| %d | %.0f MB | %s | %.2f s | %.0f MB/s | %s |" %
              (n, size / 1e6, stage, t, mbps,
               " + ".join("%.0f MB" % (k / 1024) for k in peaks)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
