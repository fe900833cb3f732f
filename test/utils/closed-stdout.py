#!/usr/bin/env python3
"""Run a command whose stdout is a pipe nobody reads (closed before it
starts) and print "exit R: " and its stderr on one line.

    closed-stdout.py COMMAND...

The child gets the default SIGPIPE action (subprocess restores it), as
from a shell: `COMMAND | head -0`, without the race.
"""
import os
import subprocess
import sys


def main():
    r, w = os.pipe()
    os.close(r)
    p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
    os.close(w)
    print("exit %d: %s" % (p.returncode, p.stderr.decode().strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
