"""Reading and writing TORCH_TRACE logs, independently of tlp's reader
(plain Python, ../shared/docs/FORMAT.md section 1).

A log is lines. An event is an envelope line (a glog-style prefix, `] `,
then one JSON object) and, when the envelope has `has_payload`, the
payload: the lines after it that start with a TAB (the TAB is not part
of the text).

Reading:
  ENVELOPE          the envelope line, group 1 the JSON text
  parse_event(line) an envelope line exactly as torch._logging writes it
                    (prefix fields, the record in order), or None
  lines(path)       the log's text as lines (CR LF read as LF)
  envelopes(path)   (line number, envelope dict) of every envelope that parses
  payloads(path)    line number of each envelope with a payload -> its text
  kind(envelope)    its kind (`artifact:NAME` and `graph_dump:NAME` for
                    the generic ones)
  count_kinds(dir)  envelopes by kind over a directory of logs
  compile_id(env)   `F/C`, `!A/F/C`, `F/C_N`; None without a frame id
  mapping_keys(m)   the kernel keys of a provenance mapping
Events as line ranges (the damagers and mutants; str or bytes lines):
  events(lines)     (first, end) line indices of each event
  find(lines, text) the first event whose envelope line holds text
  clear_md5(line)   the envelope with `"has_payload": ""` (no md5 to check)
Writing:
  TraceLog          writes envelopes, payloads and md5s as torch._logging does
"""
import collections
import hashlib
import json
import os
import re

ENVELOPE = re.compile(
    r"^(?:\[rank\d+\]:)?[VIWEC]\d{4} [\d:.]+ \d+ .*?:\d+\] (\{.*\})\s*$")
MD5 = re.compile(r'"has_payload": "[0-9a-f]{32}"')

# An envelope line as torch._logging writes it, field by field, and the
# order of the envelope's fields after the event's own.
EVENT = re.compile(r"^([VIWEC])(\d{4}) (\d{2}):(\d{2}):(\d{2})\.(\d{6}) (\d+) "
                   r"(.+:\d+)\] (\{.*\})$")
ENVELOPE_ORDER = ["rank", "stack", "compiled_autograd_id", "frame_id",
                  "frame_compile_id", "attempt", "has_payload"]
INT_FIELDS = {"rank", "frame_id", "frame_compile_id", "attempt"}


def lines(path):
    """The text of \p path (UTF-8, bad bytes replaced) split at LF, a CR
    before each LF taken off."""
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        raw = f.read().split("\n")
    return [l[:-1] if l.endswith("\r") else l for l in raw]



def parse_event(line):
    """\p line as torch._logging writes an envelope, exactly: the prefix
    fields (level, date, micros, pid, source), the event name and the
    record with its keys in order; None for anything else (a line that
    json.dumps would not write back the same, fields out of order, a
    malformed md5), so that a writer can reproduce the line."""
    m = EVENT.match(line)
    if not m:
        return None
    level, date, hh, mm, ss, us, pid, source, js = m.groups()
    try:
        record = json.loads(js, object_pairs_hook=collections.OrderedDict)
    except ValueError:
        return None
    if not isinstance(record, dict) or not record:
        return None
    if json.dumps(record) != js:
        return None
    keys = list(record)
    name = keys[0]
    rest = keys[1:]
    order = [k for k in ENVELOPE_ORDER if k in rest]
    if rest != order or len(set(keys)) != len(keys):
        return None
    for k in INT_FIELDS:
        if k in record and (type(record[k]) is not int):
            return None
    cai = record.get("compiled_autograd_id", 0)
    if not (cai is None or type(cai) is int):
        return None
    if "stack" in record and any(k in record for k in (
            "compiled_autograd_id", "frame_id", "frame_compile_id", "attempt")):
        return None
    hp = record.get("has_payload")
    if hp is not None and not (isinstance(hp, str) and
                               re.match(r"^[0-9a-fA-F]{32}$", hp)):
        return None
    micros = ((int(hh) * 60 + int(mm)) * 60 + int(ss)) * 1000000 + int(us)
    return dict(level=level, date=date, micros=micros, pid=int(pid),
                source=source, name=name, record=record)

def _lines_of(source):
    return lines(source) if isinstance(source, str) else source


def envelopes(source):
    """(1-based line, envelope dict) of every envelope line of \p source
    (a path, or lines) whose JSON parses; payload lines are never
    envelopes."""
    for i, line in enumerate(_lines_of(source), 1):
        if line.startswith("\t"):
            continue
        m = ENVELOPE.match(line)
        if not m:
            continue
        try:
            env = json.loads(m.group(1))
        except ValueError:
            continue
        if isinstance(env, dict) and env:
            yield i, env


def payloads(source):
    """Map the 1-based line of each envelope with "has_payload" to its
    payload text: the tab-indented lines after it, tab removed, an empty
    line inside a payload kept as an empty payload line, CR LF read as LF.
    \p source is a path or lines."""
    out, cur, buf = {}, None, []
    ls = _lines_of(source)
    # A log's last line break ends its last line; the "" after it is none.
    if ls and ls[-1] == "":
        ls = ls[:-1]
    for i, line in enumerate(ls, 1):
        if line.startswith("\t") or (line == "" and cur is not None):
            if cur is not None:
                buf.append(line[1:])
            continue
        if cur is not None:
            out[cur] = "\n".join(buf)
        cur, buf = None, []
        m = ENVELOPE.match(line)
        if m and '"has_payload"' in m.group(1):
            cur = i
    if cur is not None:
        out[cur] = "\n".join(buf)
    return out


def kind(env):
    """The event's kind: its first key, with the artifact's name for the
    generic `artifact` and `graph_dump` events (`artifact:NAME`)."""
    k = next(iter(env))
    if k in ("artifact", "graph_dump") and isinstance(env[k], dict) and \
            "name" in env[k]:
        k += ":" + env[k]["name"]
    return k


def count_kinds(trace):
    """Envelopes by kind over the logs of the directory \p trace (or one
    log file)."""
    c = collections.Counter()
    files = [trace] if os.path.isfile(trace) else [
        os.path.join(trace, fn) for fn in sorted(os.listdir(trace))]
    for path in files:
        for _, env in envelopes(path):
            c[kind(env)] += 1
    return c


def compile_id(env):
    """The compile id PyTorch writes: `F/C`, `!A/F/C` under compiled
    autograd, `_N` after it for an attempt above 0; None when the envelope
    has no frame id."""
    if "frame_id" not in env:
        return None
    s = "%d/%d" % (env["frame_id"], env.get("frame_compile_id", 0))
    if env.get("compiled_autograd_id") is not None:
        s = "!%d/%s" % (env["compiled_autograd_id"], s)
    if env.get("attempt"):
        s += "_%d" % env["attempt"]
    return s


def mapping_keys(mapping):
    """The kernel keys of a provenance mapping (a parsed
    inductor_provenance_tracking_node_mappings payload): those of
    cppCodeToPost and every value of postToCppCode."""
    keys = set(mapping.get("cppCodeToPost", {}))
    for vs in mapping.get("postToCppCode", {}).values():
        keys.update(vs)
    return keys


def events(lines):
    """(first, end) line-index ranges of each event of \p lines (str or
    bytes): a line that is not a payload line and holds `] {`, and the
    TAB lines after it."""
    if lines and isinstance(lines[0], bytes):
        tab, mark = b"\t", b"] {"
    else:
        tab, mark = "\t", "] {"
    out = []
    for i, l in enumerate(lines):
        if not l.startswith(tab) and mark in l:
            j = i + 1
            while j < len(lines) and lines[j].startswith(tab):
                j += 1
            out.append((i, j))
    return out


def find(lines, text):
    """The (first, end) range of the first event whose envelope line holds
    \p text; exits naming the text when there is none."""
    for b, e in events(lines):
        if text in lines[b]:
            return b, e
    raise SystemExit("no event with " + text)


def clear_md5(line):
    """\p line with its payload's md5 made empty (a changed payload then
    reads without a mismatch)."""
    return MD5.sub('"has_payload": ""', line)


class TraceLog:
    """Writes a TORCH_TRACE log the way torch._logging does. Each event is
    a glog-style prefix, one space, the JSON envelope (json.dumps
    defaults), then the payload as lines that each start with one TAB;
    has_payload is the md5 of the payload text. Times advance 7 ms an
    event, so a log is the same on every run."""

    def __init__(self, pid=4242, month_day="0819", hour=12):
        self.lines = []
        self.pid = pid
        self.md = month_day
        self.hour = hour
        self.tick = 0

    def _prefix(self, path, lineno):
        self.tick += 7
        minute, rest = divmod(self.tick, 60000)
        sec, ms = divmod(rest, 1000)
        return "V%s %02d:%02d:%02d.%03d000 %d %s:%d]" % (
            self.md, self.hour, minute % 60, sec, ms, self.pid, path, lineno)

    def event(self, kind, meta=None, cid=None, rank=None, stack=None,
              payload=None, path="torch/_inductor/compile_fx.py", lineno=1000,
              md5=None):
        """cid: (frame_id, frame_compile_id, attempt) or a dict of fields."""
        record = {kind: {} if meta is None else meta}
        if rank is not None:
            record["rank"] = rank
        if stack is not None:
            record["stack"] = stack
        elif cid is not None:
            if isinstance(cid, dict):
                record.update(cid)
            else:
                frame, fcid, attempt = cid
                record["frame_id"] = frame
                record["frame_compile_id"] = fcid
                record["attempt"] = attempt
        if payload is not None:
            record["has_payload"] = md5 or hashlib.md5(
                payload.encode("utf-8", "surrogateescape")).hexdigest()
        line = self._prefix(path, lineno) + " " + json.dumps(record)
        self.lines.append(line)
        if payload is not None:
            for p in payload.split("\n"):
                self.lines.append("\t" + p)

    def artifact(self, name, payload, encoding="string", **kw):
        self.event("artifact", {"name": name, "encoding": encoding},
                   payload=payload, **kw)

    def str_entry(self, s, index):
        self.lines.append(self._prefix("torch/_logging/structured.py", 28) +
                          " " + json.dumps({"str": [s, index]}))

    def raw(self, line):
        self.lines.append(line)

    def text(self):
        return "\n".join(self.lines) + "\n"
