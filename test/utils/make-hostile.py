#!/usr/bin/env python3
"""Write the large hostile logs of test/tools/scaling.test.

    make-hostile.py INPUTS KIND N OUT

KIND is one of warnings, launches, ghosts, ranks, inputs and misses
(tlplog.biglog.hostile says what each is)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog import biglog  # noqa: E402


def main():
    inputs, kind, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    biglog.hostile(inputs, kind, n, out)


if __name__ == "__main__":
    main()
