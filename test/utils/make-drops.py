#!/usr/bin/env python3
"""Write the damaged logs of test/Parse/silent-drops.test into a directory.

    make-drops.py INPUTS OUT

Each is a fixture with one change that tlp once took without a word
(issue 13). Lines are found by content, so the fixtures may change.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog.log import find  # noqa: E402


def write(out, name, lines):
    with open(os.path.join(out, name), "w") as f:
        f.write("\n".join(lines))


def main():
    inputs, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    handles = open(os.path.join(inputs, "handles.log")).read().split("\n")
    train = open(os.path.join(inputs, "jit_cuda_train.log")).read().split("\n")

    # frame_id as a string, a float, the largest int64, a negative number.
    for name, value in (("string", '"0"'), ("float", "0.0"),
                        ("max", "9223372036854775807"), ("negative", "-1"),
                        ("rank-negative", None)):
        lines = []
        for l in handles:
            if value is not None:
                l = l.replace('"frame_id": 0,', '"frame_id": %s,' % value)
            elif '"frame_id": 0,' in l:
                l = l.replace('"attempt": 0', '"attempt": 0, "rank": -3')
            lines.append(l)
        write(out, "frame-%s.log" % name, lines)

    # A mapping whose event line was lost right after a chromium event
    # (a JSON payload tlp does not parse): the mapping's payload line reads
    # as part of the chromium event's.
    mb, me = find(handles, "inductor_provenance_tracking_node_mappings")
    chromium = ['V0901 10:00:00.062000 4242 torch/_dynamo/utils.py:1946] '
                '{"chromium_event": {}, "frame_id": 0, "frame_compile_id": 0, '
                '"attempt": 0, "has_payload": ""}',
                "\t{", '\t"name": "GraphLowering.run",', '\t"ph": "E"', "\t}"]
    write(out, "lost-mapping-line.log",
          handles[:mb] + chromium + handles[mb + 1:])

    # A user frame whose file is a string-table index nothing defines.
    lines = [l.replace('"filename": 2}', '"filename": 7}') for l in handles]
    write(out, "dangling-string.log", lines)

    # A repeated kernel-stack-traces event, and a kernel-info event logged
    # before everything else.
    sb, se = find(train, "inductor_provenance_tracking_kernel_stack_traces")
    write(out, "repeated-stack-traces.log", train[:se] + train[sb:se] + train[se:])
    kb, ke = find(train, "triton_kernel_info")
    write(out, "kernel-info-first.log", train[kb:ke] + train[:kb] + train[ke:])


if __name__ == "__main__":
    main()
