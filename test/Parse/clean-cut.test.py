import sys

sys.path.insert(0, sys.argv[1])
from tlplog.mutate import clean_cut  # noqa: E402

LOG = (b'V1 a.py:1] {"artifact": {}, "has_payload": "x"}\n'
       b'\tline one\n'
       b'\tline two\n'
       b'V2 a.py:1] {"compilation_metrics": {}}\n'
       b'V3 a.py:1] {"chromium_event": {}, "has_payload": "y"}\n'
       b'\t}\n')


def cut(at):
    return LOG[:LOG.index(at) + len(at)]


for what, mutated, kind in [
        ("after an event's break", cut(b"line two\n"), "truncate"),
        ("before the break of an event's last payload line", cut(b"line two"),
         "truncate"),
        ("at the end", LOG, "truncate"),
        ("inside a payload line", cut(b"line t"), "truncate"),
        ("before the break of a payload line with more lines",
         cut(b"line one"), "truncate"),
        ("before the break of an envelope line with no payload",
         cut(b'{"compilation_metrics": {}}'), "truncate"),
        ("after the break of a payload line with more lines",
         cut(b"line one\n"), "truncate"),
        ("not a truncation", cut(b"line two\n"), "drop-line")]:
    print("%s: %s" % (what, clean_cut(LOG, mutated, kind)))
