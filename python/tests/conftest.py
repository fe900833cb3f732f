"""Shared set-up of the Python tests (docs/testing.md, Python).

They run against a build's programs: TLP_BIN_DIR (default: the repo's
build/bin) and the package source in python/ (put first on sys.path
here). test_wheel.py builds and installs the wheel instead.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
# The build: CTest sets TLP_OBJ_ROOT and TLP_BIN_DIR; by hand, build/.
OBJ = Path(os.environ.get("TLP_OBJ_ROOT") or ROOT / "build")
os.environ.setdefault("TLP_BIN_DIR", str(OBJ / "bin"))
INPUTS = ROOT / "test" / "Inputs"
EXAMPLE = ROOT / "examples" / "two_compiles.log"


def torch_logs():
    d = os.environ.get("TLP_TORCH_LOGS") or str(OBJ / "torch-logs")
    return Path(d) if (Path(d) / "manifest.json").is_file() else None


def torch_python():
    """The PyTorch venv's python (utils/install-deps.sh --torch), or None."""
    venv = os.environ.get("TLP_TORCH_VENV") or str(OBJ / "torch-venv")
    py = Path(venv) / "bin" / "python"
    if not py.is_file():
        return None
    ok = subprocess.run([str(py), "-c", "import torch"], capture_output=True)
    return py if ok.returncode == 0 else None


@pytest.fixture
def tlp_cmd():
    """The `tlp` command as a subprocess: this python, the source tree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "python") + os.pathsep + env.get("PYTHONPATH", "")

    def run(*args, cwd=None, extra_env=None, **kw):
        e = dict(env)
        e.update(extra_env or {})
        return subprocess.run([sys.executable, "-m", "tlp", *map(str, args)],
                              cwd=cwd, env=e, capture_output=True, text=True, **kw)
    return run


@pytest.fixture
def emit():
    def run(*args):
        return subprocess.run([os.path.join(os.environ["TLP_BIN_DIR"], "tlp-emit"),
                               *map(str, args)], capture_output=True, text=True)
    return run
