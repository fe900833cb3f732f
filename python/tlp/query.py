"""Where did my op go? `tlp.where` asks tlp-emit the question
(`tlp-emit --json --node NAME` / `--source FILE:LINE`, docs/json.md,
"Answers"): the same engine, name rules and errors as `--md --node`, so
the answer is tlp's and not a second implementation of it. The names it
returns are looked up in the Report of the same log.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Union

from . import _html
from ._tools import TlpError, run_emit
from .model import Kernel, Node, Report, Source, Unit


class NotFound(TlpError, LookupError):
    """The name or line is in no unit; the message suggests close ones."""


@dataclass
class WhereAnswer:
    """The answer in one unit.

    how: `pre-node`, `post-node`, `kernel`, `op`, `source-text` (a --node
    query) or `source-line` (a --source query). pre_nodes: the pre-grad
    nodes the answer is about (named, or those the named things came
    from); post_nodes: the post-grad nodes named directly, or, for a source
    line, every post-grad node of it; kernels: the kernels named, and those
    the nodes went into; sources: the unit's user lines that matched.
    """
    unit: Unit
    query: str
    how: str
    pre_nodes: List[Node] = field(default_factory=list)
    post_nodes: List[Node] = field(default_factory=list)
    kernels: List[Kernel] = field(default_factory=list)
    sources: List[Source] = field(default_factory=list)
    #: For each pre-grad node of a `node` query: `linked`, `vanished` (the
    #: provenance data records no output for it) or `unknown` (no mapping
    #: for the graph; a backward unit's view of the forward's graph; a
    #: higher-order op, its output, or a node of a body the mapping names
    #: no node of).
    fates: Dict[str, str] = field(default_factory=dict)

    def _repr_html_(self) -> str:
        return _html.where_html([self])


class WhereAnswers(List[WhereAnswer]):
    """The answers, one per unit where the query matched, in unit order."""

    def _repr_html_(self) -> str:
        return _html.where_html(self)


def _log_of(report: Report) -> str:
    """The log tlp-emit reads to answer for `report`: the path it was
    loaded from, else (a Report read from tlp-emit's JSON) its one log or
    the directory of its rank logs, if they are still there."""
    if report.source:
        return report.source
    paths = [l.path for l in report.logs if l.path]
    if len(paths) == 1 and os.path.exists(paths[0]):
        return paths[0]
    dirs = {os.path.dirname(p) for p in paths}
    if len(dirs) == 1 and all(os.path.exists(p) for p in paths):
        return dirs.pop()
    raise TlpError("where() needs the log this report was read from; "
                   "call tlp.where(LOG, ...) with the log or its directory")


_HOW = {"pre-grad node": "pre-node", "post-grad node": "post-node",
        "kernel": "kernel", "op": "op", "source text": "source-text",
        "source line": "source-line"}


def _answer(u: Unit, query: str, a: Dict) -> WhereAnswer:
    pre = {n.qualified_name: n for n in u.pre_grad_nodes}
    pre.update({n.name: n for n in u.pre_grad_nodes if n.name not in pre})
    post = {n.name: n for n in u.post_grad_nodes}
    kernels = {k.key: k for k in u.kernels}
    sources = {(s.file, s.line, tuple(s.span or ())): s for s in u.sources}

    def pick(table: Dict, names: List) -> List:
        return [table[n] for n in names if n in table]
    return WhereAnswer(
        unit=u, query=query, how=_HOW.get(a["how"], a["how"]),
        pre_nodes=pick(pre, [p["node"] for p in a["pre_nodes"]]),
        post_nodes=pick(post, a["post_nodes"]),
        kernels=pick(kernels, a["kernels"]),
        sources=pick(sources, [(s["file"], s["line"], tuple(s.get("span") or ()))
                               for s in a["sources"]]),
        fates={p["node"]: p["fate"] for p in a["pre_nodes"] if "fate" in p})


def where(report: Report, node: Optional[str] = None, source: Optional[str] = None,
          unit: Optional[Union[str, int]] = None) -> WhereAnswers:
    """Answer for a name (`node`) or a user line (`source`, FILE:LINE) in
    every unit where it appears, or in the one `unit` names (id, name or
    index). Raises NotFound (with tlp-emit's message: close names, or the
    lines that exist) when it is in none."""
    if (node is None) == (source is None):
        raise TlpError("give one of node=NAME or source=FILE:LINE")
    args = ["--json"]
    args += ["--node", node] if node is not None else ["--source", str(source)]
    if unit is not None:
        u = report.unit(int(unit) if isinstance(unit, str) and unit.isdigit() else unit)
        args += ["--unit", u.id]
    try:
        out = run_emit(args + [_log_of(report)]).stdout
    except TlpError as e:
        msg = str(e)
        if "no node named" in msg or "no unit has user source line" in msg:
            raise NotFound(msg.replace("tlp-emit: error: ", "", 1)) from None
        raise
    data = json.loads(out)
    answers = WhereAnswers()
    query = data["query"]["text"]
    for a in data["answers"]:
        answers.append(_answer(report.unit(a["unit"]), query, a))
    return answers
