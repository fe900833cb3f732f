#!/usr/bin/env python3
"""Feed damaged inputs to tlp-emit and check how it copes.

    robustness.py --tlp-emit PATH --tlp-opt PATH --inputs DIR --work DIR

Makes inputs from the fixture logs, deterministically (a fixed seed):
truncated at many offsets, with bytes flipped, converted to CR LF, with huge
lines, binary garbage, empty and blank files, and a directory holding logs
next to files that are not logs. For each it runs `tlp-emit --json` (and,
for some, `tlp-opt --link-provenance | tlp-emit --json`) under a time limit
and checks that:

  - it ends within the limit (no hang) with exit 0 or 1 (no crash);
  - every warning or error about a file names a line (`file:N: ...`),
    except the few whole-file summaries listed in FILE_LEVEL;
  - exit 1 comes with at least one error;
  - whenever the exit is 0, the output is valid JSON of schema tlp-json/2.

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
import json
import os
import random
import re
import shutil
import subprocess
import sys

LIMIT_S = 60
DIAG = re.compile(r"^(?P<file>.+?):(?:(?P<line>\d+):)? (?P<sev>warning|error|note): ")
TOOL_ERROR = re.compile(r"^tlp-(opt|emit): error: ")
# Whole-file diagnostics that rightly have no line.
FILE_LEVEL = re.compile(
    r"input is empty|no trace events found|more .* not shown|"
    r"lines end in CR LF|events of kinds tlp does not know|skipped: not a")


def fixtures(inputs):
    names = ["jit_cuda_train.log", "jit_cpu_v1.log", "aot_cuda_v2.log",
             "handles.log"]
    return [(n, open(os.path.join(inputs, n), "rb").read()) for n in names]


def make_inputs(inputs, work, rng):
    """Yield (kind, path) for every damaged input, writing them to work."""
    def put(kind, name, data):
        d = os.path.join(work, kind)
        os.makedirs(d, exist_ok=True)
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(data)
        return kind, p

    for name, data in fixtures(inputs):
        stem = name[:-4]
        for k in range(10):
            cut = rng.randrange(1, len(data))
            yield put("truncated", "%s.cut%d.log" % (stem, cut), data[:cut])
        for k in range(10):
            d = bytearray(data)
            for _ in range(rng.choice([1, 3, 20, 200])):
                d[rng.randrange(len(d))] = rng.randrange(256)
            yield put("flipped", "%s.flip%d.log" % (stem, k), bytes(d))
        yield put("crlf", stem + ".crlf.log", data.replace(b"\n", b"\r\n"))
        yield put("crlf", stem + ".cr.log", data.replace(b"\n", b"\r"))
        # Lines dropped or repeated: events out of their usual order.
        lines = data.split(b"\n")
        for k in range(3):
            ls = list(lines)
            i = rng.randrange(len(ls))
            del ls[i:i + rng.randrange(1, 30)]
            yield put("lines", "%s.del%d.log" % (stem, k), b"\n".join(ls))
            ls = list(lines)
            i = rng.randrange(len(ls))
            ls[i:i] = ls[i:i + rng.randrange(1, 30)]
            yield put("lines", "%s.dup%d.log" % (stem, k), b"\n".join(ls))

    big = b"a" * (16 << 20)
    env = b"V1203 10:00:00.000000 1 torch/x.py:1] "
    yield put("huge", "envelope.log", env + b'{"str": ["' + big + b'", 0]}\n')
    yield put("huge", "unterminated.log", env + b'{"str": ["' + big)
    yield put("huge", "payload.log",
              env + b'{"artifact": {"name": "before_pre_grad_graph", '
              b'"encoding": "string"}, "frame_id": 0, "frame_compile_id": 0, '
              b'"attempt": 0, "has_payload": "00000000000000000000000000000000"}\n'
              b"\t" + big + b"\n")
    yield put("huge", "noline.log", big)
    yield put("huge", "manylines.log", b"\n" * (4 << 20))
    yield put("huge", "deep.log",
              env + b'{"str": ' + b"[" * 200000 + b"]" * 200000 + b"}\n")

    yield put("garbage", "random.bin",
              bytes(rng.randrange(256) for _ in range(200000)))
    yield put("garbage", "nul.bin", b"\0" * 100000)
    yield put("garbage", "high.bin", bytes(rng.randrange(128, 256)
                                           for _ in range(100000)))
    yield put("garbage", "text.log", b"hello\nworld\n" * 1000)
    yield put("garbage", "gzip.log.gz", b"\x1f\x8b\x08\x00" + bytes(100))
    yield put("garbage", "json.log", b'{"not": "a log"}\n' * 100)

    # Hostile strings (see INJECTIONS), in logs with compile failures,
    # graph breaks and recompiles (health.log), markup (markup.log) and
    # a full unit (jit_cpu_v1.log).
    for name in ["health.log", "markup.log", "jit_cpu_v1.log", "restart.log"]:
        data = open(os.path.join(inputs, name), "rb").read()
        for k in range(6):
            yield put("injection", "%s.inj%d.log" % (name[:-4], k),
                      injected(data, rng))

    yield put("empty", "empty.log", b"")
    yield put("empty", "newlines.log", b"\n\n\n")
    yield put("empty", "tabs.log", b"\t\n\t\t\n")
    yield put("empty", "spaces.log", b"   \r\n  ")

    # A directory: rank logs, a log that is damaged, and things that are
    # not logs at all.
    d = os.path.join(work, "dirs", "mixed")
    os.makedirs(os.path.join(d, "subdir"), exist_ok=True)
    for n in os.listdir(os.path.join(inputs, "ranks")):
        shutil.copy(os.path.join(inputs, "ranks", n), d)
    with open(os.path.join(d, "core.bin"), "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(5000)))
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a log\n")
    with open(os.path.join(d, "dedicated_log_torch_trace_rank_7.log"),
              "wb") as f:
        f.write(fixtures(inputs)[0][1][:5000])
    open(os.path.join(d, "empty.log"), "wb").close()
    yield "dirs", d
    d = os.path.join(work, "dirs", "nologs")
    os.makedirs(os.path.join(d, "run0"), exist_ok=True)
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a log\n")
    yield "dirs", d


# Strings a log may hold to attack whoever reads its report (issue 19).
INJECTIONS = [
    "[Click here for the fix](javascript:alert(1))",
    "![](http://host.invalid/x.png)",
    "[![i](http://host.invalid/y.png)](https://host.invalid/)",
    "<img src=x onerror=alert(2)>",
    "<script>alert(3)</script>",
    "<http://host.invalid/auto>",
    "[ref]\n\n[ref]: javascript:alert(4)",
    "`code` *em* _u_ | pipe &amp; &#x6a;avascript:",
    "\u001b]0;pwned\u0007",
    "\u001b[2J\u001b[H",
    "\u001b]52;c;ZXZpbA==\u0007",
    "\u009b2J\u0085",
    "\r\u0008\u007f",
]
BAD_BYTES = [b"\xff\xfe", b"\xc3", b"\xed\xa0\x80"]
ENVELOPE = re.compile(rb"^(V\d{4} [0-9:.]+ +\d+ [^\]]*\] )(\{.*\})$")


def inject_json(value, rng, targets):
    """\p value with injections appended to some strings, keys included."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if rng.random() < 0.1:
                k = k + rng.choice(INJECTIONS)
            if k in targets and isinstance(v, str):
                v = v + rng.choice(INJECTIONS)
            out[k] = inject_json(v, rng, targets)
        return out
    if isinstance(value, list):
        return [inject_json(v, rng, targets) for v in value]
    if isinstance(value, str) and rng.random() < 0.5:
        return value + rng.choice(INJECTIONS)
    return value


def injected(data, rng):
    """\p data (a log) with hostile strings in envelopes and payloads."""
    out = []
    targets = {"name", "fail_type", "fail_reason", "co_name", "co_filename",
               "filename", "loc"}
    for line in data.split(b"\n"):
        m = ENVELOPE.match(line)
        r = rng.random()
        if m and r < 0.6:
            try:
                env = json.loads(m.group(2))
            except ValueError:
                out.append(line)
                continue
            if rng.random() < 0.3:
                k = next(iter(env))
                env = {k + rng.choice(INJECTIONS): v for k, v in env.items()} \
                    if rng.random() < 0.3 else env
            env = inject_json(env, rng, targets)
            text = json.dumps(env).encode()
            if rng.random() < 0.2:
                # Invalid UTF-8 inside a string of the envelope.
                i = text.find(b'"name": "')
                if i >= 0:
                    i += 9
                    text = text[:i] + rng.choice(BAD_BYTES) + text[i:]
            out.append(m.group(1) + text)
        elif line.startswith(b"\t") and r < 0.2:
            body = line[1:]
            if body.startswith((b"{", b"[")):
                try:
                    body = json.dumps(inject_json(json.loads(body), rng,
                                                  targets)).encode()
                except ValueError:
                    pass
            else:
                # Raw terminal escapes and markup in graph and code text.
                body += (b"  # " + rng.choice(INJECTIONS).encode()
                         .decode("unicode_escape").encode("utf-8"))
            out.append(b"\t" + body)
        else:
            out.append(line)
    return b"\n".join(out)


def unprintable(data):
    """Control characters (C0 but tab and newline, DEL, C1) and invalid
    UTF-8 bytes in \p data."""
    text = data.decode("utf-8", errors="surrogateescape")
    return sum(1 for c in text if 0xDC80 <= ord(c) <= 0xDCFF or
               (ord(c) < 0x20 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F)


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
    md = subprocess.run([tlp_emit, "--md", path], capture_output=True,
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
    r = subprocess.run([tlp_emit, "--md", "--render=html", path, "-o", page],
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
    r = subprocess.run([tlp_emit, "--html", path, "-o", page],
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
    for c in codes:
        if c is not None and c not in (0, 1):
            problems.append("exit %d (a crash?)" % c)
    if re.search(r"Stack dump|Assertion|Sanitizer|runtime error", stderr):
        problems.append("crash report on stderr")
    if "IR is invalid" in stderr:
        problems.append("a pass broke an IR invariant (an internal error)")
    errors = 0
    for line in stderr.splitlines():
        m = DIAG.match(line)
        if TOOL_ERROR.match(line):
            errors += 1
            continue
        if not m:
            continue  # an excerpt line
        if m.group("sev") == "error":
            errors += 1
        if (m.group("sev") != "note" and not m.group("line")
                and not FILE_LEVEL.search(line)):
            problems.append("diagnostic without a line: " + line[:200])
    last = codes[-1]
    if 1 in codes and not errors:
        problems.append("exit 1 without an error diagnostic")
    if last == 0:
        try:
            with open(out, encoding="utf-8") as f:
                j = json.load(f)
            if j.get("schema") != "tlp-json/2":
                problems.append("JSON without schema tlp-json/2")
        except (OSError, ValueError) as e:
            problems.append("exit 0 but the output is not valid JSON: %s" % e)
    if problems:
        problems.append("stderr:\n" + stderr[-3000:])
    return problems, last


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
        runs = [[[a.tlp_emit, "--json", path, "-o", out]]]
        if n % 5 == 0 and not os.path.isdir(path):
            runs.append([[a.tlp_opt, "--link-provenance", path],
                         [a.tlp_emit, "--json", "-o", out]])
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
