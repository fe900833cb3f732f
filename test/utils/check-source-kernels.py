#!/usr/bin/env python3
"""Check that a user source line has one answer everywhere: the kernels of
each line in tlp-emit --json (unit `sources`), in the Markdown report's
`User source lines` table, in the HTML page's data, and in the answer of
tlp-emit --md --source FILE:LINE, for every unit of LOG. Prints one line
per source line with kernels, then `ok` or the first disagreement."""
import html
import json
import re
import subprocess
import sys


def run(tool, *args):
    return subprocess.run([tool, "--verify-each"] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, universal_newlines=True,
                          check=True).stdout


def main():
    emit, log, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
    units = json.loads(run(emit, "--json", log))["units"]
    md = run(emit, "--md", log)
    run(emit, "--html", log, "-o", tmp + ".html")
    page = open(tmp + ".html", encoding="utf-8").read()
    blocks = re.findall(r'<script type="application/json" class="tlp-unit"'
                        r' data-unit="([^"]*)">(.*?)</script>', page, re.S)
    data = {k: json.loads(html.unescape(v) if v.lstrip().startswith("&") else v)
            for k, v in blocks}
    bad = []
    for u in units:
        sect = md.split("## Unit `%s`" % u["id"], 1)[1].split("\n## ", 1)[0]
        table = sect.split("### User source lines", 1)[-1]
        hdata = data.get(u["id"])
        for i, s in enumerate(u["sources"]):
            want = sorted(s["kernels"])
            label = "%s:%d" % (s["file"], s["line"])
            # Markdown table rows of this line.
            rows = [r for r in table.splitlines()
                    if r.startswith("| `%s`" % label)]
            md_k = sorted(set(k for r in rows
                              for k in re.findall(r"`([^`]+)`", r.split(" | ")[-1])))
            if md_k != want:
                bad.append("%s %s: markdown %s, json %s" % (u["id"], label, md_k, want))
            if hdata is not None:
                keys = [k["key"] for k in hdata["kernels"]]
                h_k = sorted(keys[r] for r in hdata["sources"][i][4])
                if h_k != want:
                    bad.append("%s %s: html %s, json %s" % (u["id"], label, h_k, want))
            if want:
                ans = run(emit, "--md", "--source", label, log)
                part = ans.split("## Unit `%s`" % u["id"], 1)
                got = []
                if len(part) > 1:
                    body = part[1].split("\n## ", 1)[0].split("Kernels:", 1)
                    if len(body) > 1:
                        got = [k for k in u["kernels"] if "`%s`" % k["key"] in body[1]]
                q_k = sorted(set(k["key"] for k in got))
                if q_k != want:
                    bad.append("%s %s: --source %s, json %s" % (u["id"], label, q_k, want))
                print("%s %s: %s" % (u["id"], label, ", ".join(want)))
    for b in bad:
        print("mismatch: " + b)
    print("ok" if not bad else "%d mismatches" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
