#!/usr/bin/env python3
"""Run a command with a pseudo-terminal as its stdin, stdout and stderr.

    run-in-pty.py PROGRAM ARGS...

Prints what the command wrote to the terminal, less colour escapes, then
`exit N` (its exit status), and exits 0: for tests of what a tool does on
a terminal.
"""
import os
import pty
import re
import sys


def main():
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.argv[1], sys.argv[1:])
    out = b""
    while True:
        try:
            b = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not b:
            break
        out += b
    _, status = os.waitpid(pid, 0)
    text = out.decode("utf-8", "replace").replace("\r\n", "\n")
    sys.stdout.write(re.sub(r"\x1b\[[0-9;]*m", "", text))
    print("exit %d" % os.waitstatus_to_exitcode(status))
    return 0


if __name__ == "__main__":
    sys.exit(main())
