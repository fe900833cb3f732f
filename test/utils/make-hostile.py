#!/usr/bin/env python3
"""Write the large hostile logs of test/tools/scaling.test.

    make-hostile.py INPUTS KIND N OUT

KIND is one of
  warnings  N mapping artifacts with invalid JSON, each in its own compile
            id: N warnings
  launches  handles.log with N more launches of one kernel in its wrapper
  ghosts    handles.log whose mapping names N kernels that nothing calls
  ranks     a directory OUT of N rank logs of one compile each
  inputs    handles.log whose post-grad graph has N more nodes and thirty
            that each take them all as inputs
  misses    N compiles of one frame, each with an FX graph cache miss
            whose key differs from the one before in one component
"""
import json
import os
import re
import sys


def main():
    inputs, kind, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    lines = open(inputs + "/handles.log").read().split("\n")
    res = []
    if kind == "warnings":
        for i in range(n):
            res.append('V0901 10:00:00.063000 4242 torch/_inductor/compile_fx.py:1000] '
                       '{"artifact": {"name": "inductor_provenance_tracking_node_mappings", '
                       '"encoding": "json"}, "frame_id": %d, "frame_compile_id": 0, '
                       '"attempt": 0, "has_payload": ""}' % i)
            res.append('\t{"preToPost": nope %d}' % i)
    elif kind == "launches":
        call = "\t        triton_poi_fused_mul_1.run(buf1, buf2, 128, stream=stream0)"
        for l in lines:
            if "inductor_output_code" in l:
                l = re.sub(r'"has_payload": "[0-9a-f]{32}"', '"has_payload": ""', l)
            res.append(l)
            if l == call:
                res.extend([call] * n)
    elif kind == "ghosts":
        for i, l in enumerate(lines):
            if i > 0 and "node_mappings" in lines[i - 1]:
                p = json.loads(l[1:])
                p["cppCodeToPost"].update(
                    {"ghost_kernel_%d:%d" % (k, k): ["mul"] for k in range(n)})
                l = "\t" + json.dumps(p)
            elif "node_mappings" in l:
                l = re.sub(r'"has_payload": "[0-9a-f]{32}"', '"has_payload": ""', l)
            res.append(l)
    elif kind == "inputs":
        # N nodes, then thirty nodes that each take all N as inputs: what was
        # quadratic is paid thirty times, what is linear barely grows.
        graph = False
        for l in lines:
            if "after_post_grad_graph" in l:
                graph = True
                l = re.sub(r'"has_payload": "[0-9a-f]{32}"', '"has_payload": ""', l)
            elif graph and l.startswith("\t        return ("):
                res.extend("\t        x%d = torch.ops.aten.clone.default(arg0_1)" % i
                           for i in range(n))
                names = ", ".join("x%d" % i for i in range(n))
                res.extend("\t        cat%d = torch.ops.aten.cat.default([%s])" % (k, names)
                           for k in range(30))
                graph = False
            res.append(l)
    elif kind == "misses":
        res = lines[:2]
        for i in range(n):
            res.append('V0901 10:00:00.063000 4242 torch/_inductor/compile_fx.py:751] '
                       '{"artifact": {"name": "fx_graph_cache_miss", '
                       '"encoding": "json"}, "frame_id": 0, "frame_compile_id": %d, '
                       '"attempt": 0, "has_payload": ""}' % i)
            res.append('\t{"key": "k%d", "cache_state": "miss", "components": '
                       '["[h%d] fx_kwargs[n]: %d", "[same] gm: f"]}' % (i, i, i))
    elif kind == "ranks":
        # A directory of N rank logs, each the string table and the
        # dynamo_start of handles.log (one compile record each).
        os.makedirs(out, exist_ok=True)
        head = "\n".join(lines[:4]) + "\n"
        for r in range(n):
            name = "dedicated_log_torch_trace_rank_%d.log" % r
            with open(os.path.join(out, name), "w") as f:
                f.write(head)
        return
    else:
        raise SystemExit("unknown kind " + kind)
    with open(out, "w") as f:
        f.write("\n".join(res) + "\n")


if __name__ == "__main__":
    main()
