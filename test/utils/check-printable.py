#!/usr/bin/env python3
"""Count what must not reach a terminal in the bytes of stdin or of FILEs.

    check-printable.py [FILE...]

Control characters (C0 but tab and newline, DEL, C1 U+0080-U+009F) and
invalid UTF-8 bytes (tlplog.verdict.unprintable). Prints one line per
input ("NAME: N control characters, M invalid UTF-8 bytes") and exits 1
if any."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog import verdict  # noqa: E402


def main(argv):
    inputs = argv[1:] or ["-"]
    bad = False
    for name in inputs:
        data = sys.stdin.buffer.read() if name == "-" else open(name, "rb").read()
        controls, invalid = verdict.unprintable(data)
        bad |= bool(controls or invalid)
        print("%s: %d control characters, %d invalid UTF-8 bytes" %
              ("stdin" if name == "-" else name.rsplit("/", 1)[-1], controls, invalid))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
