"""The pass/fail rules of the test scripts, in one place.

A run of a tlp tool on a log (utils/mutate-logs.py, test/utils/robustness.py,
test/utils/check-torch-logs.py):
  run(argv, timeout)       (exit code or "timeout", stderr)
  DIAG, TOOL_ERROR         a diagnostic line; the tool's own error line
  warnings(stderr)         the warning and error lines (a log PyTorch wrote
                           unmodified gives none: notes at most)
  said_something(stderr)   a warning or an error was printed
  judge(codes, stderr, out, lines=False)  the rules every run keeps: no
                           crash (exit 0 or 1, no crash report, no broken
                           IR invariant), exit 1 comes with an error and
                           leaves no output, exit 0 leaves valid tlp-json/3
                           (json_problems); with lines, every warning or
                           error about a file names its line (but the
                           whole-file summaries of FILE_LEVEL)
What a JSON output holds:
  json_problems(doc)       docs/json.md's schema: required keys and types
  summary(doc)             (unit ids, kernels, node links)
  lost(before, after)      a summary lost a unit, a kernel or a link
  conformance(log, doc)    the output against the log, read here on its own
                           (tlplog.log): mapping keys, call and node lines
Text for a terminal:
  unprintable(data)        (control characters, invalid UTF-8 bytes)
"""
import json
import os
import re
import subprocess

from .log import mapping_keys, payloads

DIAG = re.compile(r"^(?P<file>.+?):(?:(?P<line>\d+):)? (?P<sev>warning|error|note): ")
TOOL_ERROR = re.compile(r"^tlp-(opt|emit): error: ")
# Whole-file diagnostics that rightly have no line.
FILE_LEVEL = re.compile(
    r"input is empty|no trace events found|more .* not shown|"
    r"lines end in CR LF|events of kinds tlp does not know|skipped: not a")
CRASH = re.compile(r"Stack dump|Assertion|Sanitizer|runtime error")


def run(argv, timeout, stdin=None):
    """Run \p argv, stdout discarded: (exit code, or "timeout"; stderr)."""
    try:
        p = subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def warnings(stderr):
    """The lines of \p stderr that are warnings or errors."""
    return [l for l in stderr.splitlines()
            if ": warning: " in l or ": error: " in l]


def said_something(stderr):
    return bool(warnings(stderr))


def judge(codes, stderr, out, lines=False):
    """The problems of a run (one tool, or a pipeline: \p codes, one exit
    code each, None for one that was killed) whose last tool wrote \p out;
    [] when it kept every rule."""
    problems = []
    for c in codes:
        if c is not None and c not in (0, 1):
            problems.append("exit %s (a crash?)" % c)
    if CRASH.search(stderr):
        problems.append("crash report on stderr")
    if "IR is invalid" in stderr:
        problems.append("a pass broke an IR invariant (an internal error)")
    errors = 0
    for line in stderr.splitlines():
        if TOOL_ERROR.match(line):
            errors += 1
            continue
        m = DIAG.match(line)
        if not m:
            continue  # an excerpt line
        if m.group("sev") == "error":
            errors += 1
        if (lines and m.group("sev") != "note" and not m.group("line")
                and not FILE_LEVEL.search(line)):
            problems.append("diagnostic without a line: " + line[:200])
    last = codes[-1]
    if 1 in codes and not errors:
        problems.append("exit 1 without an error diagnostic")
    if last == 1 and os.path.exists(out):
        problems.append("exit 1 but an output was written")
    if last == 0:
        try:
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            problems.append("exit 0 but the output is not valid JSON: %s" % e)
        else:
            problems += ["exit 0 but the JSON output: " + p
                         for p in json_problems(doc)[:1]]
    return problems


UNIT_KEYS = ["id", "name", "log", "rank", "compile_id", "graph", "frame",
             "artifacts", "pre_grad_nodes", "post_grad_nodes", "code",
             "kernel_code", "kernels", "coverage"]
NODE_KEYS = ["name", "line", "op", "target", "type", "source"]
KERNEL_KEYS = ["name", "kind", "handle", "key", "call_lines", "post_nodes",
               "pre_nodes", "source", "in_mapping", "info"]
GRAPHS = {"forward", "backward", "inference", "unknown"}
KINDS = {"triton", "cpp", "extern", "fallback", "combo", "template",
         "collective", "unknown"}


def json_problems(doc):
    """What \p doc (a parsed tlp-emit --json output) lacks of docs/json.md:
    the schema version, and the required keys and types of units, nodes,
    kernels and diagnostics; [] when nothing."""
    if not isinstance(doc, dict):
        return ["not a JSON object"]
    if doc.get("schema") != "tlp-json/3":
        return ["bad schema %r" % doc.get("schema")]
    for key in ("logs", "units", "stats", "diagnostics"):
        if key not in doc:
            return ["missing %r" % key]
    for u in doc["units"]:
        for k in UNIT_KEYS:
            if k not in u:
                return ["unit %s lacks %r" % (u.get("id"), k)]
        if u["graph"] not in GRAPHS:
            return ["bad graph %r" % u["graph"]]
        if not (u["rank"] is None or isinstance(u["rank"], int)):
            return ["bad rank"]
        for n in u["pre_grad_nodes"] + u["post_grad_nodes"]:
            for k in NODE_KEYS:
                if k not in n:
                    return ["node %s lacks %r" % (n.get("name"), k)]
            if not isinstance(n["line"], int) or n["line"] < 1:
                return ["node %s has bad line" % n["name"]]
        if u["code"] is not None and u["code"]["language"] not in ("python", "cpp"):
            return ["bad language"]
        for k in u["kernels"]:
            for key in KERNEL_KEYS:
                if key not in k:
                    return ["kernel %s lacks %r" % (k.get("name"), key)]
            if k["kind"] not in KINDS:
                return ["bad kernel kind %r" % k["kind"]]
            if not all(isinstance(x, int) and x > 0 for x in k["call_lines"]):
                return ["kernel %s has bad call lines" % k["key"]]
            if u["code"] and any(x > u["code"]["lines"] for x in k["call_lines"]):
                return ["kernel %s calls past the code" % k["key"]]
    for d in doc["diagnostics"]:
        if d.get("severity") not in ("error", "warning", "note"):
            return ["bad severity"]
        if "message" not in d:
            return ["diagnostic without message"]
    return []


def summary(doc):
    """(unit ids, kernels, node links) of a tlp-emit --json output (a
    parsed document or its path)."""
    if isinstance(doc, str):
        with open(doc) as f:
            doc = json.load(f)
    units = set()
    kernels = links = 0
    for u in doc["units"]:
        units.add(u["id"])
        for k in u["kernels"]:
            kernels += 1
            links += len(k.get("pre_nodes", [])) + len(k.get("post_nodes", []))
    return units, kernels, links


def lost(before, after):
    """\p after (a summary) lost a unit, a kernel or a node link of
    \p before."""
    (units0, kernels0, links0), (units, kernels, links) = before, after
    return not units0 <= units or kernels < kernels0 or links < links0


def unprintable(data):
    """(control characters, invalid UTF-8 bytes) in the bytes \p data:
    C0 but tab and newline, DEL and C1 (U+0080-U+009F)."""
    text = data.decode("utf-8", errors="surrogateescape")
    invalid = sum(1 for c in text if 0xDC80 <= ord(c) <= 0xDCFF)
    controls = sum(1 for c in text
                   if (ord(c) < 0x20 and c not in "\t\n") or
                   0x7F <= ord(c) <= 0x9F)
    return controls, invalid


def names_kernel(text, name):
    # A custom op of AOTInductor (aoti_torch_cpu_scale_rows) is called
    # through the proxy executor.
    if (name.startswith("aoti_torch_")
            and "aoti_torch_proxy_executor_call_function(" in text):
        return True
    for cand in (name, "call_" + name):
        for m in re.finditer(re.escape(cand), text):
            before = text[m.start() - 1] if m.start() else " "
            after = text[m.end()] if m.end() < len(text) else " "
            if (before.isalnum() or before in "_.") and cand[0].isalnum():
                continue
            if after.isalnum() or after == "_":
                continue
            return True
    return False


def conformance(log, doc):
    """Cross-check \p doc (a parsed tlp-emit --json output) against
    \p log (a log file, or a directory of rank logs: each unit's payloads
    are then read from the unit's own `log`), read here on its own:

      - every key of every provenance mapping has a kernel row with call
        lines (but the keys PyTorch carries from earlier compiles);
      - every call line of every kernel is a code line that names the
        kernel;
      - every node name the mapping uses is a node of the unit's graphs;
      - every node line is a graph line that names the node.

    Returns the problems, each `UNIT: ...`."""
    by_log = {}

    def texts_of(u):
        path = log
        if os.path.isdir(log):
            path = u["log"]
            if not os.path.isabs(path) and not os.path.exists(path):
                path = os.path.join(log, os.path.basename(path))
        if path not in by_log:
            by_log[path] = payloads(path)
        return by_log[path]

    problems = []
    for u in doc["units"]:
        texts = texts_of(u)
        art = u["artifacts"]
        kernels = {k["key"]: k for k in u["kernels"]}
        code = texts.get(art["code"]["line"]) if art["code"] else None
        code_lines = code.split("\n") if code is not None else []
        for k in u["kernels"]:
            for n in k["call_lines"]:
                if n > len(code_lines) or not names_kernel(code_lines[n - 1], k["name"]):
                    problems.append("%s: kernel %s: line %d does not name it"
                                    % (u["id"], k["key"], n))
        pre = {n["name"] for n in u["pre_grad_nodes"]}
        post = {n["name"] for n in u["post_grad_nodes"]}
        for role, nodes in (("pre_grad", u["pre_grad_nodes"]),
                            ("post_grad", u["post_grad_nodes"])):
            if not art[role]:
                continue
            text = texts[art[role]["line"]].split("\n")
            for n in nodes:
                if n["op"] == "output":
                    continue
                if n["line"] > len(text) or not re.search(
                        r"(^|[^\w.])" + re.escape(n["name"]) + r"(\W|$)",
                        text[n["line"] - 1]):
                    problems.append("%s: %s node %s: line %d does not name it"
                                    % (u["id"], role, n["name"], n["line"]))
        if not art["mapping"]:
            continue
        mapping = json.loads(texts[art["mapping"]["line"]])
        keys = mapping_keys(mapping)
        # PyTorch 2.13 logs the entries of earlier compiles with a unit
        # (docs/passes/drop-carried-provenance.md): keys whose handle is
        # below the lowest handle comment of the code and that no comment
        # names. They must have no kernel row; their post-grad names are
        # the earlier compile's.
        comment_keys = set()
        for m in re.finditer(r"\[Provenance debug handles\]([^\n]*)", code or ""):
            for k in m.group(1).split(","):
                if re.search(r":\d+$", k.strip()):
                    comment_keys.add(k.strip())
        lowest = min((int(k.rsplit(":", 1)[1]) for k in comment_keys), default=None)
        carried = {k for k in keys if lowest is not None
                   and re.search(r":\d+$", k) and k not in comment_keys
                   and int(k.rsplit(":", 1)[1]) < lowest}
        for key in sorted(carried):
            if key in kernels:
                problems.append("%s: mapping key %s of an earlier compile has "
                                "a kernel row" % (u["id"], key))
        carried_posts = {n for n, vs in mapping.get("postToCppCode", {}).items()
                         if vs and all(v in carried for v in vs)}
        for k in carried:
            carried_posts.update(mapping.get("cppCodeToPost", {}).get(k, []))
        for key in sorted(keys - carried):
            k = kernels.get(key)
            if k is None:
                problems.append("%s: mapping key %s has no kernel row" % (u["id"], key))
            elif not k["call_lines"]:
                problems.append("%s: mapping key %s has no call line" % (u["id"], key))
        for a, b, sa, sb in (("preToPost", "pre", pre, post),
                             ("postToPre", "post", post, pre)):
            for name, vals in mapping.get(a, {}).items():
                # A compile that hit the FX graph cache logs no pre-grad
                # graph: its pre-grad names cannot be checked.
                if name not in sa and (b == "post" or art["pre_grad"]):
                    problems.append("%s: %s name %s is not a node" % (u["id"], b, name))
                for v in vals:
                    if v not in sb and (a == "postToPre" and not art["pre_grad"]):
                        continue
                    if v not in sb:
                        problems.append("%s: %s name %s is not a node" % (u["id"], a, v))
        for name in mapping.get("postToCppCode", {}):
            if name not in post and name not in carried_posts:
                problems.append("%s: post name %s is not a node" % (u["id"], name))
    return problems
