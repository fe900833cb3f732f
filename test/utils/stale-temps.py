#!/usr/bin/env python3
"""Plant temporary siblings of an output, then say which are left.

    stale-temps.py make DIR NAME
    stale-temps.py check DIR NAME

make: next to DIR/NAME, makes the temporaries that tlp's runs leave when
they are killed (`.NAME.tlp-[tmp-|old-]HOST-PID-XXXXXX`): a file and two
directories of a process that is gone, one of a live process (this
script's parent, the lit shell, which outlives the check), one of another
host, and one in a form tlp does not know (an older tlp's name). HOST is
the hash tlp uses (FNV-1a of the host name, 8 hex digits).

check: prints, sorted, "gone: WHAT" or "kept: WHAT" for each.
"""
import json
import os
import socket
import subprocess
import sys


def host_tag():
    h = 2166136261
    for c in socket.gethostname().encode():
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
    return "%08x" % h


def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def main():
    mode, d, name = sys.argv[1:4]
    plan = os.path.join(d, ".stale-plan.json")
    if mode == "make":
        host = host_tag()
        other = "%08x" % (int(host, 16) ^ 1)
        pre = "." + name + ".tlp-"
        dead = dead_pid()
        live = os.getppid()
        made = {
            "dead file": ("%s%s-%d-aaaaaa" % (pre, host, dead), "file"),
            "dead tmp directory": ("%stmp-%s-%d-bbbbbb" % (pre, host, dead),
                                   "dir"),
            "dead old directory": ("%sold-%s-%d-cccccc" % (pre, host, dead),
                                   "dir"),
            "live": ("%s%s-%d-dddddd" % (pre, host, live), "file"),
            "other host": ("%s%s-%d-eeeeee" % (pre, other, dead), "file"),
            "legacy": ("%sffffff" % pre, "file"),
        }
        for what, (n, kind) in made.items():
            p = os.path.join(d, n)
            if kind == "dir":
                os.makedirs(os.path.join(p, "sub"))
                with open(os.path.join(p, "sub", "page.html"), "w") as f:
                    f.write("x")
            else:
                with open(p, "w") as f:
                    f.write("x")
        with open(plan, "w") as f:
            json.dump(made, f)
        return 0
    with open(plan) as f:
        made = json.load(f)
    for what in sorted(made):
        n = made[what][0]
        state = "kept" if os.path.lexists(os.path.join(d, n)) else "gone"
        print("%s: %s" % (state, what))
    return 0


if __name__ == "__main__":
    sys.exit(main())
