#!/usr/bin/env python3
"""Write a TORCH_TRACE log of one large compile, for scale tests.

    gen-large-log.py SRCROOT NODES FUSE OUT.log

The pre-grad and post-grad graphs have NODES computing nodes each (a chain
with a side input every 7 nodes); every FUSE consecutive post-grad nodes go
into one Triton kernel, and a view after each kernel belongs to none
(tlplog.biglog.chain_compile, from SRCROOT/utils)."""
import os
import sys


def main():
    root, n, fuse, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    sys.path.insert(0, os.path.join(root, "utils"))
    from tlplog import biglog
    with open(out, "w") as f:
        f.write(biglog.chain_compile(n, fuse))


if __name__ == "__main__":
    main()
