#!/usr/bin/env python3
"""Describe a TORCH_TRACE log as the YAML tlp-yaml2log reads.

    utils/log2yaml.py LOG [LOG...] [-o OUT.yaml]

The inverse of tools/tlp-yaml2log (as obj2yaml is of yaml2obj): each log
becomes one YAML document (several logs: several documents, in the order
given, for --docnum). Event lines become events, the lines that do not
read as one (deliberately broken input) become raw lines, and a payload's
md5 is written only when it is not the payload's. Check the result with
`tlp-yaml2log --docnum=N OUT.yaml | cmp - LOG`.
"""
import argparse
import collections
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tlplog.log import ENVELOPE_ORDER, parse_event  # noqa: E402

STR_SOURCE = "torch/_logging/structured.py:28"
PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./-]*$")
LITERAL = re.compile(r"^(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?|"
                     r"true|false|null|NaN|-?Infinity)$")
WIDTH = 100


def yaml_str(s):
    """A YAML scalar for the string s (plain when that reads back as s)."""
    if PLAIN.match(s) and not LITERAL.match(s):
        return s
    printable = all(c.isprintable() or c == "\t" for c in s)
    return json.dumps(s, ensure_ascii=not printable)


def flow(v):
    if isinstance(v, dict):
        return "{" + ", ".join(yaml_str(k) + ": " + flow(x)
                               for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    if isinstance(v, str):
        return yaml_str(v)
    return json.dumps(v)


def block(v, indent):
    """Lines of v in block style at indent (v a non-empty dict or list)."""
    pad = " " * indent
    out = []
    items = v.items() if isinstance(v, dict) else [(None, x) for x in v]
    for k, x in items:
        head = pad + (yaml_str(k) + ":" if k is not None else "-")
        f = flow(x)
        if len(head) + 1 + len(f) <= WIDTH or not (
                isinstance(x, (dict, list)) and x):
            out.append(head + " " + f)
        elif k is None and isinstance(x, dict):
            sub = block(x, indent + 2)
            out.append(pad + "- " + sub[0].lstrip())
            out.extend(sub[1:])
        else:
            out.append(head)
            out.extend(block(x, indent + 2))
    return out


def value(key, v, indent):
    head = " " * indent + key + ":"
    f = flow(v)
    if len(head) + 1 + len(f) <= WIDTH or not (isinstance(v, (dict, list)) and v):
        return [head + " " + f]
    return [head] + block(v, indent + 2)


def block_scalar_ok(text):
    if text == "" or text.strip("\n") == "":
        return False
    # A line that starts with a tab is not always read back as content.
    if any(ln.startswith("\t") for ln in text.split("\n")):
        return False
    for c in text:
        if c in "\t\n":
            continue
        if not c.isprintable() or c in "\ufeff":
            return False
    return True


def payload_lines(text, indent):
    pad = " " * indent
    if not block_scalar_ok(text):
        printable = all(c.isprintable() or c == "\t" for c in text)
        return [pad + "payload: " + json.dumps(text, ensure_ascii=not printable)]
    if not text.endswith("\n"):
        chomp = "-"
    elif text.endswith("\n\n"):
        chomp = "+"
    else:
        chomp = ""
    body = text[:-1] if text.endswith("\n") else text
    if chomp == "+":
        body = text[:-1]
    lines = body.split("\n")
    first = next(ln for ln in lines if ln.strip() != "")
    ind = ""
    if first[0] in " \t" or any(ln.strip() == "" and ln for ln in
                                lines[:lines.index(first)]):
        ind = "2"
    out = [pad + "payload: |" + ind + chomp]
    for ln in lines:
        out.append((pad + "  " + ln) if ln else "")
    return out


def fmt_time(date, micros):
    h, rest = divmod(micros, 3600000000)
    m, rest = divmod(rest, 60000000)
    s, us = divmod(rest, 1000000)
    return "%s %02d:%02d:%02d.%06d" % (date, h, m, s, us)


def describe(data, name):
    text = data.decode("utf-8", "surrogateescape")
    crlf = "\r\n" in text and text.replace("\r\n", "") .find("\n") < 0
    if crlf:
        text = text.replace("\r\n", "\n")
    final_newline = text.endswith("\n")
    if final_newline:
        text = text[:-1]
    lines = text.split("\n")
    items = []  # ("raw", str) or ("event", dict)
    i = 0
    while i < len(lines):
        ev = parse_event(lines[i])
        if ev is None:
            items.append(("raw", lines[i]))
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].startswith("\t"):
            j += 1
        pl = [ln[1:] for ln in lines[i + 1:j]]
        hp = ev["record"].get("has_payload")
        if hp is None:
            items.append(("event", ev))
            items.extend(("raw", ln) for ln in lines[i + 1:j])
        elif not pl:
            ev["md5"] = hp
            items.append(("event", ev))
        else:
            payload = "\n".join(pl)
            ev["payload"] = payload
            md5 = hashlib.md5(payload.encode("utf-8", "surrogateescape")).hexdigest()
            if md5 != hp:
                ev["md5"] = hp
            items.append(("event", ev))
        i = j
    events = [e for k, e in items if k == "event"]
    pid = collections.Counter(e["pid"] for e in events).most_common(1)
    pid = pid[0][0] if pid else 0
    srcs = collections.Counter(e["source"] for e in events if e["name"] != "str")
    source = srcs.most_common(1)[0][0] if srcs else "torch/_inductor/compile_fx.py:1000"
    steps = collections.Counter(
        b["micros"] - a["micros"] for a, b in zip(events, events[1:])
        if a["date"] == b["date"] and b["micros"] >= a["micros"]
        and (b["micros"] - a["micros"]) % 1000 == 0)
    step = steps.most_common(1)[0][0] // 1000 if steps else 1
    out = ["# " + name] if name else []
    out.append("pid: %d" % pid)
    start = events[0] if events else None
    out.append("start: %s" % (fmt_time(start["date"], start["micros"])
                              if start else "0101 00:00:00.000000"))
    out.append("step_ms: %d" % step)
    out.append("source: %s" % yaml_str(source))
    if crlf:
        out.append("line_ending: crlf")
    if not final_newline:
        out.append("final_newline: false")
    out.append("events:")
    # Runs of raw lines are one raw entry, a block when it can be.
    merged = []
    for kind, it in items:
        if kind == "raw" and merged and merged[-1][0] == "raw":
            merged[-1] = ("raw", merged[-1][1] + "\n" + it)
        else:
            merged.append((kind, it))
    clock = None
    for kind, it in merged:
        if kind == "raw":
            if "\n" in it and block_scalar_ok(it):
                out.extend(l.replace("payload:", "raw:", 1) if n == 0 else l
                           for n, l in enumerate(payload_lines(it, 4)))
                out[-len(payload_lines(it, 4))] = "  - " + out[
                    -len(payload_lines(it, 4))].lstrip()
            else:
                for ln in it.split("\n"):
                    out.append("  - raw: " + json.dumps(ln, ensure_ascii=not all(
                        c.isprintable() or c == "\t" for c in ln)))
            continue
        e = it
        rec = e["record"]
        out.append("  - event: " + yaml_str(e["name"]))
        meta = rec[e["name"]]
        if meta != {} or type(meta) is not dict:
            out.extend(value("metadata", meta, 4))
        for k in ("rank", "stack", "compiled_autograd_id", "frame_id",
                  "frame_compile_id", "attempt"):
            if k in rec:
                out.extend(value(k, rec[k], 4))
        want = e["source"] if e["name"] != "str" else STR_SOURCE
        if e["name"] != "str" and e["source"] == source:
            pass
        elif e["name"] == "str" and e["source"] == STR_SOURCE:
            pass
        else:
            out.append("    source: " + yaml_str(e["source"]))
        del want
        expect = (start["date"], start["micros"]) if clock is None else (
            clock[0], clock[1] + step * 1000)
        if (e["date"], e["micros"]) != expect:
            out.append("    time: %s" % fmt_time(e["date"], e["micros"]))
        clock = (e["date"], e["micros"])
        if e["level"] != "V":
            out.append("    level: " + e["level"])
        if e["pid"] != pid:
            out.append("    pid: %d" % e["pid"])
        if "md5" in e:
            out.append("    md5: " + e["md5"])
        if "payload" in e:
            out.extend(payload_lines(e["payload"], 4))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("-o", default="-")
    ap.add_argument("--no-name", action="store_true",
                    help="do not start each document with a comment naming its log")
    a = ap.parse_args()
    docs = []
    for p in a.logs:
        with open(p, "rb") as f:
            docs.append(describe(f.read(), None if a.no_name else p))
    text = "---\n".join(docs) if len(docs) > 1 else docs[0]
    if len(docs) > 1:
        text = "---\n" + text
    if a.o == "-":
        sys.stdout.write(text)
    else:
        with open(a.o, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
