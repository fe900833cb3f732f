#!/usr/bin/env python3
"""Write LOGs one after another N times, shifting every envelope's
"frame_id" in each copy so that copies are distinct compile ids.

    repeat-log.py -n N -o OUT LOG [LOG...]

The tests' own copy of ../shared/bench/replicate-log.py's idea (that script
is outside the repo); payload lines are copied byte for byte, so their md5s
still hold. A log that does not end in a newline gets one.
"""
import argparse
import re
import sys

FRAME = re.compile(rb'"frame_id": (\d+)')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("-o", required=True)
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    data = []
    for p in a.logs:
        d = open(p, "rb").read()
        data.append(d if d.endswith(b"\n") else d + b"\n")
    ids = [int(m.group(1)) for d in data for m in FRAME.finditer(d)]
    stride = (max(ids) + 1) if ids else 1
    with open(a.o, "wb") as out:
        for k in range(a.n):
            for d in data:
                if k == 0:
                    out.write(d)
                    continue
                for line in d.split(b"\n")[:-1]:
                    if not line.startswith(b"\t"):
                        line = FRAME.sub(lambda m: b'"frame_id": %d' % (int(m.group(1)) + k * stride), line, count=1)
                    out.write(line + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
