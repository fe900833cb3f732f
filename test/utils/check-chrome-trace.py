"""Check a tlp-emit --chrome-trace document the way a trace viewer reads it.

    check-chrome-trace.py TRACE.json [--summary]

The document must be JSON with a traceEvents list; every event must have a
name, a phase among M, X, i and B, an integer pid and tid (metadata events
for a process may leave tid out) and, except metadata, an integer ts; X
events an integer dur >= 0; B events only for spans whose end never came
(args.unfinished), and no E events (the emitter pairs them); each process a
process_name and each thread a thread_name. Within a thread the X spans
must nest (a span that starts inside another ends inside it) and start in
order, parents first, so that Perfetto builds the same slice tree. Prints
one line per process: pid, name, threads and the count of each phase, then
OK; or the problems and exits 1.
"""
import json
import sys
from collections import defaultdict


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    problems = []
    events = doc.get("traceEvents")
    if not isinstance(events, list):
        print("no traceEvents list")
        return 1
    names = {}
    threads = defaultdict(set)
    named_threads = set()
    phases = defaultdict(lambda: defaultdict(int))
    spans = defaultdict(list)
    for i, e in enumerate(events):
        where = "event %d" % i
        ph = e.get("ph")
        if not isinstance(e.get("name"), str):
            problems.append(where + ": no name")
        if ph not in ("M", "X", "i", "B"):
            problems.append(where + ": phase %r" % ph)
            continue
        pid = e.get("pid")
        if not isinstance(pid, int):
            problems.append(where + ": pid is not an integer")
            continue
        tid = e.get("tid")
        if ph == "M":
            args = e.get("args", {})
            if e["name"] == "process_name":
                names[pid] = args.get("name")
            elif e["name"] == "thread_name":
                named_threads.add((pid, tid))
            continue
        if not isinstance(tid, int) or not isinstance(e.get("ts"), int):
            problems.append(where + ": tid or ts is not an integer")
            continue
        threads[pid].add(tid)
        phases[pid][ph] += 1
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, int) or dur < 0:
                problems.append(where + ": bad dur %r" % (dur,))
                continue
            spans[(pid, tid)].append((e["ts"], e["ts"] + dur, e["name"], i))
        if ph == "B" and not e.get("args", {}).get("unfinished"):
            problems.append(where + ": B without args.unfinished")
    for pid in threads:
        if pid not in names:
            problems.append("pid %d: no process_name" % pid)
        for tid in threads[pid]:
            if (pid, tid) not in named_threads:
                problems.append("pid %d tid %d: no thread_name" % (pid, tid))
    for (pid, tid), ss in spans.items():
        stack = []
        last = None
        for start, end, name, i in ss:
            if last is not None and start < last:
                problems.append("event %d (%s): starts before the one "
                                "before it" % (i, name))
            last = start
            while stack and stack[-1][1] <= start and stack[-1][0] < start:
                stack.pop()
            if stack and end > stack[-1][1]:
                problems.append("event %d (%s): overlaps %s without "
                                "nesting" % (i, name, stack[-1][2]))
            stack.append((start, end, name))
    if problems:
        for p in problems:
            print(p)
        return 1
    if "--summary" in sys.argv:
        for pid in sorted(names):
            print("pid %d %s: threads %s, %s" % (
                pid, names[pid], sorted(threads[pid]),
                ", ".join("%s %d" % kv for kv in sorted(phases[pid].items()))))
    print("OK: %d events, %d processes" % (len(events), len(names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
