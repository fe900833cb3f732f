"""Finding and running tlp-emit: the C++ tools do the reading."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Optional, List, Sequence


class TlpError(Exception):
    """tlp-emit failed or was not found; the message is its diagnostics."""


def find_tool(name: str) -> str:
    """The path of tlp-emit or tlp-opt.

    Looked for, in order: the directory $TLP_BIN_DIR names (a build tree's
    bin/), the scripts directory of this Python (where `pip install`
    put them), the directory of the running `tlp` command, then PATH.
    """
    dirs: List[str] = []
    env = os.environ.get("TLP_BIN_DIR")
    if env:
        dirs.append(env)
    scripts = sysconfig.get_path("scripts")
    if scripts:
        dirs.append(scripts)
    if sys.argv and sys.argv[0]:
        dirs.append(str(Path(sys.argv[0]).resolve().parent))
    for d in dirs:
        cand = Path(d) / name
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    found = shutil.which(name)
    if found:
        return found
    raise TlpError(
        f"cannot find {name}: install tlp (pip install .) or set TLP_BIN_DIR "
        "to a build's bin directory")


def run_emit(args: Sequence[str], capture: bool = True) -> subprocess.CompletedProcess:
    """Run tlp-emit with `args`; raise TlpError with its stderr on failure."""
    cmd = [find_tool("tlp-emit"), *args]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE if capture else None,
                          stderr=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise TlpError(err or f"tlp-emit exited with {proc.returncode}")
    return proc


def emit_json(path: "os.PathLike[str] | str",
              profile: "Optional[os.PathLike[str] | str]" = None) -> bytes:
    """The JSON document (docs/json.md) of a log, directory of logs or IR;
    with `profile`, a torch.profiler Chrome trace joined onto it
    (tlp-emit --profile, docs/profile.md)."""
    args = ["--json", os.fspath(path)]
    if profile is not None:
        args += ["--profile", os.fspath(profile)]
    return run_emit(args).stdout