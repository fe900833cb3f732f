"""tlp.load and tlp.where on the fixtures and the example log."""

import dataclasses
import json
import os
import subprocess

import pytest

import tlp
from conftest import EXAMPLE, INPUTS, fixture


def test_load_example():
    r = tlp.load(EXAMPLE)
    assert r.schema == "tlp-json/3"
    assert [u.id for u in r.units] == ["0-0-inference", "1-0-inference"]
    u = r.unit("0-0-inference")
    assert isinstance(u, tlp.Unit)
    k = u.kernel("triton_per_fused_addmm_gt_relu_sum_0:1")
    assert isinstance(k, tlp.Kernel)
    assert k.kind == "triton"
    assert k.call_lines == [106]
    assert k.pre_nodes == ["h", "h_1", "sum_1", "gt"]
    assert [s.line for s in k.source] == [31, 32, 33]
    assert all(isinstance(s, tlp.Source) for s in k.source)
    assert isinstance(u.pre_grad_nodes[0], tlp.Node)
    assert isinstance(u.coverage.kernels, tlp.Coverage)
    # The unit has its pre-grad graph: no post-grad node is known by name only.
    assert u.coverage.post_grad.by_pre_grad_name == 0
    assert u.coverage.post_grad.linked == u.coverage.post_grad.total
    assert [c.compile_id for c in r.compiles] == ["0/0", "1/0"]
    assert all(isinstance(c, tlp.Compile) for c in r.compiles)
    assert r.diagnostics == []
    # Units, compiles and edges are plain dataclasses.
    assert dataclasses.is_dataclass(r) and dataclasses.is_dataclass(u.edges[0])
    assert u.edges[0].from_.split(":")[0] in ("pre", "post", "kernel", "source")


def test_load_depyf_dump():
    # A depyf dump: units by graph name, no compile id; the pass timeline
    # with what each stage changed; Dynamo's code with its guards.
    r = tlp.load(INPUTS / "depyf" / "train")
    assert [u.id for u in r.units] == ["__compiled_fn_1-forward",
                                       "__compiled_fn_1-backward"]
    f, b = r.units
    assert f.compile_id is None and f.fn == "__compiled_fn_1"
    assert all(log.dump_file for log in r.logs)
    assert [s["stage"] for s in b.stages] == [
        "Joint_graph", "tensorify_python_scalars", "Backward_graph",
        "AFTER_POST_GRAD"]
    last = b.stages[-1]
    assert (last["added"], last["removed"], last["changed"]) == (1, 1, 1)
    code = [x for x in f.files if x["kind"] == "dynamo_code"]
    assert [g["line"] for g in code[0]["guards"]] == [6, 7, 8]


def test_load_profile(emit, tmp_path):
    # A torch.profiler trace joined onto the log (tlp-emit --profile): the
    # same figures as the JSON; none without a profile; a profile cannot
    # be joined onto JSON already written.
    log = fixture("jit_cpu_v1")
    trace = INPUTS / "profile" / "jit_cpu.json"
    r = tlp.load(log, profile=trace)
    data = json.loads(emit("--json", "--profile", trace, log).stdout)
    assert r.profile == data["profile"]
    keys = [(k["unit"], k["kernel"]) for k in r.profile["kernels"]]
    assert ("0-0-inference", "extern_kernels.addmm") in keys
    assert tlp.load(log).profile is None
    out = tmp_path / "r.json"
    out.write_text(emit("--json", log).stdout)
    with pytest.raises(tlp.TlpError, match="a profile is joined"):
        tlp.load(out, profile=trace)


def test_load_matches_json(emit, tmp_path):
    """Every unit, kernel and node of the JSON is in the model."""
    out = emit("--json", EXAMPLE)
    data = json.loads(out.stdout)
    r = tlp.load(EXAMPLE)
    for ju, u in zip(data["units"], r.units):
        assert [k["key"] for k in ju["kernels"]] == [k.key for k in u.kernels]
        assert [n["name"] for n in ju["post_grad_nodes"]] == [n.name for n in u.post_grad_nodes]
    # A JSON file tlp-emit wrote loads the same, without running it.
    p = tmp_path / "prov.json"
    p.write_text(out.stdout)
    assert tlp.load(p) == r


def test_load_ir_both_forms(tmp_path):
    """tlp.load reads tlp IR in either form (tlp-opt, tlp-opt --compact):
    the same report whichever form, but for where it was read from."""
    opt = os.path.join(os.environ["TLP_BIN_DIR"], "tlp-opt")
    text, compact = tmp_path / "ir.yaml", tmp_path / "ir.tlpc"
    subprocess.run([opt, "--link-provenance", str(EXAMPLE), "-o", str(text)],
                   check=True)
    subprocess.run([opt, "--link-provenance", "--compact", str(EXAMPLE),
                    "-o", str(compact)], check=True)
    assert compact.read_bytes()[:8] == b"\x89tlpIR\r\n"
    from_text, from_compact = tlp.load(text), tlp.load(compact)
    assert from_compact.source == str(compact)
    from_compact.source = from_text.source
    assert from_compact == from_text
    assert [u.id for u in from_compact.units] == [
        u.id for u in tlp.load(EXAMPLE).units]


def test_load_diagnostics():
    r = tlp.load(fixture("broken"))
    assert r.diagnostics
    assert all(isinstance(d, tlp.Diagnostic) for d in r.diagnostics)
    assert {d.severity for d in r.diagnostics} <= {"error", "warning", "note"}


def test_load_errors(tmp_path):
    with pytest.raises(tlp.TlpError, match="tlp-emit: error"):
        tlp.load(tmp_path / "missing.log")
    bad = tmp_path / "x.json"
    bad.write_text('{"schema": "tlp-json/99"}')
    with pytest.raises(tlp.TlpError, match="unsupported JSON schema"):
        tlp.load(bad)


def test_where_node():
    a = tlp.where(EXAMPLE, node="h_1")
    assert [x.unit.id for x in a] == ["0-0-inference"]
    assert a[0].how == "pre-node"
    assert [n.name for n in a[0].pre_nodes] == ["h_1"]
    assert "triton_per_fused_addmm_gt_relu_sum_0:1" in [k.key for k in a[0].kernels]
    k = tlp.where(EXAMPLE, node="extern_kernels.mm")
    assert k[0].how == "kernel" and [x.key for x in k[0].kernels][0] == "extern_kernels.mm:2"
    assert [n.name for n in k[0].pre_nodes] == ["h"]


def test_where_source():
    a = tlp.where(EXAMPLE, source="example_model.py:31")
    assert a and all(x.how == "source-line" for x in a)
    assert {s.line for x in a for s in x.sources} == {31}


def test_where_fates_and_spans():
    """Each pre-grad node's fate as tlp-emit gives it; the sources of a
    source answer with the part of the line they underline, if any."""
    a = tlp.where(EXAMPLE, node="h")
    assert [x.fates for x in a] == [{"h": "linked"}, {"h": "linked"}]
    s = tlp.where(INPUTS / "two_calls.log", source="two.py:5")[0]
    assert [(x.underlined, x.kernels) for x in s.sources] == [
        (None, ["extern_kernels.mm:1", "extern_kernels.mm:2", "cpp_fused_add_0:3"]),
        ("f(x)", ["extern_kernels.mm:1"]), ("f(y)", ["extern_kernels.mm:2"]),
        ("f(x) + f(y)", ["cpp_fused_add_0:3"])]


def test_where_on_json_report(emit, tmp_path):
    """A Report read from tlp-emit's JSON asks about the log the JSON
    names; with the log gone, where() says it needs it."""
    out = emit("--json", EXAMPLE)
    p = tmp_path / "prov.json"
    p.write_text(out.stdout)
    r = tlp.load(p)
    assert [x.unit.id for x in tlp.where(r, node="h")] == ["0-0-inference", "1-0-inference"]
    r.logs[0].path = str(tmp_path / "gone.log")
    with pytest.raises(tlp.TlpError, match="needs the log"):
        tlp.where(r, node="h")


def test_where_not_found():
    with pytest.raises(tlp.NotFound, match=r"no node named 'h_11'; did you mean 'h_1'"):
        tlp.where(EXAMPLE, node="h_11")
    with pytest.raises(tlp.NotFound, match="no unit has user source line"):
        tlp.where(EXAMPLE, source="two_compiles.py:9999")
    with pytest.raises(tlp.TlpError, match="FILE:LINE"):
        tlp.where(EXAMPLE, source="nofile")
    with pytest.raises(tlp.TlpError):
        tlp.where(EXAMPLE)


def test_where_agrees_with_tlp_emit(emit):
    """tlp.where reads tlp-emit --json --node; its units are those of the
    Markdown answer (--md --node), and it fails where that does
    (fixtures): the two forms of the answer agree."""
    for log in (EXAMPLE, fixture("jit_cuda_train"), fixture("aot_cpu")):
        r = tlp.load(log)
        _check_agreement(emit, log, r, limit=40)


def _dotted_pieces(target):
    """Every run of a target's dotted parts (`torch.ops.aten.mm.default`:
    `aten.mm`, `mm`, ...): names to ask about, a superset of the op
    aliases tlp answers to (tlp's rule itself is in NameMatch.h only)."""
    parts = target.split(".")
    return {".".join(parts[i:j]) for i in range(len(parts))
            for j in range(i + 1, len(parts) + 1)}


def _md_units(text):
    return [line.split("`")[1] for line in text.splitlines() if line.startswith("## Unit `")]


def _check_agreement(emit, log, r, limit):
    names = []
    for u in r.units:
        names += [n.name for n in u.pre_grad_nodes[:limit]]
        names += [n.name for n in u.post_grad_nodes[:limit]]
        names += [k.name for k in u.kernels[:limit]]
        names += [t for n in u.post_grad_nodes[:limit] for t in _dotted_pieces(n.target)]
    names += ["no_such_node", "x"]
    for name in sorted(set(names))[:150]:
        out = emit("--md", "--node", name, log)
        try:
            got = [a.unit.id for a in tlp.where(r, node=name)]
        except tlp.NotFound:
            got = None
        if out.returncode != 0:
            assert got is None, (log, name, out.stderr)
        else:
            assert got == _md_units(out.stdout), (log, name)
    for u in r.units:
        for s in u.sources[:10]:
            q = f"{s.file}:{s.line}"
            out = emit("--md", "--source", q, log)
            got = [a.unit.id for a in tlp.where(r, source=q)]
            assert out.returncode == 0 and got == _md_units(out.stdout), (log, q)


def test_html_escaped():
    """Log text in _repr_html_ is escaped: no markup, no control characters."""
    evil = "<script>alert(1)</script>\x1b[31m\x00\u202e&"
    u = tlp.Unit(id=evil, name=evil, kernels=[tlp.Kernel(name=evil, key=evil, post_nodes=[evil],
                                                         source=[tlp.Source(file=evil, line=1, code=evil)])],
                 sources=[tlp.Source(file=evil, line=2, code=evil, kernels=[evil])])
    c = tlp.Compile(id=evil, name=evil, status=evil, failure=tlp.Failure(type=evil, reason=evil),
                    recompile_reasons=[evil], units=[evil])
    r = tlp.Report(units=[u], compiles=[c], diagnostics=[tlp.Diagnostic(message=evil)],
                   logs=[tlp.LogInfo(path=evil)])
    for page in (r._repr_html_(), u._repr_html_()):
        assert "<script" not in page
        assert "&lt;script&gt;" in page
        assert not any(ch in page for ch in "\x1b\x00\u202e")
        assert "\\x1b" in page


def test_html_real():
    r = tlp.load(EXAMPLE)
    page = r._repr_html_()
    assert "<table" in page and "0/0" in page and "success" in page
    page = r.units[0]._repr_html_()
    assert "triton_per_fused_addmm_gt_relu_sum_0:1" in page
    assert "<table" in tlp.where(r, node="h")._repr_html_()


def test_typed():
    import pathlib
    assert (pathlib.Path(tlp.__file__).parent / "py.typed").is_file()


def test_version():
    """The module's version is the project's (CMakeLists.txt, the wheel's)."""
    import re
    from conftest import ROOT
    m = re.search(r"project\(tlp VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    assert m and tlp.__version__ == m.group(1)
