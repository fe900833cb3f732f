#!/usr/bin/env python3
"""Write a large synthetic TORCH_TRACE log for the HTML benchmark.

    gen-large-log.py [--post 20000] [--lines 50000] -o big.log

One JIT compile on CUDA: a pre-grad graph, a post-grad graph of --post
nodes, a Python wrapper of at least --lines lines (Triton kernels that
each fuse 20 post-grad nodes, launched in call() with debug handles), a v2
provenance mapping, kernel stack traces and triton_kernel_info
(tlplog.biglog.wide_compile: envelopes and md5s as PyTorch writes them).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "utils"))
from tlplog import biglog  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--post", type=int, default=20000)
    ap.add_argument("--lines", type=int, default=50000)
    ap.add_argument("-o", required=True)
    a = ap.parse_args()
    text, post, pre, code, kernels = biglog.wide_compile(a.post, a.lines)
    with open(a.o, "w") as f:
        f.write(text)
    print("%s: %d post-grad nodes, %d pre-grad lines, %d wrapper lines, %d kernels"
          % (a.o, post, pre, code, kernels))


if __name__ == "__main__":
    main()
