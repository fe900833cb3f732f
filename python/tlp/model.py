"""The model of tlp-emit's JSON (docs/json.md, `tlp-json/3`) as dataclasses.

Every class mirrors one object of the JSON, with the same field names
(`from` of an edge is `from_`). Fields the JSON adds in later versions of
the same schema are ignored; fields it lacks get their defaults. In
Jupyter, a Report shows its compile table and a Unit its provenance
(`_repr_html_`); all log text is escaped.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Union

from . import _html

SCHEMA = "tlp-json/3"

@dataclass
class Source:
    """A user source line: `{"file", "line", "function", "code"}`.

    `origin` is set for a kernel's lines (`stack-trace` or `fx-comment`),
    `kernels` for a unit's lines (the keys of the line's kernels).
    """
    file: str = ""
    line: int = 0
    function: str = ""
    code: str = ""
    origin: Optional[str] = None
    kernels: List[str] = field(default_factory=list)
    #: The part of the line a kernel's stack trace underlines (`^^^^`), as
    #: [begin, end) characters of `code`, and that text; None when PyTorch
    #: underlined nothing. Two calls on one line are two Sources.
    span: Optional[List[int]] = None
    underlined: Optional[str] = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Node:
    """A node of a pre-grad or post-grad FX graph."""
    name: str = ""
    line: int = 0
    op: str = ""
    target: str = ""
    type: str = ""
    source: Optional[Source] = None
    scope: str = ""
    post_nodes: List[str] = field(default_factory=list)
    pre_nodes: List[str] = field(default_factory=list)
    kernels: List[str] = field(default_factory=list)

    @property
    def qualified_name(self) -> str:
        return f"{self.scope}.{self.name}" if self.scope else self.name

    @property
    def computes(self) -> bool:
        return self.op in ("call_function", "call_method", "call_module")


@dataclass
class Code:
    """The wrapper or AOT kernel file: language, line count, entry lines."""
    language: str = ""
    lines: int = 0
    entry: Optional[List[int]] = None


@dataclass
class Kernel:
    """A row of a unit's kernel table."""
    name: str = ""
    kind: str = ""
    handle: Optional[int] = None
    key: str = ""
    call_lines: List[int] = field(default_factory=list)
    def_lines: Optional[List[int]] = None
    kernel_code_lines: Optional[List[int]] = None
    post_nodes: List[str] = field(default_factory=list)
    pre_nodes: List[str] = field(default_factory=list)
    source: List[Source] = field(default_factory=list)
    in_mapping: bool = False
    info: Any = None


@dataclass
class Edge:
    """A provenance edge: `pre:NODE`, `post:NODE`, `kernel:KEY` or
    `source:FILE:LINE` ends, its origin and confidence (percent)."""
    from_: str = ""
    to: str = ""
    origin: str = ""
    confidence: int = 100


@dataclass
class Coverage:
    linked: int = 0
    total: int = 0
    # Post-grad nodes not linked whose pre-grad node the provenance mapping
    # names, in a unit without a pre-grad graph (an FX graph cache hit).
    by_pre_grad_name: int = 0


@dataclass
class UnitCoverage:
    pre_grad: Coverage = field(default_factory=Coverage)
    post_grad: Coverage = field(default_factory=Coverage)
    kernels: Coverage = field(default_factory=Coverage)


@dataclass
class Unit:
    """One compiled graph (a compile id, rank and forward/backward graph)."""
    id: str = ""
    name: str = ""
    log: str = ""
    rank: Optional[int] = None
    compile_id: Optional[str] = None
    graph: str = "unknown"
    frame: Optional[Source] = None
    compile: Optional[str] = None
    artifacts: Dict[str, Any] = field(default_factory=dict)
    pre_grad_nodes: List[Node] = field(default_factory=list)
    post_grad_nodes: List[Node] = field(default_factory=list)
    code: Optional[Code] = None
    kernel_code: Optional[Code] = None
    kernels: List[Kernel] = field(default_factory=list)
    sources: List[Source] = field(default_factory=list)
    edges: List[Edge] = field(default_factory=list)
    coverage: UnitCoverage = field(default_factory=UnitCoverage)
    #: A depyf dump's unit: its graph's name (`__compiled_fn_2`), not a
    #: compile id; its pass timeline (stage after stage, each with what it
    #: changed against the one before) and the dump's files it keeps
    #: (docs/json.md).
    fn: Optional[str] = None
    stages: List[Dict[str, Any]] = field(default_factory=list)
    files: List[Dict[str, Any]] = field(default_factory=list)
    #: The TORCH_COMPILE_DEBUG graph folder the unit was read from
    #: ("model__0_forward_1.0"), or None.
    folder: Optional[str] = None
    #: The scheduler nodes after fusion (ir_post_fusion.txt), as the JSON
    #: gives them (docs/json.md), or None.
    scheduler_nodes: Optional[List[Dict[str, Any]]] = None

    def kernel(self, key: str) -> Kernel:
        """The kernel with this key (or name)."""
        for k in self.kernels:
            if k.key == key:
                return k
        for k in self.kernels:
            if k.name == key:
                return k
        raise KeyError(key)

    def pre_node(self, name: str) -> Node:
        for n in self.pre_grad_nodes:
            if n.name == name or n.qualified_name == name:
                return n
        raise KeyError(name)

    def post_node(self, name: str) -> Node:
        for n in self.post_grad_nodes:
            if n.name == name or n.qualified_name == name:
                return n
        raise KeyError(name)

    def _repr_html_(self) -> str:
        return _html.unit_html(self)


@dataclass
class Failure:
    type: str = ""
    reason: str = ""
    frame: Optional[Source] = None


@dataclass
class GraphBreak:
    reason: str = ""
    summary: str = ""
    source: Optional[Source] = None
    count: int = 1


@dataclass
class Compile:
    """A compile record: status, times, graph breaks, caches, its units."""
    id: str = ""
    name: str = ""
    ordinal: Optional[int] = None
    log: str = ""
    rank: Optional[int] = None
    compile_id: Optional[str] = None
    line: Optional[int] = None
    status: str = "unknown"
    failure: Optional[Failure] = None
    time_s: Optional[float] = None
    backward_time_s: Optional[float] = None
    total_time_s: Optional[float] = None
    frame: Optional[Source] = None
    stack: List[Source] = field(default_factory=list)
    breaks: List[GraphBreak] = field(default_factory=list)
    recompile_reasons: List[str] = field(default_factory=list)
    guard_count: Optional[int] = None
    guards: Optional[str] = None
    #: For a recompile: per reason, the compile whose guard failed and the
    #: check (docs/json.md); the guards against that compile's, a diff.
    failed_guards: List[Dict[str, Any]] = field(default_factory=list)
    guards_diff: Optional[Dict[str, Any]] = None
    metrics: Dict[str, Any] = field(default_factory=dict)
    bwd_metrics: Dict[str, Any] = field(default_factory=dict)
    #: The later backward compiles' metrics (several graphs: DDPOptimizer).
    more_bwd_metrics: List[Dict[str, Any]] = field(default_factory=list)
    runtime_metrics: Dict[str, Any] = field(default_factory=dict)
    bwd_runtime_metrics: Dict[str, Any] = field(default_factory=dict)
    caches: List[Dict[str, Any]] = field(default_factory=list)
    cache_miss_diffs: List[Dict[str, Any]] = field(default_factory=list)
    spans: List[Dict[str, Any]] = field(default_factory=list)
    units: List[str] = field(default_factory=list)
    no_output: Optional[str] = None


@dataclass
class Diagnostic:
    severity: str = "note"
    file: Optional[str] = None
    line: Optional[int] = None
    message: str = ""

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return f"{where}{self.severity}: {self.message}"


@dataclass
class LogInfo:
    path: str = ""
    rank: Optional[int] = None
    event_rank: Optional[int] = None
    #: The PyTorch that wrote the log ("2.13.0+cpu") and its commit; None
    #: when the log does not say.
    torch_version: Optional[str] = None
    torch_commit: Optional[str] = None
    #: A file of a depyf dump, not a log.
    dump_file: bool = False
    #: The process that wrote it, when known.
    pid: Optional[int] = None
    #: A TORCH_COMPILE_DEBUG graph folder or one of its files.
    debug_folder: bool = False


@dataclass
class Report:
    """What tlp read from a log (or a directory of rank logs)."""
    schema: str = SCHEMA
    producer: str = ""
    logs: List[LogInfo] = field(default_factory=list)
    units: List[Unit] = field(default_factory=list)
    compiles: List[Compile] = field(default_factory=list)
    #: Each distinct graph break once over the run (docs/json.md).
    graph_breaks: List[Dict[str, Any]] = field(default_factory=list)
    key_components: List[str] = field(default_factory=list)
    ranks: Optional[Dict[str, Any]] = None
    stats: Dict[str, Any] = field(default_factory=dict)
    diagnostics: List[Diagnostic] = field(default_factory=list)
    #: Where the time goes (tlp.load(..., profile=TRACE), tlp-emit
    #: --profile): per kernel, node, user line and compile, and the events
    #: that matched no kernel, as the JSON gives them (docs/json.md);
    #: None without a profile.
    profile: Optional[Dict[str, Any]] = None
    #: The log, directory or IR tlp.load read ("" for tlp-emit's JSON);
    #: not part of what was read, so not compared.
    source: str = field(default="", compare=False)

    def unit(self, key: Union[str, int]) -> Unit:
        """A unit by id (`0-0-forward`), name (`0/0 forward`) or index."""
        if isinstance(key, int):
            return self.units[key]
        for u in self.units:
            if u.id == key:
                return u
        for u in self.units:
            if u.name == key:
                return u
        raise KeyError(key)

    def compile(self, key: str) -> Compile:
        """A compile record by id (`0-0`) or compile id (`0/0`)."""
        for c in self.compiles:
            if c.id == key:
                return c
        for c in self.compiles:
            if c.compile_id == key:
                return c
        raise KeyError(key)

    def _repr_html_(self) -> str:
        return _html.report_html(self)


# The JSON key of a field, where it is not the field's name.
_RENAMED = {"from_": "from"}

_CLASSES = (Source, Node, Code, Kernel, Edge, Coverage, UnitCoverage, Unit,
            Failure, GraphBreak, Compile, Diagnostic, LogInfo, Report)


def _converter(tp: Any) -> Optional[Callable[[Any], Any]]:
    """How to build a field of type `tp` from its JSON value (None: as is).
    Worked out once per field: a 66 MB JSON has millions of values."""
    origin = getattr(tp, "__origin__", None)
    if origin is Union:
        args = [a for a in tp.__args__ if a is not type(None)]
        return _converter(args[0]) if len(args) == 1 else None
    if origin in (list, List):
        elem = _converter(tp.__args__[0])
        if elem is None:
            return None
        return lambda v: [elem(x) for x in v] if isinstance(v, list) else v
    if dataclasses.is_dataclass(tp):
        return lambda v: _BUILDERS[tp](v) if isinstance(v, dict) else v
    return None


def _builder(cls: type, hints: Dict[str, Any]) -> Callable[[Dict[str, Any]], Any]:
    plan = [(f.name, _RENAMED.get(f.name, f.name), _converter(hints[f.name]))
            for f in dataclasses.fields(cls)]

    def build(data: Dict[str, Any]) -> Any:
        kwargs = {}
        for name, key, conv in plan:
            if key in data:
                v = data[key]
                kwargs[name] = conv(v) if conv is not None and v is not None else v
        return cls(**kwargs)
    return build


def _make_builders() -> Dict[type, Callable[[Dict[str, Any]], Any]]:
    import typing
    ns = dict(vars(typing))
    ns.update({c.__name__: c for c in _CLASSES})
    return {c: _builder(c, typing.get_type_hints(c, globalns=ns)) for c in _CLASSES}


_BUILDERS: Dict[type, Callable[[Dict[str, Any]], Any]] = {}
_BUILDERS.update(_make_builders())


def report_from_json(data: Union[bytes, str, Dict[str, Any]]) -> Report:
    """A Report from tlp-emit's JSON (text or parsed)."""
    if not isinstance(data, dict):
        data = json.loads(data)
    assert isinstance(data, dict)
    schema = data.get("schema")
    if schema != SCHEMA:
        from ._tools import TlpError
        raise TlpError(f"unsupported JSON schema {schema!r} (this tlp reads {SCHEMA})")
    return _BUILDERS[Report](data)  # type: ignore[no-any-return]
