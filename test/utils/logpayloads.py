"""The payloads of a TORCH_TRACE log, read independently of tlp's reader
(plain Python, FORMAT.md section 1), for the test checkers."""
import re

EVENT = re.compile(r"^(?:\[rank\d+\]:)?[VIWEC]\d{4} [\d:.]+ \d+ .*?:\d+\] (\{.*\})\s*$")


def payloads(path):
    """Map the 1-based line of each envelope with "has_payload" to its
    payload text: the tab-indented lines after it, tab removed, an empty
    line inside a payload kept as an empty payload line, CR LF read as LF."""
    out, cur, buf = {}, None, []
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        lines = f.read().split("\n")
    for i, raw in enumerate(lines, 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if line.startswith("\t") or (line == "" and cur is not None):
            if cur is not None:
                buf.append(line[1:])
            continue
        if cur is not None:
            out[cur] = "\n".join(buf)
        cur, buf = None, []
        m = EVENT.match(line)
        if m and '"has_payload"' in m.group(1):
            cur = i
    if cur is not None:
        out[cur] = "\n".join(buf)
    return out


def events(lines):
    """For the fixture damagers (make-drops.py, make-losses.py): (first, end) line-index ranges of each event: its envelope line and
    its payload lines."""
    out = []
    for i, l in enumerate(lines):
        if l.startswith(("V", "I", "W", "E")) and "] {" in l:
            j = i + 1
            while j < len(lines) and lines[j].startswith("\t"):
                j += 1
            out.append((i, j))
    return out


def find(lines, text):
    for b, e in events(lines):
        if text in lines[b]:
            return b, e
    raise SystemExit("no event with " + text)
