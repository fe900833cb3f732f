"""HTML for Jupyter (`_repr_html_`). Log text is untrusted: every string
goes through esc(), which escapes HTML and shows control characters as
`\\xNN` instead of passing them on; nothing here writes a script, a style
attribute from the log, or a link."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .model import Report, Source, Unit
    from .query import WhereAnswer

# C0 and C1 controls, DEL, and the Unicode line/paragraph separators and
# bidi overrides that could reorder what a reader sees; tab and newline
# stay (newline becomes <br> where text is multi-line).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

# At most this many rows in a table; the rest are counted.
MAX_ROWS = 200


def esc(value: Any) -> str:
    if value is None:
        return ""
    s = str(value)
    s = _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 0x100
                     else "\\u%04x" % ord(m.group()), s)
    return html.escape(s, quote=True)


def code(value: Any) -> str:
    return f"<code>{esc(value)}</code>" if value not in (None, "") else ""


def names(items: Iterable[Any], limit: int = 8) -> str:
    items = list(items)
    out = ", ".join(code(i) for i in items[:limit])
    if len(items) > limit:
        out += f" and {len(items) - limit} more"
    return out


def source_ref(s: "Optional[Source]") -> str:
    if s is None:
        return ""
    base = s.file.rsplit("/", 1)[-1]
    return f'<span title="{esc(s.file)}">{esc(base)}:{s.line}</span>'


def table(head: Sequence[str], rows: List[List[str]]) -> str:
    out = ['<table class="tlp">', "<thead><tr>"]
    out += [f"<th>{esc(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for r in rows[:MAX_ROWS]:
        out.append("<tr>" + "".join(f'<td style="text-align:left">{c}</td>' for c in r) + "</tr>")
    out.append("</tbody></table>")
    if len(rows) > MAX_ROWS:
        out.append(f"<p>{len(rows) - MAX_ROWS} more rows not shown.</p>")
    return "".join(out)


def _time(t: Optional[float]) -> str:
    return "" if t is None else f"{t:.2f} s"


def report_html(r: "Report") -> str:
    rows = []
    for c in r.compiles:
        why = ""
        if c.failure is not None:
            why = f"{esc(c.failure.type)}: {esc(c.failure.reason)}"
        elif c.no_output:
            why = esc(c.no_output)
        rows.append([esc(c.name), esc(c.status), _time(c.total_time_s),
                     names(c.units), str(len(c.breaks)) if c.breaks else "",
                     "<br>".join(esc(x) for x in c.recompile_reasons[:3]),
                     source_ref(c.frame), why])
    out = [f"<div><strong>tlp</strong>: {len(r.compiles)} compiles, "
           f"{len(r.units)} units, {len(r.diagnostics)} diagnostics "
           f"({esc(', '.join(l.path for l in r.logs))})</div>",
           table(["compile", "status", "time", "units", "breaks",
                  "recompile reasons", "frame", "failure or no output"], rows)]
    urows = []
    for u in r.units:
        cov = u.coverage
        urows.append([code(u.id), esc(u.graph), str(len(u.kernels)),
                      f"{cov.pre_grad.linked}/{cov.pre_grad.total}",
                      f"{cov.kernels.linked}/{cov.kernels.total}"])
    if urows:
        out.append(table(["unit", "graph", "kernels", "pre-grad nodes linked",
                          "kernels linked"], urows))
    if r.diagnostics:
        out.append("<ul>" + "".join(f"<li>{esc(d)}</li>" for d in r.diagnostics[:20]) + "</ul>")
        if len(r.diagnostics) > 20:
            out.append(f"<p>{len(r.diagnostics) - 20} more diagnostics.</p>")
    return "".join(out)


def unit_html(u: "Unit") -> str:
    rows = []
    for k in u.kernels:
        rows.append([code(k.key), esc(k.kind), esc(", ".join(map(str, k.call_lines))),
                     names(k.post_nodes), names(k.pre_nodes),
                     "<br>".join(f"{source_ref(s)} {code(s.code)}" for s in k.source[:6])])
    out = [f"<div><strong>{esc(u.name)}</strong> ({code(u.id)}): "
           f"{len(u.kernels)} kernels, {len(u.pre_grad_nodes)} pre-grad and "
           f"{len(u.post_grad_nodes)} post-grad nodes</div>",
           table(["kernel", "kind", "call lines", "post-grad nodes",
                  "pre-grad nodes", "user source lines"], rows)]
    srows = [[source_ref(s), code(s.code), names(s.kernels)] for s in u.sources]
    if srows:
        out.append(table(["user line", "code", "kernels"], srows))
    return "".join(out)


def where_html(answers: "Sequence[WhereAnswer]") -> str:
    out = []
    for a in answers:
        out.append(f"<div><strong>{esc(a.unit.name)}</strong> ({code(a.unit.id)}): "
                   f"{esc(a.query)} matched as {esc(a.how)}</div>")
        rows = []
        for n in a.pre_nodes:
            rows.append([code(n.name), code(n.target), esc(n.type),
                         source_ref(n.source), names(n.post_nodes), names(n.kernels)])
        if rows:
            out.append(table(["pre-grad node", "target", "type", "user line",
                              "post-grad nodes", "kernels"], rows))
        krows = [[code(k.key), esc(k.kind), esc(", ".join(map(str, k.call_lines))),
                  names(k.post_nodes), names(k.pre_nodes)] for k in a.kernels]
        if krows:
            out.append(table(["kernel", "kind", "call lines", "post-grad nodes",
                              "pre-grad nodes"], krows))
    return "".join(out)
