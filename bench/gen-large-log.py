#!/usr/bin/env python3
"""Write a large synthetic TORCH_TRACE log for the HTML benchmark.

    gen-large-log.py [--post 20000] [--lines 50000] -o big.log

One JIT compile on CUDA: a pre-grad graph, a post-grad graph of --post
nodes, a Python wrapper of at least --lines lines (Triton kernels that
each fuse 20 post-grad nodes, launched in call() with debug handles), a v2
provenance mapping, kernel stack traces and triton_kernel_info. Written
with utils/tracelog.py, so envelopes and md5s are as PyTorch writes them.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "utils"))
from tracelog import TraceLog  # noqa: E402

MODEL = "/home/user/proj/big_model.py"
PER_KERNEL = 20  # post-grad nodes fused into one kernel
PRE_PER_KERNEL = 4


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--post", type=int, default=20000)
    ap.add_argument("--lines", type=int, default=50000)
    ap.add_argument("-o", required=True)
    a = ap.parse_args()
    kernels = max(1, a.post // PER_KERNEL)

    pre = ["class GraphModule(torch.nn.Module):",
           '    def forward(self, L_x_: "f32[64][1]cuda:0"):',
           "        l_x_ = L_x_"]
    post = ["class <lambda>(torch.nn.Module):",
            '    def forward(self, arg0_1: "f32[64][1]cuda:0"):']
    pre_to_post, kernel_to_post, traces, info = {}, {}, {}, {}
    prev_pre, prev_post = "l_x_", "arg0_1"
    for k in range(kernels):
        line = 100 + k
        comment = "         # File: %s:%d in forward, code: x = block_%d(x)" % (MODEL, line, k)
        pre.append("        ")
        pre.append(comment)
        post.append(comment)
        names = []
        for j in range(PER_KERNEL):
            n = "mul_%d" % (k * PER_KERNEL + j)
            post.append('        %s: "f32[64][1]cuda:0" = torch.ops.aten.mul.Tensor(%s, 1.01);  %s = None'
                        % (n, prev_post, prev_post))
            names.append(n)
            prev_post = n
        pres = []
        for j in range(PRE_PER_KERNEL):
            n = "x_%d" % (k * PRE_PER_KERNEL + j)
            pre.append('        %s: "f32[64][1]cuda:0" = %s * 1.01;  %s = None' % (n, prev_pre, prev_pre))
            pres.append(n)
            prev_pre = n
        for j, n in enumerate(pres):
            pre_to_post[n] = names[j * PER_KERNEL // PRE_PER_KERNEL:(j + 1) * PER_KERNEL // PRE_PER_KERNEL]
        key = "triton_poi_fused_mul_%d:%d" % (k, k + 1)
        kernel_to_post[key] = names
        traces[key] = ['  File "%s", line %d, in forward\n    x = block_%d(x)\n' % (MODEL, line, k)]
        info["triton_poi_fused_mul_%d" % k] = {"autotune_cache_state": "miss", "num_configs": 2}
    pre.append("        return (%s,)" % prev_pre)
    post.append("        return (%s,)" % prev_post)

    head = ["# AOT ID: ['0_inference']", "import torch", "import triton",
            "import triton.language as tl",
            "from torch._inductor.async_compile import AsyncCompile",
            "from torch._C import _cuda_getCurrentRawStream as get_raw_stream",
            "empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda",
            "async_compile = AsyncCompile()", ""]
    # Each kernel: 15 lines of definition plus its body, 6 lines in call().
    rest = a.lines - len(head) - 6 * kernels - 12
    body = max(4, -(-rest // kernels) - 15)
    code = list(head)
    for k in range(kernels):
        name = "triton_poi_fused_mul_%d" % k
        code += ["", "# kernel path: /tmp/torchinductor_user/bg/c%d.py" % k,
                 "# Topologically Sorted Source Nodes: [%s], Original ATen: [aten.mul]"
                 % ", ".join("x_%d" % (k * PRE_PER_KERNEL + j) for j in range(PRE_PER_KERNEL)),
                 "%s = async_compile.triton('%s', '''" % (name, name),
                 "import triton", "import triton.language as tl",
                 "@triton.jit",
                 "def %s(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):" % name,
                 "    xnumel = 64",
                 "    xoffset = tl.program_id(0) * XBLOCK",
                 "    xindex = xoffset + tl.arange(0, XBLOCK)[:]",
                 "    xmask = xindex < xnumel",
                 "    tmp0 = tl.load(in_ptr0 + (xindex), xmask)"]
        code += ["    tmp0 = tmp0 * 1.01  # step %d" % i for i in range(body)]
        code += ["    tl.store(out_ptr0 + (xindex), tmp0, xmask)", "''', device_str='cuda')"]
    code += ["", "async_compile.wait(globals())", "del async_compile", "",
             "def call(args):", "    arg0_1, = args", "    args.clear()",
             "    buf0 = empty_strided_cuda((64, ), (1, ), torch.float32)"]
    for k in range(kernels):
        name = "triton_poi_fused_mul_%d" % k
        code += ["    # Topologically Sorted Source Nodes: [x_%d], Original ATen: [aten.mul]" % (k * PRE_PER_KERNEL),
                 "    # [Provenance debug handles] %s:%d" % (name, k + 1),
                 "    stream0 = get_raw_stream(0)",
                 "    %s.run(buf0, buf0, 64, stream=stream0)" % name,
                 "    del arg0_1" if k == 0 else "    pass", ""]
    code += ["    return (buf0, )", ""]

    inverse = {}
    for k, vs in pre_to_post.items():
        for v in vs:
            inverse.setdefault(v, []).append(k)
    post_to_kernel = {}
    for k, vs in kernel_to_post.items():
        for v in vs:
            post_to_kernel.setdefault(v, []).append(k)

    log = TraceLog(month_day="0303", hour=3)
    cid = (0, 0, 0)
    log.artifact("before_pre_grad_graph", "\n".join(pre) + "\n\n # graph id: 140000000000001", cid=cid)
    log.artifact("after_post_grad_graph", "\n".join(post) + "\n", cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/torchinductor_user/bg/cbig.py"},
              cid=cid, payload="\n".join(code), path="torch/_inductor/graph.py", lineno=2390)
    log.artifact("triton_kernel_info", json.dumps(info), encoding="json", cid=cid)
    log.artifact("inductor_provenance_tracking_node_mappings", json.dumps(
        {"preToPost": pre_to_post, "postToPre": inverse, "cppCodeToPost": kernel_to_post,
         "postToCppCode": post_to_kernel, "version": 2.0}), encoding="json", cid=cid)
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps(traces),
                 encoding="json", cid=cid)
    with open(a.o, "w") as f:
        f.write(log.text())
    print("%s: %d post-grad nodes, %d pre-grad lines, %d wrapper lines, %d kernels"
          % (a.o, kernels * PER_KERNEL, len(pre), len(code), kernels))


if __name__ == "__main__":
    main()
