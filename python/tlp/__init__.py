"""tlp: see what torch.compile did to your model (docs/python.md).

    import tlp
    r = tlp.load("/tmp/trace")          # a log, a directory of rank logs,
                                        # tlp IR, or tlp-emit's JSON
    r.compiles[0].status, r.units[0].kernels[0].pre_nodes
    tlp.where("/tmp/trace", node="sigmoid")
    tlp.where(r, source="train.py:31")

The reading is tlp-emit's (C++): load() runs `tlp-emit --json` and turns
its JSON (docs/json.md) into the dataclasses of tlp.model.
"""

from __future__ import annotations

import os
from typing import Optional, Union

from ._tools import TlpError, emit_json, find_tool
from .model import (SCHEMA, Code, Compile, Coverage, Diagnostic, Edge, Failure,
                    GraphBreak, Kernel, LogInfo, Node, Report, Source, Unit,
                    UnitCoverage, report_from_json)
from .query import NotFound, WhereAnswer, WhereAnswers

__version__ = "0.1.0"

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["load", "where", "Report", "Unit", "Kernel", "Node", "Compile",
           "Diagnostic", "Source", "Code", "Edge", "Coverage", "UnitCoverage",
           "Failure", "GraphBreak", "LogInfo", "WhereAnswer", "WhereAnswers",
           "TlpError", "NotFound", "SCHEMA", "find_tool"]


def _is_tlp_json(path: str) -> bool:
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        head = f.read(64).lstrip()
    return head.startswith(b"{") and b'"schema"' in head


def load(path: PathLike, profile: Optional[PathLike] = None) -> Report:
    """What tlp reads from `path`: a TORCH_TRACE log, a directory of
    rank logs, a depyf dump, a TORCH_COMPILE_DEBUG folder, tlp IR, or a
    JSON file tlp-emit --json wrote. With `profile`, a torch.profiler
    Chrome trace (`prof.export_chrome_trace(...)`) is joined onto it:
    Report.profile holds where the time goes (docs/profile.md).
    Diagnostics (warnings about the log) are in Report.diagnostics; an
    error raises TlpError."""
    p = os.fspath(path)
    if _is_tlp_json(p):
        if profile is not None:
            raise TlpError("a profile is joined when tlp reads the log, not "
                           "onto JSON tlp-emit already wrote; load the log")
        with open(p, "rb") as f:
            return report_from_json(f.read())
    r = report_from_json(emit_json(p, profile))
    r.source = p
    return r


def where(path_or_report: Union[PathLike, Report], node: Optional[str] = None,
          source: Optional[str] = None, unit: Optional[str] = None) -> WhereAnswers:
    """Where did my op go? The answer of `tlp-emit --json --node NAME` (or
    `--source FILE:LINE`, the same as `--md`'s) as objects: one WhereAnswer
    per unit where it matched. Raises NotFound (with close names) when
    none."""
    from .query import where as _where
    report = path_or_report if isinstance(path_or_report, Report) else load(path_or_report)
    return _where(report, node=node, source=source, unit=unit)


