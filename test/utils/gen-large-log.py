#!/usr/bin/env python3
"""Write a TORCH_TRACE log of one large compile, for scale tests.

    gen-large-log.py SRCROOT NODES FUSE OUT.log

The pre-grad and post-grad graphs have NODES computing nodes each (a chain
with a side input every 7 nodes); every FUSE consecutive post-grad nodes go
into one Triton kernel, and a view after each kernel belongs to none. The
mapping is v2 with debug handles, as PyTorch writes it."""
import json
import os
import sys


def main():
    root, n, fuse, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    sys.path.insert(0, os.path.join(root, "utils"))
    from tracelog import TraceLog

    log = TraceLog(month_day="0303", hour=3)
    cid = (0, 0, 0)
    pre = ['class GraphModule(torch.nn.Module):',
           '    def forward(self, L_x_: "f32[8][1]cuda:0"):',
           '        l_x_ = L_x_']
    post = ['class <lambda>(torch.nn.Module):',
            '    def forward(self, arg0_1: "f32[8][1]cuda:0"):']
    pre_to_post, kernel_to_post = {}, {}
    prev_pre, prev_post = "l_x_", "arg0_1"
    kernels = (n + fuse - 1) // fuse
    for i in range(n):
        a, b = "a%d" % i, "b%d" % i
        side = " + " + "a%d" % (i - 7) if i >= 7 and i % 7 == 0 else ""
        pre.append('         # File: /home/user/big.py:%d in forward, code: x = x + 1' % (10 + i))
        pre.append('        %s: "f32[8][1]cuda:0" = %s + 1%s' % (a, prev_pre, side))
        post_side = ", b%d" % (i - 7) if side else ""
        post.append('        %s: "f32[8][1]cuda:0" = torch.ops.aten.add.Tensor(%s, 1%s)'
                    % (b, prev_post, post_side))
        pre_to_post[a] = [b]
        k = i // fuse
        kernel_to_post.setdefault("triton_poi_fused_add_%d:%d" % (k, k + 1), []).append(b)
        prev_pre, prev_post = a, b
        if i % fuse == fuse - 1 or i == n - 1:
            v = "v%d" % k
            post.append('        %s: "f32[8][1]cuda:0" = torch.ops.aten.view.default(%s, [8])'
                        % (v, prev_post))
            prev_post = v
    pre.append("        return (%s,)" % prev_pre)
    post.append("        return (%s,)" % prev_post)
    code = ["# AOT ID: ['0_inference']", "import torch", "",
            "def call(args):", "    arg0_1, = args", "    args.clear()"]
    for k in range(kernels):
        code.append("        # [Provenance debug handles] triton_poi_fused_add_%d:%d" % (k, k + 1))
        code.append("        triton_poi_fused_add_%d.run(buf%d, 8, stream=stream0)" % (k, k))
    code.append("    return (buf0, )")
    post_to_pre = {v[0]: [k] for k, v in pre_to_post.items()}
    post_to_kernel = {}
    for k, vs in kernel_to_post.items():
        for v in vs:
            post_to_kernel.setdefault(v, []).append(k)
    log.artifact("before_pre_grad_graph", "\n".join(pre) + "\n", cid=cid)
    log.artifact("after_post_grad_graph", "\n".join(post) + "\n", cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/big.py"}, cid=cid,
              payload="\n".join(code) + "\n", path="torch/_inductor/graph.py",
              lineno=2390)
    log.artifact("inductor_provenance_tracking_node_mappings", json.dumps({
        "preToPost": pre_to_post, "postToPre": post_to_pre,
        "cppCodeToPost": kernel_to_post, "postToCppCode": post_to_kernel,
        "version": 2.0}), encoding="json", cid=cid)
    with open(out, "w") as f:
        f.write(log.text())


if __name__ == "__main__":
    main()
