#!/usr/bin/env python3
"""Run a command and check its exit status.

    exit-code.py N COMMAND...

Runs COMMAND with stdout and stderr as they are, then prints "exit R"
(R is the status, or -S for a death by signal S) on stdout. Exits 0 if R
is N, else 1. For lit, whose `not` cannot tell an error exit from a crash
and cannot ask for a given status.
"""
import subprocess
import sys


def main():
    want = int(sys.argv[1])
    sys.stdout.flush()
    r = subprocess.run(sys.argv[2:]).returncode
    print("exit %d" % r)
    return 0 if r == want else 1


if __name__ == "__main__":
    sys.exit(main())
