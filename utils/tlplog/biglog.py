"""Big logs for scale tests and benchmarks, made whole at test time
(nothing large is committed). Each writes the same bytes on every run.

  chain_compile(n, fuse)      one compile of n nodes in a chain, fused in
                              kernels of fuse nodes (test/utils/gen-large-log.py)
  wide_compile(post, lines)   one CUDA compile with a wrapper of lines lines,
                              stack traces and kernel info (bench/gen-large-log.py)
  repeat(logs, n, out)        logs repeated n times as distinct compile ids
                              (utils/repeat-log.py)
  hostile(inputs, kind, n, out)  handles.log grown n times one hostile way
                              (test/utils/make-hostile.py)
"""
import json
import os
import re

from .log import TraceLog, clear_md5


def chain_compile(n, fuse):
    """One large compile (test/Emit/dot-large*.test): pre-grad and
    post-grad graphs of \p n computing nodes each (a chain with a side
    input every 7 nodes); every \p fuse consecutive post-grad nodes go
    into one Triton kernel, and a view after each kernel belongs to none.
    The mapping is v2 with debug handles, as PyTorch writes it. Returns
    the log's text."""
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
    return log.text()


MODEL = "/home/user/proj/big_model.py"
PER_KERNEL = 20  # post-grad nodes fused into one kernel
PRE_PER_KERNEL = 4


def wide_compile(post, lines):
    """One large JIT compile on CUDA (the HTML benchmark, the browser
    tests of a large unit): a pre-grad graph, a post-grad graph of \p post
    nodes, a Python wrapper of at least \p lines lines (Triton kernels
    that each fuse 20 post-grad nodes, launched in call() with debug
    handles), a v2 provenance mapping, kernel stack traces and
    triton_kernel_info. Returns (the log's text, post-grad nodes,
    pre-grad lines, wrapper lines, kernels)."""
    kernels = max(1, post // PER_KERNEL)

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
    rest = lines - len(head) - 6 * kernels - 12
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
    return log.text(), kernels * PER_KERNEL, len(pre), len(code), kernels


FRAME = re.compile(rb'"frame_id": (\d+)')


def repeat(logs, n, out):
    """Write the logs \p logs (paths) one after another \p n times into
    \p out, shifting every envelope's "frame_id" in each copy so that
    copies are distinct compile ids. Payload lines are copied byte for
    byte, so their md5s still hold; a log that does not end in a newline
    gets one."""
    data = []
    for p in logs:
        d = open(p, "rb").read()
        data.append(d if d.endswith(b"\n") else d + b"\n")
    ids = [int(m.group(1)) for d in data for m in FRAME.finditer(d)]
    stride = (max(ids) + 1) if ids else 1
    with open(out, "wb") as f:
        for k in range(n):
            for d in data:
                if k == 0:
                    f.write(d)
                    continue
                for line in d.split(b"\n")[:-1]:
                    if not line.startswith(b"\t"):
                        line = FRAME.sub(lambda m: b'"frame_id": %d' % (
                            int(m.group(1)) + k * stride), line, count=1)
                    f.write(line + b"\n")


def hostile(inputs, kind, n, out):
    """Write a large hostile log (test/tools/scaling*.test) made from
    INPUTS/handles.log into \p out. \p kind is one of
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
                l = clear_md5(l)
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
                l = clear_md5(l)
            res.append(l)
    elif kind == "inputs":
        # N nodes, then thirty nodes that each take all N as inputs: what was
        # quadratic is paid thirty times, what is linear barely grows.
        graph = False
        for l in lines:
            if "after_post_grad_graph" in l:
                graph = True
                l = clear_md5(l)
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
