"""Shared set-up of the Python tests (docs/testing.md, Python).

They run against a build's programs: TLP_BIN_DIR (default: the repo's
build/bin) and the package source in python/ (put first on sys.path
here). test_wheel.py builds and installs the wheel instead.
"""

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
# The build: CTest sets TLP_OBJ_ROOT and TLP_BIN_DIR; by hand, build/.
OBJ = Path(os.environ.get("TLP_OBJ_ROOT") or ROOT / "build")
os.environ.setdefault("TLP_BIN_DIR", str(OBJ / "bin"))
INPUTS = ROOT / "test" / "Inputs"
EXAMPLE = ROOT / "examples" / "two_compiles.log"
_FIXTURES = None


def fixture(name):
    """The fixture log test/Inputs/NAME.log (or the directory NAME/), made
    from its YAML by the build's tlp-yaml2log, as the lit tests make it
    (docs/testing.md, Fixtures); files that are not YAML are copied."""
    global _FIXTURES
    if _FIXTURES is None:
        _FIXTURES = Path(tempfile.mkdtemp(prefix="tlp-fixtures-"))
        atexit.register(shutil.rmtree, _FIXTURES, True)
    yaml2log = os.path.join(os.environ["TLP_BIN_DIR"], "tlp-yaml2log")
    src = INPUTS / name

    def make(y, out):
        subprocess.run([yaml2log, str(y), "-o", str(out)], check=True)
    if src.is_dir():
        out = _FIXTURES / name
        if not out.is_dir():
            out.mkdir(parents=True)
            for f in sorted(src.iterdir()):
                if f.suffix == ".yaml":
                    make(f, out / (f.stem + ".log"))
                else:
                    shutil.copy(f, out / f.name)
        return out
    out = _FIXTURES / (name + ".log")
    if not out.is_file():
        make(INPUTS / (name + ".yaml"), out)
    return out


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
