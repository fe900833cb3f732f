#!/usr/bin/env python3
"""Write the damaged logs of test/Parse/silent-losses.test into a directory.

    make-losses.py INPUTS OUT

Each is a fixture with one change that the mutation campaign
(utils/mutate-logs.py, seed 13) found tlp taking without a word: units or
links lost, exit 0, no diagnostic (issue 13). Lines are found by content,
so the fixtures may change.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from tlplog.log import find  # noqa: E402


def write(out, name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


def main():
    inputs, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    restart = open(os.path.join(inputs, "restart.log")).read().split("\n")
    aot = open(os.path.join(inputs, "aot_cpu.log")).read().split("\n")

    # 1. Truncations inside the payload of an event tlp does not hash (an
    # aot_inference_graph: tlp reads its envelope, not its payload); what
    # came after it (post-grad graph, code, mapping) is gone.
    ab, ae = find(restart, '"aot_inference_graph"')
    cut = ab + 3
    # Mid-line: half of the payload line.
    write(out, "cut-unhashed.log", "\n".join(
        restart[:cut] + [restart[cut][:len(restart[cut]) // 2]]))
    # At a line end: a whole line, but not the whole payload.
    write(out, "cut-unhashed-line-end.log",
          "\n".join(restart[:cut + 1]) + "\n")
    # Without an md5 to check: mid-line, no line break at the end.
    nomd5 = list(restart)
    env = nomd5[ab]
    p = env.index('"has_payload": "')
    q = env.index('"', p + len('"has_payload": "'))
    nomd5[ab] = env[:p] + '"has_payload": true' + env[q + 1:]
    write(out, "cut-no-md5.log", "\n".join(
        nomd5[:cut] + [nomd5[cut][:len(nomd5[cut]) // 2]]))

    # 2. The event line of a post-grad graph lost after an aot_*_graph
    # event: its payload reads as the rest of the aot graph's.
    pb, pe = find(restart, '"inductor_post_grad_graph"')
    write(out, "lost-post-grad-line.log",
          "\n".join(restart[:pb] + restart[pb + 1:]))

    # 3. Events out of order: the output code logged before its post-grad
    # graph (swapped); a post-grad graph logged first of all.
    cb, ce = find(restart, '"inductor_output_code"')
    assert cb == pe
    write(out, "code-first.log", "\n".join(
        restart[:pb] + restart[cb:ce] + restart[pb:pe] + restart[ce:]))
    fb, fe = find(restart, '"inductor_post_grad_graph", "encoding": "string"}'
                  ', "frame_id": 1')
    write(out, "post-grad-first.log", "\n".join(
        restart[fb:fe] + restart[:fb] + restart[fe:]))

    # 4. A damaged attempt: the post-grad graph of 0/0_1 as 0/0_(2^63-1).
    lines = list(restart)
    lines[pb] = lines[pb].replace('"attempt": 1', '"attempt": 9223372036854775807')
    write(out, "attempt-max.log", "\n".join(lines))

    # A damaged "name" key of an artifact event: the pre-grad graph is no
    # longer one.
    gb, ge = find(restart, '"before_pre_grad_graph"')
    lines = list(restart)
    lines[gb] = lines[gb].replace('{"name": ', '{"nale": ', 1)
    write(out, "artifact-no-name.log", "\n".join(lines))

    # 5. An AOTInductor log whose aot_inference_graph event line is lost,
    # or names a frame no dynamo_start begins: the graph kind (inference)
    # is lost.
    ib, ie = find(aot, '"aot_inference_graph"')
    write(out, "aot-no-inference.log", "\n".join(aot[:ib] + aot[ib + 1:]))
    lines = list(aot)
    lines[ib] = lines[ib][:-1] + ', "frame_id": 9223372036854775807}'
    write(out, "aot-frame-id.log", "\n".join(lines))


if __name__ == "__main__":
    main()
