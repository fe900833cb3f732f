"""The `tlp` command: the short form of tlp-emit --html, --latest, and
`tlp run` with a stand-in program (test_torch.py runs real PyTorch)."""

import os
import sys
import time
from pathlib import Path

from conftest import EXAMPLE, INPUTS, fixture

# Writes a TORCH_TRACE log as PyTorch would (a copy of the example), the
# INDUCTOR_PROVENANCE it saw, then exits with the status it is given.
FAKE = """
import os, shutil, sys
d = os.environ["TORCH_TRACE"]
shutil.copy(sys.argv[1], os.path.join(d, "dedicated_log_torch_trace_abcd1234.log"))
open(sys.argv[2], "w").write(os.environ.get("INDUCTOR_PROVENANCE", "unset"))
sys.exit(int(sys.argv[3]))
"""


def test_help(tlp_cmd):
    r = tlp_cmd("--help")
    assert r.returncode == 0 and "LOG_OR_DIR" in r.stdout and "tlp run" in r.stdout
    r = tlp_cmd("run", "--help")
    assert r.returncode == 0 and "TORCH_TRACE" in r.stdout


def test_report(tlp_cmd, tmp_path):
    r = tlp_cmd(EXAMPLE, "-o", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "index.html").is_file()
    assert r.stdout.strip() == f"tlp: report: {tmp_path / 'out' / 'index.html'}"


def test_report_errors(tlp_cmd, tmp_path):
    r = tlp_cmd(tmp_path / "missing.log")
    assert r.returncode == 2
    assert r.stderr.strip() == f"tlp: error: '{tmp_path / 'missing.log'}' does not exist"
    r = tlp_cmd("--latest", EXAMPLE)
    assert r.returncode == 2 and "tlp: error: --latest needs a directory" in r.stderr
    r = tlp_cmd("--latest", tmp_path)
    assert r.returncode == 2 and "tlp: error: no TORCH_TRACE logs" in r.stderr
    r = tlp_cmd()
    assert r.returncode == 2 and "tlp: error:" in r.stderr
    bad = tmp_path / "nologs"
    bad.mkdir()
    (bad / "notes.txt").write_text("not a log\n")
    r = tlp_cmd(bad, "-o", tmp_path / "o")
    assert r.returncode == 1 and "tlp: error: tlp-emit could not write the report" in r.stderr


def test_report_profile(tlp_cmd, tmp_path):
    """--profile joins a torch.profiler trace onto the report."""
    log = fixture("jit_cpu_v1")
    trace = INPUTS / "profile" / "jit_cpu.json"
    r = tlp_cmd(log, "--profile", trace, "-o", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    index = (tmp_path / "out" / "index.html").read_text()
    assert "Where the time goes" in index and "cpp_fused_mul_relu_sigmoid_0" in index
    r = tlp_cmd(log, "--profile", tmp_path / "none.json", "-o", tmp_path / "o2")
    assert r.returncode == 2
    assert f"tlp: error: profile '{tmp_path / 'none.json'}' does not exist" in r.stderr


def test_latest(tlp_cmd, tmp_path):
    """A reused TORCH_TRACE dir: the newest run, with its ranks."""
    d = tmp_path / "trace"
    d.mkdir()
    now = time.time()

    def put(name, src, age):
        p = d / name
        p.write_bytes(Path(src).read_bytes())
        os.utime(p, (now - age, now - age))
    put("dedicated_log_torch_trace_old11111.log", fixture("health"), 3600)
    put("dedicated_log_torch_trace_new22222.log", EXAMPLE, 10)
    r = tlp_cmd("--latest", d, "-o", tmp_path / "o1")
    assert r.returncode == 0, r.stderr
    assert "latest run: " + str(d / "dedicated_log_torch_trace_new22222.log") in r.stderr
    ranks = sorted(fixture("ranks").iterdir())
    for i, src in enumerate(ranks):
        put(f"dedicated_log_torch_trace_rank_{i}_r{i}.log", src, 5 - i)
    put("dedicated_log_torch_trace_rank_0_stale.log", ranks[0], 7200)
    r = tlp_cmd("--latest", d, "-o", tmp_path / "o2")
    assert r.returncode == 0, r.stderr
    picked = r.stderr.split("latest run: ")[1].split("\n")[0].split(", ")
    assert [Path(p).name for p in picked] == [
        f"dedicated_log_torch_trace_rank_{i}_r{i}.log" for i in range(len(ranks))]


def test_run_passes_exit_status(tlp_cmd, tmp_path):
    prog = tmp_path / "fake.py"
    prog.write_text(FAKE)
    for status in (0, 3):
        seen = tmp_path / f"seen{status}"
        r = tlp_cmd("run", "-o", tmp_path / f"rep{status}", "--", sys.executable, prog,
                    EXAMPLE, seen, status, cwd=tmp_path)
        assert r.returncode == status, r.stderr
        assert seen.read_text() == "1"
        # The program failed: it still gets its report.
        assert (tmp_path / f"rep{status}" / "index.html").is_file()
        assert f"tlp: report: {tmp_path / f'rep{status}' / 'index.html'}" in r.stdout
    traces = list((tmp_path / "tlp-out").iterdir())
    assert len(traces) == 2, "each run has a fresh trace directory"
    assert "the program failed (exit status 3)" in r.stderr


def test_run_keeps_user_settings(tlp_cmd, tmp_path):
    prog = tmp_path / "fake.py"
    prog.write_text(FAKE)
    user = tmp_path / "mytrace"
    r = tlp_cmd("run", "--", sys.executable, prog, EXAMPLE, tmp_path / "seen", 0,
                cwd=tmp_path, extra_env={"INDUCTOR_PROVENANCE": "0", "TORCH_TRACE": str(user)})
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "seen").read_text() == "0"
    (run,) = user.iterdir()
    assert list(run.iterdir())[0].name.startswith("dedicated_log_torch_trace_")
    assert (tmp_path / "tlp-out" / run.name / "report" / "index.html").is_file()


def test_run_no_log_and_signal(tlp_cmd, tmp_path):
    r = tlp_cmd("run", "--", sys.executable, "-c", "import sys; sys.exit(7)", cwd=tmp_path)
    assert r.returncode == 7
    assert "tlp: error: the program wrote no TORCH_TRACE log" in r.stderr
    r = tlp_cmd("run", "--", sys.executable, "-c", "import os; os.kill(os.getpid(), 9)",
                cwd=tmp_path)
    assert r.returncode == 128 + 9 and "signal 9" in r.stderr
    r = tlp_cmd("run", "--", str(tmp_path / "no-such-program"), cwd=tmp_path)
    assert r.returncode == 2 and "tlp: error: cannot run" in r.stderr
    r = tlp_cmd("run", cwd=tmp_path)
    assert r.returncode == 2 and "tlp: error: run: no program given" in r.stderr


def test_open(tlp_cmd, tmp_path):
    """--open hands the report's file URL to the browser ($BROWSER here)."""
    opener = tmp_path / "opener.sh"
    opener.write_text(f'#!/bin/sh\necho "$1" > {tmp_path / "opened"}\n')
    opener.chmod(0o755)
    r = tlp_cmd(EXAMPLE, "-o", tmp_path / "out", "--open",
                extra_env={"BROWSER": f"{opener} %s", "DISPLAY": ""})
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "opened").read_text().strip() == \
        (tmp_path / "out" / "index.html").as_uri()
