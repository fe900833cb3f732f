"""The `tlp` command (docs/python.md).

    tlp run [-o DIR] [--open] [--profile TRACE] -- PROGRAM ARGS...
    tlp [--latest] [-o DIR] [--open] [--profile TRACE] LOG_OR_DIR

`tlp run` runs PROGRAM with TORCH_TRACE set to a fresh directory and
INDUCTOR_PROVENANCE=1 (unless already set), then writes the HTML report
with tlp-emit --html, whatever the program's outcome, and exits with the
program's exit status. `tlp LOG_OR_DIR` is the short form of
`tlp-emit --html LOG_OR_DIR -o DIR`. `--profile TRACE` joins a
torch.profiler Chrome trace onto the report (tlp-emit --profile): which
kernels and user lines the time went to.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import signal
import subprocess
import sys
import tempfile
import webbrowser
from pathlib import Path
from typing import List, NoReturn, Optional, Sequence

from . import __version__
from ._tools import TlpError, find_tool

PROG = "tlp"
DEFAULT_OUT = "tlp-out"

# The name PyTorch gives a TORCH_TRACE log: dedicated_log_torch_trace_
# [rank_N_]XXXXXXXX.log (torch/_logging/_internal.py).
_LOG_NAME = re.compile(r"^dedicated_log_torch_trace_(?:rank_(\d+)_)?[^/]*\.log$")


class UsageError(Exception):
    pass


def _error(msg: str) -> NoReturn:
    raise UsageError(msg)


def _say(msg: str) -> None:
    print(f"{PROG}: {msg}", file=sys.stderr)


def _run_id() -> str:
    now = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"run-{now}-{os.getpid()}"


def _logs_in(d: Path) -> List[Path]:
    return sorted(p for p in d.iterdir() if p.is_file() and _LOG_NAME.match(p.name))


def latest_run(d: Path) -> List[Path]:
    """The newest run's logs in a directory that holds several runs.

    A run is one log, or, for a distributed job, one log per rank: the
    newest log (by modification time), with the newest log of each other
    rank written within a minute of it. The rule is an inference (PyTorch
    writes no run id in the file names); `tlp --latest` prints what it
    picked.
    """
    logs = _logs_in(d)
    if not logs:
        _error(f"no TORCH_TRACE logs (dedicated_log_torch_trace_*.log) in '{d}'")
    mtime = {p: p.stat().st_mtime for p in logs}
    newest = max(logs, key=lambda p: (mtime[p], p.name))
    m = _LOG_NAME.match(newest.name)
    if not m or m.group(1) is None:
        return [newest]
    picked = {m.group(1): newest}
    for p in sorted(logs, key=lambda p: (mtime[p], p.name), reverse=True):
        r = _LOG_NAME.match(p.name)
        if r and r.group(1) is not None and r.group(1) not in picked \
                and mtime[newest] - mtime[p] <= 60:
            picked[r.group(1)] = p
    return sorted(picked.values(), key=lambda p: int(_LOG_NAME.match(p.name).group(1)))  # type: ignore[union-attr]


def _emit_html(inputs: Sequence[Path], out: Path,
               profile: Optional[Path] = None) -> int:
    """tlp-emit --html; several logs go in through a directory of links."""
    emit = find_tool("tlp-emit")
    if len(inputs) == 1:
        src = inputs[0]
        tmp = None
    else:
        tmp = tempfile.TemporaryDirectory(prefix="tlp-latest-")
        src = Path(tmp.name)
        for p in inputs:
            os.symlink(p.resolve(), src / p.name)
    try:
        cmd = [emit, "--html", str(src), "-o", str(out)]
        if profile is not None:
            cmd += ["--profile", str(profile)]
        rc = subprocess.call(cmd)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return rc


def _index(out: Path) -> Path:
    return out / "index.html" if out.is_dir() else out


def _report(inputs: Sequence[Path], out: Path, open_it: bool,
            profile: Optional[Path] = None) -> int:
    if profile is not None and not profile.is_file():
        _error(f"profile '{profile}' does not exist")
    rc = _emit_html(inputs, out, profile)
    if rc != 0:
        _say(f"error: tlp-emit could not write the report (exit status {rc})")
        return rc
    page = _index(out)
    print(f"{PROG}: report: {page}")
    if open_it:
        webbrowser.open(page.resolve().as_uri())
    return 0


def _report_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        usage="%(prog)s [-h] [--version] [--latest] [-o DIR] [--open] "
              "[--profile TRACE] LOG_OR_DIR\n"
              "       %(prog)s run [-o DIR] [--open] [--profile TRACE] -- "
              "PROGRAM [ARGS...]",
        description="Write the HTML provenance report of a TORCH_TRACE log or "
                    "directory (tlp-emit --html), or run a program and report on it "
                    "(`tlp run --help`).")
    p.add_argument("input", metavar="LOG_OR_DIR",
                   help="a TORCH_TRACE log, or a directory of logs (one run's ranks)")
    p.add_argument("-o", dest="out", metavar="DIR", default=DEFAULT_OUT,
                   help=f"output directory (default: {DEFAULT_OUT}), or a .html file "
                        "for one page")
    p.add_argument("--latest", action="store_true",
                   help="the directory holds several runs (a reused TORCH_TRACE "
                        "directory): report on the newest")
    p.add_argument("--open", action="store_true", help="open the report in a browser")
    p.add_argument("--profile", metavar="TRACE", type=Path,
                   help="a torch.profiler Chrome trace (export_chrome_trace) to "
                        "join onto the report: where the time goes")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return p


def _run_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=f"{PROG} run",
        usage="%(prog)s [-h] [-o DIR] [--open] [--profile TRACE] -- PROGRAM [ARGS...]",
        description="Run PROGRAM with TORCH_TRACE set to a fresh directory and "
                    "INDUCTOR_PROVENANCE=1 (unless set), then write the HTML report, "
                    "also when the program fails, and exit with its exit status.",
        epilog=f"Without -o, the trace and the report go to {DEFAULT_OUT}/run-TIME-PID/"
               "{trace,report}; with TORCH_TRACE already set, the trace goes to a new "
               "directory inside it.")
    p.add_argument("-o", dest="out", metavar="DIR",
                   help="the report's directory (default: next to the trace)")
    p.add_argument("--open", action="store_true", help="open the report in a browser")
    p.add_argument("--profile", metavar="TRACE", type=Path,
                   help="the Chrome trace the program writes with torch.profiler, "
                        "joined onto the report when it ends")
    p.add_argument("program", nargs=argparse.REMAINDER, metavar="PROGRAM ARGS",
                   help="the command to run, after --")
    return p


def cmd_report(argv: Sequence[str]) -> int:
    args = _report_parser().parse_args(argv)
    src = Path(args.input)
    if not src.exists():
        _error(f"'{src}' does not exist")
    inputs = [src]
    if args.latest:
        if not src.is_dir():
            _error("--latest needs a directory")
        inputs = latest_run(src)
        _say("latest run: " + ", ".join(str(p) for p in inputs))
    return _report(inputs, Path(args.out), args.open, args.profile)


def cmd_run(argv: Sequence[str]) -> int:
    args = _run_parser().parse_args(argv)
    program = list(args.program)
    if program and program[0] == "--":
        program = program[1:]
    if not program:
        _error("run: no program given (tlp run -- python train.py ...)")
    run_id = _run_id()
    user_trace = os.environ.get("TORCH_TRACE")
    trace = Path(user_trace) / run_id if user_trace else \
        Path(DEFAULT_OUT) / run_id / "trace"
    out = Path(args.out) if args.out else Path(DEFAULT_OUT) / run_id / "report"
    trace.mkdir(parents=True, exist_ok=False)
    env = dict(os.environ)
    env["TORCH_TRACE"] = str(trace.resolve())
    env.setdefault("INDUCTOR_PROVENANCE", "1")
    _say(f"trace: {trace}")
    # Ctrl-C goes to the program (same process group); tlp waits for it
    # and still writes the report.
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        try:
            proc = subprocess.Popen(program, env=env)
        except OSError as e:
            _error(f"cannot run '{program[0]}': {e.strerror}")
        status = proc.wait()
    finally:
        signal.signal(signal.SIGINT, old)
    code = status if status >= 0 else 128 - status
    if status != 0:
        how = f"exit status {status}" if status > 0 else f"signal {-status}"
        _say(f"the program failed ({how}); the report shows what it compiled")
    if not _logs_in(trace):
        _say(f"error: the program wrote no TORCH_TRACE log in '{trace}' "
             "(did it call torch.compile?)")
        return code
    profile = args.profile
    if profile is not None and not profile.is_file():
        _say(f"the program wrote no profile '{profile}'; the report has no times")
        profile = None
    _report([trace], out, args.open, profile)
    return code


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "run":
            return cmd_run(argv[1:])
        return cmd_report(argv)
    except (UsageError, TlpError) as e:
        _say(f"error: {e}")
        return 2 if isinstance(e, UsageError) else 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
