"""The wheel: built once (pip wheel with the project's CMake, through
scikit-build-core), installed into a fresh venv, run there with nothing
of the build tree on the paths; its programs need no shared library of
LLVM, cmark-gfm, terminfo or libstdc++ (linked statically).

TLP_WHEEL names a wheel built already; else one is built in
TLP_WHEEL_BUILD_DIR (default build-wheel: kept, so that a rerun builds
only what changed; with ccache, one level below the clone like build/,
so that it reuses the main build's objects). Without scikit-build-core
this module is skipped, unless TLP_WHEEL_TEST=1 (the CTest test), where
that is a failure.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLE, ROOT


def _have(mod):
    return subprocess.run([sys.executable, "-c", f"import {mod}"],
                          capture_output=True).returncode == 0


def _main_build_compiler(lang):
    """The compiler of the main build (TLP_OBJ_ROOT's CMake cache)."""
    root = os.environ.get("TLP_OBJ_ROOT")
    try:
        with open(os.path.join(root or "", "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith(f"CMAKE_{lang}_COMPILER:"):
                    return line.split("=", 1)[1].strip() or None
    except OSError:
        pass
    return None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    given = os.environ.get("TLP_WHEEL")
    if given:
        return Path(given)
    if not _have("scikit_build_core"):
        if os.environ.get("TLP_WHEEL_TEST") == "1":
            pytest.fail(f"{sys.executable} has no scikit-build-core "
                        "(utils/install-deps.sh --test makes build/py-venv)")
        pytest.skip("no scikit-build-core")
    build_dir = os.environ.get("TLP_WHEEL_BUILD_DIR") or str(ROOT / "build-wheel")
    dist = tmp_path_factory.mktemp("dist")
    env = dict(os.environ)
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    env.setdefault("CMAKE_GENERATOR", "Ninja")
    # A rerun, or a clone whose main build filled the cache, compiles
    # little (CMake reads the launcher from the environment): the main
    # build (utils/build.sh) and this one compile each file alike, with
    # the paths under the clone made relative (CCACHE_BASEDIR) from a
    # build directory one level below it, and with the same compiler
    # (ccache tells c++ from g++ by name; scikit-build-core would pick
    # g++).
    if shutil.which("ccache"):
        env.setdefault("CMAKE_CXX_COMPILER_LAUNCHER", "ccache")
        env.setdefault("CMAKE_C_COMPILER_LAUNCHER", "ccache")
        env.setdefault("CCACHE_BASEDIR", str(ROOT))
        for var, lang in (("CXX", "CXX"), ("CC", "C")):
            compiler = _main_build_compiler(lang)
            if compiler:
                env.setdefault(var, compiler)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation",
                        "--no-deps", "-q", "-w", str(dist),
                        f"--config-settings=build-dir={build_dir}", str(ROOT)],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (whl,) = dist.glob("tlp-*.whl")
    return whl


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    d = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(d)], check=True)
    r = subprocess.run([str(d / "bin" / "pip"), "install", "-q", "--no-index", "--no-deps",
                        str(wheel)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return d


def _clean_env(venv):
    env = {k: v for k, v in os.environ.items()
           if k not in ("TLP_BIN_DIR", "PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}:/usr/bin:/bin"
    return env


def _run(venv, tmp_path, *cmd):
    return subprocess.run([str(c) for c in cmd], cwd=tmp_path, env=_clean_env(venv),
                          capture_output=True, text=True)


def test_wheel_name(wheel):
    # No extension module: one wheel for every Python 3.
    assert wheel.name.startswith("tlp-") and "-py3-none-linux_" in wheel.name


def test_installed_programs(venv, tmp_path):
    for tool in ("tlp-emit", "tlp-opt"):
        r = _run(venv, tmp_path, tool, "--version")
        assert r.returncode == 0, r.stderr
        assert (venv / "bin" / tool).is_file()
    r = _run(venv, tmp_path, "tlp", "--help")
    assert r.returncode == 0 and "LOG_OR_DIR" in r.stdout
    r = _run(venv, tmp_path, "tlp", EXAMPLE, "-o", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "index.html").is_file()


def test_installed_module(venv, tmp_path):
    code = ("import tlp, sys; r = tlp.load(sys.argv[1]); "
            "print(tlp.__file__); print(len(r.units)); "
            "print(tlp.where(r, node='h')[0].unit.id)")
    r = _run(venv, tmp_path, venv / "bin" / "python", "-c", code, EXAMPLE)
    assert r.returncode == 0, r.stderr
    path, units, unit = r.stdout.split()
    assert path.startswith(str(venv)) and units == "2" and unit == "0-0-inference"


def test_static(venv, tmp_path):
    """No shared library of the -dev packages (or libstdc++) is needed."""
    for tool in ("tlp-emit", "tlp-opt"):
        r = subprocess.run(["ldd", str(venv / "bin" / tool)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        libs = [line.split()[0] for line in r.stdout.splitlines() if line.strip()]
        assert not [l for l in libs if any(
            bad in l for bad in ("LLVM", "cmark", "tinfo", "stdc++", "libz", "not"))], libs
        assert set(libs) <= {"linux-vdso.so.1", "libm.so.6", "libc.so.6",
                             "/lib64/ld-linux-x86-64.so.2", "libpthread.so.0",
                             "libdl.so.2", "librt.so.1"}, libs


def test_auditwheel(wheel):
    if not _have("auditwheel"):
        pytest.skip("no auditwheel")
    r = subprocess.run([sys.executable, "-m", "auditwheel", "show", str(wheel)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "manylinux_2_" in r.stdout, r.stdout
