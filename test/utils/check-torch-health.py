#!/usr/bin/env python3
"""Compile health of tlp over the logs utils/gen-torch-logs.py wrote.

    check-torch-health.py --tools BIN --logs DIR --tmp TMP [--only NAME,...]

For every run in DIR/manifest.json, tlp-emit --json of its trace directory
must have a compile record for every unit the program compiled (the run's
manifest: rank and compile id; AOTInductor units have none), and every record with a compile id a
status. Prints one line per run: its compiles as `id:status`, then for each
failure its exception type and the place PyTorch names (file name:line;
with `, user F:N` when the innermost frame in the user's own files is
another), for each graph break its summary and file:line (the same way),
for each recompile its first reason and the guard that failed (whose line
in the guards of the compile it names must hold the check tlp reports);
then `N runs checked, P problems`.
Exit 1 on any problem.

Every reason is whole in the Markdown report and the HTML index (issue 18):
each failure reason and dynamo_error traceback, each graph-break reason and
user code traceback and each recompile reason of the JSON appear verbatim
in the report (fenced blocks) and, escaped, in the index's <pre> and
<div class="recompile"> elements; and the report's compile table names
every reason of every compile (a compile that broke its graph and
recompiled shows both).
"""
import argparse
import json
import os
import subprocess
import sys


def where(loc, user=None):
    if not loc and not user:
        return "-"
    s = "%s:%d" % (os.path.basename(loc["file"]), loc["line"]) if loc else "-"
    if user and (not loc or (user["file"], user["line"]) !=
                 (loc["file"], loc["line"])):
        s += ", user %s:%d" % (os.path.basename(user["file"]), user["line"])
    return s


def html_text(s):
    """The HTML index's escaping of a reason in a <pre>: escapeHTML, and
    each line break as &#10;."""
    out = []
    for ch in s:
        out.append({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                    "'": "&#39;", "\n": "&#10;", "\r": ""}.get(ch, ch))
    return "".join(out)


def check_reasons(run, doc, md, index):
    """Every reason of the JSON, whole, in the report and the index; every
    kind of reason of a compile in its row of the report's table."""
    problems = 0
    rows = {}
    for line in md.split("\n"):
        if line.startswith("| `"):
            rows.setdefault(line.split("`")[1], line)
    for c in doc["compiles"]:
        if c["compile_id"] is None:
            continue
        texts = []
        kinds = []
        if c["failure"]:
            reason = c["failure"]["reason"] or ""
            tb = c["failure"]["traceback"] or ""
            # A failure text of 20 lines or more (a C++ compiler's output)
            # that the traceback repeats is shown once: in the traceback,
            # its last repeat reads "[the failure text above: N lines]".
            lines = reason.strip().count("\n") + 1
            at = tb.rfind(reason.strip()) if reason.strip() else -1
            if lines >= 20 and at >= 0:
                tb = (tb[:at] + "[the failure text above: %d lines]" % lines
                      + tb[at + len(reason.strip()):])
            texts += [("failure reason", reason), ("traceback", tb)]
            kinds.append(c["failure"]["type"].replace("_", "\\_"))
        for b in c["breaks"]:
            texts += [("break reason", b["reason"]),
                      ("user code traceback", b["traceback"])]
            kinds.append("graph break: ")
        for r in c["recompile_reasons"]:
            texts.append(("recompile reason", r))
            kinds.append("recompile: ")
        for what, t in texts:
            if not t:
                continue
            if t not in md:
                print("%s: %s: the %s is not whole in --md" % (
                    run, c["name"], what))
                problems += 1
            if html_text(t) not in index:
                print("%s: %s: the %s is not whole in the HTML index" % (
                    run, c["name"], what))
                problems += 1
        row = rows.get(c["name"], "")
        for k in kinds:
            if k not in row:
                print("%s: %s: the report's row does not give %r" % (
                    run, c["name"], k))
                problems += 1
    return problems


def fmt_time(c):
    """`total = forward + backward` as the JSON gives them (they must
    add up)."""
    ok = abs(c["total_time_s"] - c["time_s"] - c["backward_time_s"]) < 1e-6
    return "%.3f = %.3f + %.3f%s" % (c["total_time_s"], c["time_s"],
                                     c["backward_time_s"],
                                     "" if ok else " (does not add up)")


def check_compiles(run, man, doc):
    """The run's manifest lists each compile the log records, in log
    order, read by the generator's own scan (gen-torch-logs.py,
    logged_compiles): tlp must have one record for each (compiles that
    share an id apart: the ordinal, the log), with the same status,
    forward and backward time and cache results; and no record with metrics that the scan lacks.
    Prints a line per compile with caches: `  run: name: caches`."""
    problems = 0
    recs = {}
    for c in doc["compiles"]:
        if c["compile_id"] is None or c["rank"] is not None:
            continue
        key = (os.path.basename(c["log"]), c["compile_id"], c["ordinal"] or 1)
        recs[key] = c
    seen = set()
    for m in man.get("compiles", []):
        key = (m["log"], m["compile_id"], m["ordinal"])
        c = recs.get(key)
        if c is None:
            print("%s: no compile record for %s #%d of run %d" % (
                run, m["compile_id"], m["ordinal"], m["run"]))
            problems += 1
            continue
        seen.add(key)
        if c["status"] != m["status"]:
            print("%s: %s: status %s, the log says %s" % (
                run, c["name"], c["status"], m["status"]))
            problems += 1
        if c["time_s"] != m["seconds"]:
            print("%s: %s: time %r s, the log says %r" % (
                run, c["name"], c["time_s"], m["seconds"]))
            problems += 1
        if c["backward_time_s"] != m["backward_seconds"]:
            print("%s: %s: backward time %r s, the log says %r" % (
                run, c["name"], c["backward_time_s"], m["backward_seconds"]))
            problems += 1
        want_type = m.get("fail_type")
        got_type = c["failure"]["type"] if c["failure"] else None
        if want_type != got_type:
            print("%s: %s: failure %r, the log says %r" % (
                run, c["name"], got_type, want_type))
            problems += 1
        if bool(m.get("recompile_reasons")) != bool(c["recompile_reasons"]):
            print("%s: %s: %d recompile reasons, the log has %d events" % (
                run, c["name"], len(c["recompile_reasons"]),
                m.get("recompile_reasons") or 0))
            problems += 1
        if m["backward_seconds"] is not None:
            print("  %s: %s: time %s" % (run, c["name"], fmt_time(c)))
        caches = {}
        for x in c["caches"]:
            caches.setdefault(x["cache"], []).append(x["result"])
        if caches != m["caches"]:
            print("%s: %s: caches %r, the log says %r" % (
                run, c["name"], caches, m["caches"]))
            problems += 1
        if caches:
            print("  %s: %s: %s" % (run, c["name"], ", ".join(
                "%s %s" % (k, "/".join(v)) for k, v in sorted(caches.items()))))
    if man.get("compiles"):
        ids = {m["compile_id"] for m in man["compiles"]}
        for key, c in sorted(recs.items()):
            if key not in seen and c["compile_id"] in ids:
                print("%s: %s: a record the log does not have" % (
                    run, c["name"]))
                problems += 1
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--logs", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    runs = json.load(open(os.path.join(a.logs, "manifest.json")))["runs"]
    if a.only:
        runs = [r for r in runs if r in a.only.split(",")]
    problems = 0
    for run in runs:
        man = json.load(open(os.path.join(a.logs, run, "manifest.json")))
        out = os.path.join(a.tmp, run + ".json")
        p = subprocess.run([os.path.join(a.tools, "tlp-emit"), "--verify-each", "--json",
                            os.path.join(a.logs, run, man["trace"]), "-o",
                            out], stderr=subprocess.DEVNULL)
        if p.returncode:
            print("%s: tlp-emit --json exited %d" % (run, p.returncode))
            problems += 1
            continue
        doc = json.load(open(out))
        md = subprocess.run([os.path.join(a.tools, "tlp-emit"), "--verify-each", "--md",
                             os.path.join(a.logs, run, man["trace"])],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, errors="replace").stdout
        page = os.path.join(a.tmp, run + ".html")
        subprocess.run([os.path.join(a.tools, "tlp-emit"), "--verify-each", "--html",
                        os.path.join(a.logs, run, man["trace"]), "-o", page],
                       stderr=subprocess.DEVNULL)
        index = open(os.path.join(page, "index.html") if os.path.isdir(page)
                     else page, encoding="utf-8", errors="replace").read()
        problems += check_reasons(run, doc, md, index)
        have = {(c["rank"], c["compile_id"]): c for c in doc["compiles"]
                if c["compile_id"] is not None}
        problems += check_compiles(run, man, doc)
        # An AOTInductor unit has no compile id, so no compile record.
        missing = sorted({(u["rank"], u["compile_id"]) for u in man["units"]
                          if u["compile_id"] is not None} - set(have),
                         key=str)
        for m in missing:
            print("%s: no compile record for rank %s %s" % (run, m[0], m[1]))
            problems += 1
        facts = []
        by_slug = {c["id"]: c for c in doc["compiles"]}
        for c in have.values():
            if c["status"] not in ("success", "restart", "failure", "unknown"):
                print("%s: %s: status %r" % (run, c["name"], c["status"]))
                problems += 1
            if c["failure"]:
                # No place logged: say so, with the frame Dynamo was
                # compiling (which is not where it failed).
                at = where(c["failure"]["frame"], c["failure"]["user_frame"])
                if at == "-" and c["frame"]:
                    at = "- (compiling %s)" % where(c["frame"], None)
                facts.append("failure %s at %s" % (c["failure"]["type"], at))
            for b in c["breaks"]:
                if b["source"]:
                    facts.append("break %r at %s" % (
                        b["summary"], where(b["source"], b["user_source"])))
            if c["recompile_reasons"]:
                # The guard that failed: its line in the guards of the
                # compile it names must hold the check tlp reports.
                f = c["failed_guards"][0] if c["failed_guards"] else None
                found = "no failed guard"
                if f and f["line"]:
                    guards = by_slug[f["compile"]]["guards"].split("\n")
                    kind, expr = f["check"].split(": ", 1)
                    line = guards[f["line"] - 1] if f["line"] <= len(guards) else ""
                    if ("+- " + kind + ":") not in line or expr[:80] not in line:
                        print("%s: %s: failed guard line %d of %s is %r, not %r"
                              % (run, c["name"], f["line"], f["compile"],
                                 line[:200], f["check"][:200]))
                        problems += 1
                    found = "%s of %s (%s)" % (kind, f["compile"], f["how"])
                elif f:
                    found = "not found in %s" % f["compile"]
                if len(c["failed_guards"]) != len(c["recompile_reasons"]):
                    print("%s: %s: %d failed guards for %d reasons" % (
                        run, c["name"], len(c["failed_guards"]),
                        len(c["recompile_reasons"])))
                    problems += 1
                facts.append("recompile %r: %s" % (c["recompile_reasons"][0],
                                                    found))
        ids = " ".join("%s:%s" % (c["name"], c["status"])
                       for c in doc["compiles"] if c["compile_id"] is not None)
        print("%s: %s%s" % (run, ids, "".join("; " + f for f in facts)))
    print("%d runs checked, %d problems" % (len(runs), problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
