"""Real PyTorch: `tlp run` on a tiny program (with the venv of
utils/install-deps.sh --torch; skipped without torch), and tlp.load and
tlp.where on the logs of utils/gen-torch-logs.py (skipped without them)."""

import pytest

import tlp
from conftest import torch_logs, torch_python

PROGRAM = """
import sys, torch
def f(x):
    return torch.sigmoid(x) * 2 + 1
if sys.argv[1] == "graph-break-fullgraph":
    def g(x):
        torch._dynamo.graph_break()
        return x + 1
    torch.compile(g, fullgraph=True)(torch.ones(4))
y = torch.compile(f)(torch.ones(8))
if sys.argv[1] == "crash":
    raise RuntimeError("crash after the compile")
print(float(y.sum()))
"""


@pytest.fixture(scope="module")
def py():
    p = torch_python()
    if p is None:
        pytest.skip("no PyTorch venv (utils/install-deps.sh --torch)")
    return p


# One Inductor compile (tens of seconds on 2 cores), then a crash; and a
# compile that fails in Dynamo. The exit status 0 is test_cli.py's.
@pytest.mark.parametrize("mode,status", [("crash", 1), ("graph-break-fullgraph", 1)])
def test_run_torch(tlp_cmd, tmp_path, py, mode, status):
    prog = tmp_path / "train.py"
    prog.write_text(PROGRAM)
    out = tmp_path / "report"
    # A fresh Inductor cache: a cache hit would skip the code and mapping.
    r = tlp_cmd("run", "-o", out, "--", py, prog, mode, cwd=tmp_path, timeout=900,
                extra_env={"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "cache")})
    assert r.returncode == status, r.stderr
    assert (out / "index.html").is_file(), r.stderr
    (trace,) = (tmp_path / "tlp-out").iterdir()
    rep = tlp.load(trace / "trace")
    if mode == "graph-break-fullgraph":
        assert rep.compiles[0].status == "failure"
        assert "Unsupported" in rep.compiles[0].failure.type
    else:
        assert rep.compile("0/0").status == "success"
        assert tlp.where(rep, node="sigmoid")[0].kernels
        # INDUCTOR_PROVENANCE=1: the mapping is there.
        assert rep.units[-1].artifacts.get("mapping") is not None


REAL = ["gpt", "train", "graph-break", "aoti", "gloo", "compile-error", "recompile"]


@pytest.mark.parametrize("name", REAL)
def test_real_logs(emit, name):
    logs = torch_logs()
    if logs is None:
        pytest.skip("no torch logs (utils/gen-torch-logs.py)")
    trace = logs / name / "trace"
    if not trace.is_dir():
        pytest.skip(f"no {name} log")
    r = tlp.load(trace)
    assert r.compiles and all(isinstance(c, tlp.Compile) for c in r.compiles)
    assert not [d for d in r.diagnostics if d.severity != "note"]
    if name == "compile-error":
        assert any(c.status == "failure" for c in r.compiles)
    else:
        assert r.units and any(u.kernels for u in r.units)
    from test_api import _check_agreement
    _check_agreement(emit, trace, r, limit=6)
    r._repr_html_()
    for u in r.units:
        u._repr_html_()
