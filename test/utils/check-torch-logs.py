#!/usr/bin/env python3
"""Conformance of tlp over the logs utils/gen-torch-logs.py wrote.

    check-torch-logs.py --tools BIN --logs DIR --tmp TMP
                        [--dot DOT] [--browser NODE CHROMIUM SHOTS]
                        [--browser-runs all|provenance] [--max N]
                        [--only NAME,...]

For every run in DIR/manifest.json (each run's log directory DIR/NAME/trace
and its manifest DIR/NAME/manifest.json):

  - tlp-opt --link-provenance --verify-each exits 0 (problems are
    diagnostics, never crashes) and its IR prints back the same;
  - no warning: tlp-opt --strict --link-provenance and tlp-emit --strict
    --json pass (a log PyTorch wrote unmodified gives notes at most;
    warnings are for damaged or inconsistent logs);
  - tlp-emit --json exits 0 and its output keeps docs/json.md's schema
    (tlplog.verdict.json_problems, what check-json.py checks);
  - the units are the ones the program compiled (the run's manifest:
    rank, compile id, graph and region (subgraph name) of each, none
    missing, none extra);
  - tlplog.verdict.conformance (check-conformance.py): every mapping key
    has a kernel row with call lines, every call line names its kernel,
    every node line names its node;
  - each log's torch_version in the JSON is what its torch_version
    artifact says (null when it has none);
  - every event is read or counted: an independent scan of the envelopes
    (tlplog.log.count_kinds: plain Python, FORMAT.md section 1) counts each
    kind (`artifact:NAME`,
    `graph_dump:NAME` for generic artifacts); stats.events is the number
    of envelopes, and each kind tlp does not read (READ below, from
    docs/inputs.md) has exactly its count in stats.unknown_kinds;
  - each rank's collective schedules, estimated ops and graph execution
    order are those its log holds (the compile ids as the log gives them);
  - the export report names each exported program (its line) and each
    operator draft export found without a fake kernel or with one that
    disagrees, as the log does;
  - every event not read, and every AOT graph, is listed to be shown raw
    (the JSON's artifacts): at its log and line, with its kind, compile id
    and payload line count as an independent scan of the log finds them;
  - tlp-emit --md and --html exit 0 and their index says what was not read;
  - with --dot: every unit, in every --graph mode, gives DOT that Graphviz
    renders without a word on stderr (post and provenance collapsed and
    not; only collapsed above LARGE post-grad nodes);
  - with --browser: the HTML pages pass test/Integration/Browser/check-pages.js (at
    most --max kernels and nodes a unit; --browser-runs=provenance: only
    the runs with INDUCTOR_PROVENANCE=1; after the other checks, two
    browsers check them side by side, each run's lines printed then).

Prints one line per run and `N runs checked, P problems`; exit 1 on any
problem."""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Units with more post-grad nodes are drawn with --collapse-kernels only.
LARGE = 1000
sys.path.insert(0, os.path.join(HERE, "..", "..", "utils"))
from tlplog import log as tlplog_log  # noqa: E402
from tlplog import verdict  # noqa: E402

# The events tlp reads (docs/inputs.md); everything else must be counted.
READ = {"str", "dynamo_start", "aot_forward_graph", "aot_backward_graph",
        "aot_inference_graph", "inductor_pre_grad_graph",
        "inductor_post_grad_graph", "inductor_output_code",
        "graph_dump:inductor_aot_wrapper_code", "graph_dump:inductor_aot_code",
        "graph_dump:inductor_aot_kernel_code"}
READ |= {"artifact:" + n for n in (
    "before_pre_grad_graph", "inductor_pre_grad_graph",
    "before_recompile_pre_grad", "after_post_grad_graph",
    "inductor_post_grad_graph", "after_recompile_post_grad",
    "inductor_provenance_tracking_node_mappings",
    "inductor_provenance_tracking_kernel_stack_traces", "triton_kernel_info",
    "inductor_post_to_pre_grad_nodes",
    "inductor_triton_kernel_to_post_grad_nodes",
    "inductor_generated_kernel_to_post_grad_nodes")}
# Read into compile records (docs/inputs.md).
READ |= {"compilation_metrics", "dynamo_guards", "dynamo_cpp_guards_str",
         "chromium_event", "bwd_compilation_metrics",
         "aot_autograd_backward_compilation_metrics",
         "compilation_metrics_runtime", "bwd_compilation_metrics_runtime"}
READ |= {"artifact:" + n for n in (
    "recompile_reasons", "dynamo_error", "dynamo_graph_break_reason",
    "fx_graph_cache_hit", "fx_graph_cache_miss", "fx_graph_cache_bypass",
    "aotautograd_cache_hit", "aotautograd_cache_miss",
    "aotautograd_cache_bypass", "aotautograd_cache_hash")}
# Read into the log's entry (its PyTorch).
READ |= {"artifact:torch_version"}
# Read into compile records' symbolic shapes.
READ |= {"create_symbol", "create_unbacked_symbol", "guard_added_fast",
         "guard_added", "symbolic_shape_specialization",
         "guard_on_data_dependent_error", "propagate_real_tensors",
         "propagate_real_tensors_provenance"}
# Read into the records' runtime data (rank_runtime).
READ |= {"artifact:inductor_collective_schedule",
         "artifact:inductor_runtime_and_tensor_meta",
         "artifact:graph_execution"}
# Read into the export report (their texts also shown raw).
EXPORT = {"export", "exported_program", "missing_fake_kernel",
          "mismatched_fake_kernel"}
READ |= EXPORT
# Read and also shown raw: the AOT graphs, the export's start and program.
SHOWN_RAW = {"aot_forward_graph", "aot_backward_graph", "aot_inference_graph",
             "export", "exported_program"}


def page_name(run):
    """A run's name in the browser checks (and its screenshots' names)."""
    return "torch_" + run.replace("-", "_")


class Checker:
    def __init__(self, a):
        self.a = a
        self.problems = 0
        self.errors = []
        # Each run's lines, printed in run order once the browser checks
        # (one batch for every run) have added theirs.
        self.lines = collections.defaultdict(list)
        self.pages = []  # (run, its JSON, its HTML folder)

    def tool(self, name):
        return os.path.join(self.a.tools, name)

    def problem(self, run, msg):
        self.problems += 1
        self.lines[run].append("%s: error: %s" % (run, msg))
        self.errors.append("%s: error: %s" % (run, msg))

    def call(self, run, argv, what, **kw):
        p = subprocess.run(argv, capture_output=True, text=True, **kw)
        if p.returncode != 0:
            self.problem(run, "%s exited %d: %s" % (
                what, p.returncode, (p.stderr or p.stdout).strip()[-2000:]))
            return None
        return p

    def check_run(self, name):
        a = self.a
        d = os.path.join(a.logs, name)
        with open(os.path.join(d, "manifest.json")) as f:
            man = json.load(f)
        trace = os.path.join(d, "trace")
        if man["status"] != "ok":
            self.problem(name, "the generator reported: " + man["status"])
        tmp = os.path.join(a.tmp, name)
        os.makedirs(tmp, exist_ok=True)
        ir = os.path.join(tmp, "out.yaml")
        if not self.call(name, [self.tool("tlp-opt"), "--link-provenance",
                                "--verify-each", trace, "-o", ir], "tlp-opt"):
            return
        p = self.call(name, [self.tool("tlp-opt"), ir], "tlp-opt on its IR")
        if p:
            with open(ir) as f:
                if p.stdout != f.read():
                    self.problem(name, "the IR does not print back the same")
        # Notes are fine, a warning is a bug in tlp (the log is PyTorch's,
        # unmodified).
        for tool, argv in (("tlp-opt", ["--link-provenance"]),
                           ("tlp-emit", ["--json"])):
            p = subprocess.run([self.tool(tool), "--strict"] + argv +
                               [trace, "-o", os.devnull],
                               capture_output=True, text=True)
            if p.returncode:
                warnings = verdict.warnings(p.stderr)
                self.problem(name, "%s --strict %s exited %d on the "
                             "unmodified log: %s" % (
                                 tool, " ".join(argv), p.returncode,
                                 "; ".join(warnings[:3])[:2000]))
        js = os.path.join(tmp, "out.json")
        if not self.call(name, [self.tool("tlp-emit"), "--json", trace,
                                "-o", js], "tlp-emit --json"):
            return
        with open(js) as f:
            doc = json.load(f)
        for p in verdict.json_problems(doc):
            self.problem(name, "the JSON: " + p)

        # The units the program compiled.
        # The region of a regional inductor compile (its subgraph name).
        got = collections.Counter((u["rank"], u["compile_id"], u["graph"],
                                   u.get("subgraph"))
                                  for u in doc["units"])
        want = collections.Counter((u["rank"], u["compile_id"], u["graph"],
                                    u.get("subgraph"))
                                   for u in man["units"])
        for k in sorted(want - got, key=repr):
            self.problem(name, "unit %s not found" % (k,))
        for k in sorted(got - want, key=repr):
            self.problem(name, "unit %s found, the program did not compile it"
                         % (k,))

        for p in verdict.conformance(trace, doc):
            self.problem(name, "%s: %s" % (trace, p))

        # The PyTorch of each log, as its torch_version artifact says
        # (read here on its own: tlplog), or null when it says nothing.
        by_path = {os.path.basename(l["path"]): l for l in doc["logs"]}
        for path in sorted(glob.glob(os.path.join(trace, "*.log"))):
            text = tlplog_log.lines(path)
            pl = tlplog_log.payloads(text)
            want = None
            for i, env in tlplog_log.envelopes(text):
                if tlplog_log.kind(env) == "artifact:torch_version":
                    want = json.loads(pl[i])["pytorch_version"]
                    break
            got = by_path.get(os.path.basename(path), {}).get("torch_version")
            if got != want:
                self.problem(name, "%s: torch_version %r, the log says %r"
                             % (os.path.basename(path), got, want))

        # Every event read or counted.
        kinds = tlplog_log.count_kinds(trace)
        stats = doc["stats"]
        if stats["events"] != sum(kinds.values()):
            self.problem(name, "stats.events is %d, the log has %d envelopes"
                         % (stats["events"], sum(kinds.values())))
        unknown = stats["unknown_kinds"]
        for k, n in sorted(kinds.items()):
            if k in READ:
                if k in unknown:
                    self.problem(name, "%s is read but counted as not read" % k)
            elif unknown.get(k) != n:
                self.problem(name, "%d events of %s, %s counted as not read"
                             % (n, k, unknown.get(k, "none")))
        for k in sorted(set(unknown) - set(kinds)):
            self.problem(name, "%s counted as not read, not in the log" % k)
        not_read = sum(unknown.values())

        # Every event not read, and every AOT graph, listed to be shown raw
        # (docs/html.md, "Artifacts"): where it is, its compile id and its
        # payload's lines, against the log itself.
        want_raw = {}
        files = [trace] if os.path.isfile(trace) else [
            os.path.join(trace, fn) for fn in sorted(os.listdir(trace))]
        for path in files:
            texts = tlplog_log.payloads(path)
            for line, env in tlplog_log.envelopes(path):
                k = tlplog_log.kind(env)
                if k in READ and not (k in SHOWN_RAW and line in texts):
                    continue
                n = len(texts[line].split("\n")) if line in texts else 0
                cid = tlplog_log.compile_id(env)
                # Compiled autograd's own events carry only its id: "!A",
                # as PyTorch's CompileId prints it.
                if cid is None and env.get("compiled_autograd_id") is not None:
                    cid = "!%d" % env["compiled_autograd_id"] + (
                        "_%d" % env["attempt"] if env.get("attempt") else "")
                want_raw[(os.path.basename(path), line)] = (k, cid, n)
        got_raw = {}
        listed = [(c["compile_id"], x) for c in doc["compiles"]
                  for x in c["artifacts"]] + [(None, x) for x in doc["artifacts"]]
        for cid, x in listed:
            path = os.path.basename(doc["logs"][x["log"]]["path"])
            got_raw[(path, x["line"])] = (x["name"], x["compile_id"],
                                          x["payload_lines"])
            if cid is not None and x["compile_id"] != cid:
                self.problem(name, "%s:%d listed under compile %s, its id is %s"
                             % (path, x["line"], cid, x["compile_id"]))
        # What ran on each rank: each compile's collective schedule and
        # estimated ops, and each rank's graph execution order, as logged.
        rt = doc.get("rank_runtime") or {"compiles": [], "executions": {}}
        want_s, got_s, want_x, got_x = {}, {}, {}, {}
        for path in files:
            texts = tlplog_log.payloads(path)
            for line, env in tlplog_log.envelopes(path):
                k = tlplog_log.kind(env)
                r = env.get("rank", -1)
                if line not in texts:
                    continue
                try:
                    v = json.loads(texts[line])
                except ValueError:
                    continue
                cid = tlplog_log.compile_id(env)
                if k == "artifact:inductor_collective_schedule":
                    want_s.setdefault((str(r), cid), []).extend(
                        x if isinstance(x, str) else "?" for x in v)
                elif k == "artifact:inductor_runtime_and_tensor_meta":
                    want_s.setdefault((str(r), cid, "ops"), []).extend(
                        op.get("name") for op in v.get("ops", []))
                elif k == "artifact:graph_execution":
                    want_x.setdefault(str(r), []).extend(
                        e.get("compile_id") for e in v["graph_execution_order"])
        for c in rt["compiles"]:
            for r, d in c["ranks"].items():
                if d["collective_schedule"]:
                    got_s[(r, c["compile"])] = d["collective_schedule"]
                if d["ops"]:
                    got_s[(r, c["compile"], "ops")] = [o["name"] for o in d["ops"]]
        got_x = rt["executions"]
        if want_s != got_s or want_x != got_x:
            self.problem(name, "rank runtime %r %r, the logs have %r %r"
                         % (got_s, got_x, want_s, want_x))
        divergences = len(rt.get("divergences", []))

        # The export report: each exported program at its line, each
        # operator draft export found without a fake kernel.
        want_exp, got_exp = [], []
        for path in files:
            for line, env in tlplog_log.envelopes(path):
                k = tlplog_log.kind(env)
                if k == "exported_program":
                    want_exp.append((os.path.basename(path), "program", line))
                elif k in ("missing_fake_kernel", "mismatched_fake_kernel"):
                    want_exp.append((os.path.basename(path), k,
                                     env[k].get("op")))
        for x in doc.get("exports", []):
            path = os.path.basename(doc["logs"][x["log"]]["path"])
            got_exp += [(path, "program", p["line"]) for p in x["programs"]]
            got_exp += [(path, f["kind"], f["op"]) for f in x["fake_kernels"]]
        if sorted(want_exp) != sorted(got_exp):
            self.problem(name, "export report %r, the log has %r"
                         % (sorted(got_exp), sorted(want_exp)))
        for key in sorted(set(want_raw) | set(got_raw)):
            if want_raw.get(key) != got_raw.get(key):
                self.problem(name, "%s:%d shown raw as %r, the log has %r"
                             % (key[0], key[1], got_raw.get(key),
                                want_raw.get(key)))
                break

        md = self.call(name, [self.tool("tlp-emit"), "--md", trace],
                       "tlp-emit --md")
        if md and not_read and ("%d of %d events are of kinds" % (
                not_read, stats["events"])) not in md.stdout:
            self.problem(name, "the Markdown report does not say what was not read")
        html = os.path.join(tmp, "html")
        if self.call(name, [self.tool("tlp-emit"), "--html", trace, "-o",
                            html], "tlp-emit --html"):
            with open(os.path.join(html, "index.html")) as f:
                if not_read and 'id="not-read"' not in f.read():
                    self.problem(name, "the HTML index does not say what was not read")

        dots = 0
        if a.dot:
            for i, u in enumerate(doc["units"]):
                # Kernels as clusters: dot takes minutes on the GPT unit's
                # 2,400 nodes in 290 clusters, so a large unit is drawn
                # collapsed only (docs/dot.md, "Large graphs").
                modes = [("pre", ""), ("post", "--collapse-kernels"),
                         ("provenance", "--collapse-kernels")]
                if len(u["post_grad_nodes"]) <= LARGE:
                    modes += [("post", ""), ("provenance", "")]
                for g, c in modes:
                    dot = os.path.join(tmp, "g.dot")
                    if not self.call(name, [self.tool("tlp-emit"), "--dot",
                                            "--unit=%d" % i, "--graph=" + g] +
                                     ([c] if c else []) + [trace, "-o", dot],
                                     "tlp-emit --dot --unit=%d --graph=%s %s"
                                     % (i, g, c)):
                        continue
                    p = subprocess.run([a.dot, "-Tsvg", dot, "-o",
                                        os.path.join(tmp, "g.svg")],
                                       capture_output=True, text=True)
                    if p.returncode or p.stderr:
                        self.problem(name, "dot on unit %d --graph=%s %s: %s" % (
                            i, g, c, p.stderr.strip()[:500]))
                    dots += 1

        browser = bool(a.browser and doc["units"] and (
            man["provenance"] or a.browser_runs == "all"))

        kernels = sum(len(u["kernels"]) for u in doc["units"])
        post = max([len(u["post_grad_nodes"]) for u in doc["units"]] or [0])
        line = ("%s: %d units, %d kernels, largest post-grad graph %d nodes, "
                "%d events (%d not read, %d shown raw)%s%s" % (
                    name, len(doc["units"]), kernels, post, stats["events"],
                    not_read, len(got_raw),
                    ", %d rank divergences" % divergences if divergences else "",
                    ", %d diagrams" % dots if a.dot else ""))
        if browser:
            self.pages.append((name, js, html))
        self.lines[name].append(line)

    def check_pages(self):
        """The browser checks of every run's pages, in one browser; each
        run's line then says whether they passed."""
        if not self.pages:
            return
        a = self.a
        node, chromium, shots = a.browser
        batch = os.path.join(a.tmp, "pages.json")
        with open(batch, "w") as f:
            json.dump([{"name": page_name(name),
                        "json": js, "dir": html}
                       for name, js, html in self.pages], f)
        p = subprocess.run(
            [node, os.path.join(a.srcroot, "test", "Integration",
                                "Browser", "check-pages.js"),
             "--batch", batch, "--shots", shots, "--max", str(a.max)],
            capture_output=True, text=True,
            env=dict(os.environ, TLP_CHROMIUM=chromium))
        # Each entry's lines follow `== NAME`, its verdict `== NAME: ...`.
        out, cur = collections.defaultdict(list), None
        verdict = {}
        for l in p.stdout.splitlines():
            if l.startswith("== "):
                head = l[3:]
                if ": " in head:
                    cur, v = head.split(": ", 1)
                    verdict[cur] = v
                    cur = None
                else:
                    cur = head
            elif cur is not None:
                out[cur].append(l)
        for name, _, _ in self.pages:
            key = page_name(name)
            if verdict.get(key) == "passed":
                self.lines[name][-1] += ", browser checks passed"
                continue
            text = "\n".join(out[key]) or (p.stdout + p.stderr).strip()
            self.problem(name, "browser checks: " + (
                verdict.get(key, "not run (exit %d)" % p.returncode) + ": " +
                text.strip())[-2000:])
        if p.returncode and all(verdict.get(page_name(n)) == "passed"
                                for n, _, _ in self.pages):
            self.problem("browser", "check-pages.js exited %d: %s" % (
                p.returncode, (p.stdout + p.stderr).strip()[-2000:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--logs", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--dot")
    ap.add_argument("--browser", nargs=3)
    ap.add_argument("--browser-runs", choices=("all", "provenance"),
                    default="all", help="the runs the browser checks")
    ap.add_argument("--max", type=int, default=200,
                    help="kernels and nodes the browser checks per unit")
    ap.add_argument("--srcroot", default=os.path.dirname(os.path.dirname(HERE)))
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    if a.only:
        runs = a.only.split(",")
    else:
        with open(os.path.join(a.logs, "manifest.json")) as f:
            runs = json.load(f)["runs"]
    c = Checker(a)
    for r in sorted(runs):
        c.check_run(r)
    c.check_pages()
    for r in sorted(runs):
        for line in c.lines[r]:
            print(line)
    for line in c.lines["browser"]:
        print(line)
    # The problems again, next to the summary: a FileCheck failure shows
    # the lines around it, not the run's lines far above.
    for line in c.errors:
        print(line)
    print("%d runs checked, %d problems" % (len(runs), c.problems))
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main())
