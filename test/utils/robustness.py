#!/usr/bin/env python3
"""Feed damaged inputs to tlp-emit and check how it copes.

    robustness.py --tlp-emit PATH --tlp-opt PATH --inputs DIR --work DIR

Makes inputs from the fixture logs, deterministically (a fixed seed):
truncated at many offsets, with bytes flipped, converted to CR LF, with huge
lines, binary garbage, empty and blank files, and a directory holding logs
next to files that are not logs. For each it runs `tlp-emit --json` (and,
for some, `tlp-opt --link-provenance | tlp-emit --json`) under a time limit
and checks that (tlplog.verdict.judge, the rules every campaign keeps):

  - it ends within the limit (no hang) with exit 0 or 1 (no crash);
  - every warning or error about a file names a line (`file:N: ...`),
    except the few whole-file summaries of verdict.FILE_LEVEL;
  - exit 1 comes with at least one error and leaves no output;
  - whenever the exit is 0, the output is valid JSON of schema tlp-json/3.

The damaged inputs are tlplog.mutate.make_inputs's.

Hostile text (`injection`): the fixtures with log strings (event kinds,
artifact names, failure types and reasons, graph-break and recompile
reasons, file names, graph and code text) that are Markdown links and
images (`[x](javascript:...)`, `![](http://...)`), raw HTML, terminal
escapes (OSC 0 title, ESC[2J, OSC 52 clipboard, C1 CSI) and invalid UTF-8.
Besides the rules above, each is also rendered with `--md` (stdout),
`--md --render=html` and `--html`, and checked (docs/security.md) that:

  - stderr and the --md text hold no control character (but tab and
    newline) and no invalid UTF-8;
  - the rendered report has no link out of the page, no image, no
    script or other element from the log, and a Content-Security-Policy;
  - the HTML page has exactly tlp's scripts (the theme script, tlp.js and
    the data blocks), a Content-Security-Policy and no control character
    outside its JSON data blocks.

Prints one line per kind of damage ("truncated: 40 inputs ok") and, for any
input that breaks a rule, the input, the rule and the tool's stderr; exits 1
if any did.
"""
import argparse
import html.parser
import os
import random
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog import verdict  # noqa: E402
from tlplog.mutate import make_inputs  # noqa: E402

LIMIT_S = 60


def unprintable(data):
    return sum(verdict.unprintable(data))


class Elements(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.hrefs, self.scripts, self.csp = set(), [], [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        if "href" in a:
            self.hrefs.append(a["href"])
        if tag == "script":
            self.scripts.append(a.get("type") or "")
        if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.csp = a.get("content")


REPORT_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2",
               "h3", "p", "a", "code", "pre", "table", "thead", "tbody",
               "tr", "th", "td", "ul", "li", "strong", "em"}


def check_outputs(tlp_emit, path, work):
    """The --md, --md --render=html and --html renderings of \p path: what
    a hostile log must not get into them."""
    problems = []
    md = subprocess.run([tlp_emit, "--verify-each", "--md", path], capture_output=True,
                        timeout=LIMIT_S)
    if md.returncode not in (0, 1):
        problems.append("--md: exit %d" % md.returncode)
    if unprintable(md.stdout):
        problems.append("--md: %d control characters or invalid UTF-8 bytes "
                        "on stdout" % unprintable(md.stdout))
    if unprintable(md.stderr):
        problems.append("--md: %d control characters or invalid UTF-8 bytes "
                        "on stderr" % unprintable(md.stderr))
    page = os.path.join(work, "report.html")
    r = subprocess.run([tlp_emit, "--verify-each", "--md", "--render=html", path, "-o", page],
                       capture_output=True, timeout=LIMIT_S)
    if r.returncode == 0:
        data = open(page, "rb").read()
        p = Elements()
        p.feed(data.decode("utf-8", "replace"))
        out = [h for h in p.hrefs if not h.startswith("#")]
        if out:
            problems.append("--render=html: links out of the page: %r" % out[:5])
        if p.tags - REPORT_TAGS:
            problems.append("--render=html: elements from the log: %r"
                            % sorted(p.tags - REPORT_TAGS))
        if not p.csp or not p.csp.startswith("default-src 'none'"):
            problems.append("--render=html: no Content-Security-Policy")
        if unprintable(data):
            problems.append("--render=html: control characters")
    page = os.path.join(work, "page.html")
    r = subprocess.run([tlp_emit, "--verify-each", "--html", path, "-o", page],
                       capture_output=True, timeout=LIMIT_S)
    if r.returncode == 0:
        data = open(page, "rb").read()
        p = Elements()
        p.feed(data.decode("utf-8", "replace"))
        code = [t for t in p.scripts if t != "application/json"]
        if len(code) != 2:
            problems.append("--html: %d scripts, not tlp's 2" % len(code))
        if not p.csp or not p.csp.startswith("default-src 'none'"):
            problems.append("--html: no Content-Security-Policy")
        # The unit data is JSON (C0 escaped as \\u; a C1 character in a
        # graph's text is text the page script shows as text).
        rest = re.sub(rb'<script type="application/json"[^>]*>.*?</script>',
                      b"", data, flags=re.S)
        if unprintable(rest):
            problems.append("--html: control characters")
    return problems


def check(kind, path, argvs, out):
    """Run the pipeline; return a list of problems."""
    if os.path.exists(out):
        os.remove(out)
    procs = []
    prev = None
    errs = []
    for i, argv in enumerate(argvs):
        err = open(out + ".err%d" % i, "w+b")
        errs.append(err)
        p = subprocess.Popen(argv, stdin=prev, stderr=err,
                             stdout=subprocess.PIPE if i + 1 < len(argvs)
                             else subprocess.DEVNULL)
        if prev:
            prev.close()
        prev = p.stdout
        procs.append(p)
    problems = []
    codes = []
    for p in procs:
        try:
            codes.append(p.wait(timeout=LIMIT_S))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            codes.append(None)
            problems.append("no exit within %d s" % LIMIT_S)
    stderr = ""
    for e in errs:
        e.seek(0)
        stderr += e.read().decode("utf-8", "replace")
        e.close()
    problems += verdict.judge(codes, stderr, out, lines=True)
    if problems:
        problems.append("stderr:\n" + stderr[-3000:])
    return problems, codes[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tlp-emit", required=True)
    ap.add_argument("--tlp-opt", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    rng = random.Random(20261202)
    out = os.path.join(a.work, "out.json")
    stats = {}
    bad = 0
    for n, (kind, path) in enumerate(make_inputs(a.inputs, a.work, rng)):
        runs = [[[a.tlp_emit, "--verify-each", "--json", path, "-o", out]]]
        if n % 5 == 0 and not os.path.isdir(path):
            runs.append([[a.tlp_opt, "--verify-each", "--link-provenance", path],
                         [a.tlp_emit, "--verify-each", "--json", "-o", out]])
        for i, argvs in enumerate(runs):
            problems, code = check(kind, path, argvs, out)
            if kind == "injection" and i == 0:
                problems += check_outputs(a.tlp_emit, path, a.work)
            s = stats.setdefault(kind, [0, 0, 0])
            s[0] += 1
            s[1 if code == 0 else 2] += 1
            if problems:
                bad += 1
                print("FAIL %s: %s" % (kind, " | ".join(" ".join(x) for x in argvs)))
                for p in problems:
                    print("  " + p)
    for kind, (n, ok0, ok1) in stats.items():
        print("%s: %d runs (exit 0: %d, exit 1: %d)" % (kind, n, ok0, ok1))
    print("%d runs broke a rule" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
