#!/usr/bin/env python3
"""Write LOGs one after another N times, shifting every envelope's
"frame_id" in each copy so that copies are distinct compile ids.

    repeat-log.py -n N -o OUT LOG [LOG...]

The tests' own copy of ../shared/bench/replicate-log.py's idea (that script
is outside the repo); payload lines are copied byte for byte, so their md5s
still hold. A log that does not end in a newline gets one
(tlplog.biglog.repeat).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tlplog import biglog  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("-o", required=True)
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    biglog.repeat(a.logs, a.n, a.o)
    return 0


if __name__ == "__main__":
    sys.exit(main())
