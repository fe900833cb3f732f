"""Where did my op go? `tlp.where` answers what `tlp-emit --md --node NAME`
and `--md --source FILE:LINE` answer (docs/markdown.md), as objects.

The matching follows tlp's (include/tlp/IR/NameMatch.h and Query.h): a
name is a pre-grad node's, else a post-grad node's, a kernel's, an op's
(any form of a computing node's target: `aten.sigmoid`, `sigmoid`), or a
piece of user source code (three characters or more), by the first class
that matches in each unit. The Python tests check that it answers in the
same units as tlp-emit on real logs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from . import _html
from ._tools import TlpError
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

    def _repr_html_(self) -> str:
        return _html.where_html([self])


class WhereAnswers(List[WhereAnswer]):
    """The answers, one per unit where the query matched, in unit order."""

    def _repr_html_(self) -> str:
        return _html.where_html(self)


def target_aliases(target: str) -> List[str]:
    """The names an op target goes by, most specific first (NameMatch.h):
    `torch.ops.aten.sigmoid.default` -> itself, `aten.sigmoid.default`,
    `aten.sigmoid`, `sigmoid`; `torch.sigmoid` -> itself, `sigmoid`."""
    out: List[str] = []

    def add(s: str) -> None:
        if s and s not in out:
            out.append(s)

    t = target.strip()
    if t.startswith("<built-in method "):
        rest = t[len("<built-in method "):]
        op = rest.split(" ", 1)[0].split(">", 1)[0]
        add("torch." + op)
        add(op)
        return out
    if t.startswith("<built-in function "):
        add(t[len("<built-in function "):].split(">", 1)[0])
        return out
    add(t)
    s = t
    overload = False
    if s.startswith("torch.ops."):
        s = s[len("torch.ops."):]
        overload = True
    elif s.startswith("aten.") or s.startswith("prims."):
        overload = True
    if overload:
        parts = s.split(".")
        add(s)
        if len(parts) >= 3:
            add(parts[0] + "." + parts[1])
        if len(parts) >= 2:
            add(parts[1])
        return out
    tail = s.rsplit(".", 1)[-1]
    add(tail if tail else s)
    return out


def _has_alias(n: Node, name: str) -> bool:
    return n.computes and bool(n.target) and name in target_aliases(n.target)


def _ordered(nodes: Sequence[Node], names: Iterable[str]) -> List[Node]:
    want = set(names)
    return [n for n in nodes if n.name in want or n.qualified_name in want]


def _kernels(u: Unit, keys: Set[str], direct: Sequence[Kernel] = ()) -> List[Kernel]:
    seen = {k.key for k in direct}
    return list(direct) + [k for k in u.kernels if k.key in keys and k.key not in seen]


def _node_answer(u: Unit, name: str) -> Optional[WhereAnswer]:
    pre = [n for n in u.pre_grad_nodes if n.name == name or n.qualified_name == name]
    if pre:
        how, post, kernels, sources = "pre-node", [], [], []
    else:
        post = [n for n in u.post_grad_nodes
                if n.name == name or n.qualified_name == name]
        kernels = []
        sources: List[Source] = []
        how = "post-node"
        if not post:
            kernels = [k for k in u.kernels if k.name == name or k.key == name]
            how = "kernel"
        if not post and not kernels:
            pre = [n for n in u.pre_grad_nodes if _has_alias(n, name)]
            post = [n for n in u.post_grad_nodes if _has_alias(n, name)]
            how = "op"
        if not pre and not post and not kernels:
            if len(name.strip()) < 3:
                return None
            sources = [s for s in u.sources if name in s.code]
            if not sources:
                return None
            lines = {(s.file, s.line) for s in sources}

            def from_line(n: Node) -> bool:
                return n.source is not None and (n.source.file, n.source.line) in lines
            pre = [n for n in u.pre_grad_nodes if from_line(n)]
            post = [n for n in u.post_grad_nodes if from_line(n)]
            how = "source-text"
        # The pre-grad nodes of what was named.
        pre_names = {n.name for n in pre}
        for n in post:
            pre_names.update(n.pre_nodes)
        for k in kernels:
            pre_names.update(k.pre_nodes)
        pre = _ordered(u.pre_grad_nodes, pre_names)
    keys: Set[str] = set()
    for n in pre:
        keys.update(n.kernels)
    for n in post:
        keys.update(n.kernels)
    for s in sources:
        keys.update(s.kernels)
    return WhereAnswer(u, name, how, pre, post, _kernels(u, keys, kernels), sources)


def _file_matches(f: str, want: str) -> bool:
    return f == want or (f.endswith(want) and len(f) > len(want)
                         and f[len(f) - len(want) - 1] == "/")


def _parse_source(text: str) -> Tuple[str, int]:
    file, sep, line = text.rpartition(":")
    if not sep or not file or not line.isdigit() or int(line) == 0:
        raise TlpError(f"source expects FILE:LINE, got '{text}'")
    return file, int(line)


def _source_answer(u: Unit, text: str, file: str, line: int) -> Optional[WhereAnswer]:
    hits = [s for s in u.sources if s.line == line and _file_matches(s.file, file)]
    if not hits:
        return None
    lines = {(s.file, s.line) for s in hits}

    def from_line(n: Node) -> bool:
        return n.source is not None and (n.source.file, n.source.line) in lines
    pre = [n for n in u.pre_grad_nodes if from_line(n)]
    post_names: Set[str] = set()
    keys: Set[str] = set()
    for n in pre:
        keys.update(n.kernels)
        post_names.update(n.post_nodes)
    post = [n for n in u.post_grad_nodes if from_line(n) or n.name in post_names]
    for n in post:
        keys.update(n.kernels)
    for s in hits:
        keys.update(s.kernels)
    return WhereAnswer(u, text, "source-line", pre, post, _kernels(u, keys), hits)


def _edit_distance(a: str, b: str, limit: int) -> int:
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def close_names(name: str, known: Iterable[str], limit_count: int = 5) -> List[str]:
    """The known names closest to `name` (edit distance at most 2, or a
    third of its length), closest first."""
    limit = max(2, len(name) // 3)
    scored = []
    for k in set(known):
        if k == name:
            continue
        d = _edit_distance(k, name, limit)
        if d <= limit:
            scored.append((d, k))
    return [k for _, k in sorted(scored)[:limit_count]]


def _known_names(u: Unit) -> Set[str]:
    out: Set[str] = set()
    for n in u.pre_grad_nodes + u.post_grad_nodes:
        out.add(n.name)
        if n.computes and n.target:
            out.update(target_aliases(n.target))
    for k in u.kernels:
        out.add(k.name)
        out.add(k.key)
    return out


def where(report: Report, node: Optional[str] = None, source: Optional[str] = None,
          unit: Optional[str] = None) -> WhereAnswers:
    """Answer for a name (`node`) or a user line (`source`, FILE:LINE) in
    every unit where it appears, or in the one `unit` names (id, name or
    index). Raises NotFound when it is in none."""
    if (node is None) == (source is None):
        raise TlpError("give one of node=NAME or source=FILE:LINE")
    units = [report.unit(int(unit) if unit.isdigit() else unit)] if unit is not None \
        else report.units
    answers = WhereAnswers()
    if node is not None:
        for u in units:
            a = _node_answer(u, node)
            if a is not None:
                answers.append(a)
        if not answers:
            known: Set[str] = set()
            for u in units:
                known |= _known_names(u)
            msg = f"no node named '{node}'"
            close = close_names(node, known)
            if close:
                msg += "; did you mean " + ", ".join(f"'{c}'" for c in close) + "?"
            raise NotFound(msg)
        return answers
    assert source is not None
    file, line = _parse_source(source)
    for u in units:
        a = _source_answer(u, source, file, line)
        if a is not None:
            answers.append(a)
    if not answers:
        lines: Dict[str, Set[int]] = {}
        for u in units:
            for s in u.sources:
                lines.setdefault(s.file, set()).add(s.line)
        msg = f"no unit has user source line '{source}'"
        near = [f"'{f}': " + ", ".join(map(str, sorted(ls)))
                for f, ls in sorted(lines.items()) if _file_matches(f, file)]
        if near:
            msg += "; lines with provenance in " + "; ".join(near)
        elif lines:
            files = sorted(lines)
            msg += "; the files are: " + ", ".join(f"'{f}'" for f in files[:8])
            if len(files) > 8:
                msg += ", ..."
        raise NotFound(msg)
    return answers
