#!/usr/bin/env python3
"""Write a TORCH_COMPILE_DEBUG folder of N chained softmax blocks, for the
scaling test of link-scheduler-ir (test/tools/scaling-sched.test).

    make-sched-folder.py N OUT

OUT/torchinductor/model__0_inference_0.0 gets the post-grad graph
(fx_graph_transformed.py), the provenance mapping, the wrapper
(output_code.py) and the scheduler IR after fusion (ir_post_fusion.txt):
block k computes x_{k+1} = softmax(x_k) in one fused kernel of three
scheduler nodes (amax, sum, div; written as Inductor 2.13 writes them), so
every kernel row is split by data flow and every buffer's op is read from
its loop body. The last block's div is the graph's output.
"""
import json
import os
import sys


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    d = os.path.join(out, "torchinductor", "model__0_inference_0.0")
    os.makedirs(d, exist_ok=True)

    def val(k):  # the post-grad node block k reads
        return "arg0_1" if k == 0 else "div_%d" % (k - 1)

    def buf_in(k):  # the buffer block k reads
        return "arg0_1" if k == 0 else "buf%d" % (3 * k - 1)

    fx = ['class <lambda>(torch.nn.Module):',
          '    def forward(self, arg0_1: "f32[4, 32]"):']
    mapping = {"preToPost": {}, "postToPre": {}, "cppCodeToPost": {},
               "postToCppCode": {}}
    for k in range(n):
        x = val(k)
        fx += [
            '        amax_%d: "f32[4, 1]" = torch.ops.aten.amax.default(%s, [1], True)' % (k, x),
            '        sub_%d: "f32[4, 32]" = torch.ops.aten.sub.Tensor(%s, amax_%d)' % (k, x, k),
            '        exp_%d: "f32[4, 32]" = torch.ops.aten.exp.default(sub_%d)' % (k, k),
            '        sum_%d: "f32[4, 1]" = torch.ops.aten.sum.dim_IntList(exp_%d, [1], True)' % (k, k),
            '        div_%d: "f32[4, 32]" = torch.ops.aten.div.Tensor(exp_%d, sum_%d)' % (k, k, k),
        ]
        nodes = ["amax_%d" % k, "sub_%d" % k, "exp_%d" % k, "sum_%d" % k,
                 "div_%d" % k]
        handle = "cpp_fused__softmax_%d:%d" % (k, k + 1)
        mapping["cppCodeToPost"][handle] = nodes
        for p in nodes:
            mapping["postToCppCode"][p] = [handle]
    fx.append('        return (div_%d,)' % (n - 1))
    with open(os.path.join(d, "fx_graph_transformed.py"), "w") as f:
        f.write("\n".join(fx) + "\n")
    with open(os.path.join(d, "inductor_provenance_tracking_node_mappings.json"),
              "w") as f:
        json.dump(mapping, f)

    code = ["# AOT ID: ['0_inference']", "import torch",
            "from torch._inductor.async_compile import AsyncCompile",
            "empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu",
            "async_compile = AsyncCompile()", ""]
    for k in range(n):
        code += [
            "cpp_fused__softmax_%d = async_compile.cpp_pybinding(['const float*', "
            "'float*', 'float*', 'float*'], r'''" % k,
            "#include <torch/csrc/inductor/cpp_prefix.h>",
            'extern "C"  void  kernel(const float* in_ptr0,',
            "                       float* out_ptr0,",
            "                       float* out_ptr1,",
            "                       float* out_ptr2)",
            "{",
            "    out_ptr2[0] = in_ptr0[0] / out_ptr1[0] - out_ptr0[0];",
            "}",
            "''')", ""]
    code += ["async_compile.wait(globals())", "del async_compile", "",
             "def call(args):", "    arg0_1, = args", "    args.clear()"]
    for k in range(n):
        b = 3 * k
        code += [
            "    buf%d = empty_strided_cpu((4, 1), (1, 4), torch.float32)" % b,
            "    buf%d = empty_strided_cpu((4, 1), (1, 4), torch.float32)" % (b + 1),
            "    buf%d = empty_strided_cpu((4, 32), (32, 1), torch.float32)" % (b + 2),
            "    # [Provenance debug handles] cpp_fused__softmax_%d:%d" % (k, k + 1),
            "    cpp_fused__softmax_%d(%s, buf%d, buf%d, buf%d)"
            % (k, buf_in(k), b, b + 1, b + 2),
        ]
    code.append("    return (buf%d, )" % (3 * n - 1))
    with open(os.path.join(d, "output_code.py"), "w") as f:
        f.write("\n".join(code) + "\n")

    def user(op):
        return ("NodeUser(node=SchedulerNode(name='%s'), can_inplace=False, "
                "is_weak=False)" % op)

    output = "NodeUser(node=OUTPUT, can_inplace=False, is_weak=False)"
    ir = []
    for k in range(n):
        o = [3 * k + 1, 3 * k + 2, 3 * k + 3]  # op numbers
        b = [3 * k, 3 * k + 1, 3 * k + 2]      # buffer numbers
        nxt = [user("op%d" % (3 * k + 4)), user("op%d" % (3 * k + 5)),
               user("op%d" % (3 * k + 6))] if k + 1 < n else [output]
        fused = "op%d_op%d_op%d" % tuple(o)
        ins = "MemoryDep('%s', c0, {c0: 128})" % buf_in(k)
        layouts = ["FixedLayout('cpu', torch.float32, size=[4, 1], stride=[1, 4])",
                   "FixedLayout('cpu', torch.float32, size=[4, 1], stride=[1, 4])",
                   "FixedLayout('cpu', torch.float32, size=[4, 32], stride=[32, 1])"]
        users = [[user("op%d" % o[1]), user("op%d" % o[2])],
                 [user("op%d" % o[2])], nxt]
        bodies = [
            ["load = ops.load('%s', get_index)" % buf_in(k),
             "reduction = ops.reduction(torch.float32, torch.float32, 'max', load)",
             "get_index_1 = self.get_index('index1')",
             "store_reduction = ops.store_reduction('buf%d', get_index_1, reduction)" % b[0],
             "return None"],
            ["load = ops.load('%s', get_index)" % buf_in(k),
             "get_index_1 = self.get_index('index1')",
             "load_1 = ops.load('buf%d', get_index_1)" % b[0],
             "sub = ops.sub(load, load_1)", "exp = ops.exp(sub)",
             "reduction = ops.reduction(torch.float32, torch.float32, 'sum', exp)",
             "store_reduction = ops.store_reduction('buf%d', get_index_1, reduction)" % b[1],
             "return None"],
            ["load = ops.load('%s', get_index)" % buf_in(k),
             "get_index_1 = self.get_index('index1')",
             "load_1 = ops.load('buf%d', get_index_1)" % b[0],
             "sub = ops.sub(load, load_1)", "exp = ops.exp(sub)",
             "load_2 = ops.load('buf%d', get_index_1)" % b[1],
             "truediv = ops.truediv(exp, load_2)",
             "store = ops.store('buf%d', get_index, truediv, None)" % b[2],
             "return store"],
        ]
        reads = [[ins], [ins, "MemoryDep('buf%d', c0, {c0: 4})" % b[0]],
                 [ins, "MemoryDep('buf%d', c0, {c0: 4})" % b[0],
                  "MemoryDep('buf%d', c0, {c0: 4})" % b[1]]]
        sizes = ["{c0: 4}", "{c0: 4}", "{c0: 128}"]
        ir += ["%s: FusedSchedulerNode(SchedulerNode,SchedulerNode,SchedulerNode)" % fused,
               "%s.writes = [%s]" % (fused, ", ".join(
                   "MemoryDep('buf%d', c0, %s)" % (b[i], sizes[i]) for i in range(3))),
               "%s.unmet_dependencies = [%s]" % (fused, ins),
               "%s.met_dependencies = []" % fused,
               "%s.outputs = [" % fused]
        for i in range(3):
            ir += ["    buf%d: ComputedBuffer" % b[i],
                   "    buf%d.layout = %s" % (b[i], layouts[i]),
                   "    buf%d.users = [%s]" % (b[i], ", ".join(users[i]))]
        ir.append("]")
        for i in range(3):
            op = "op%d" % o[i]
            ir += ["%s.snodes[%d] =" % (fused, i),
                   "%s: SchedulerNode(ComputedBuffer)" % op,
                   "%s.writes = [MemoryDep('buf%d', c0, %s)]" % (op, b[i], sizes[i]),
                   "%s.unmet_dependencies = [%s]" % (op, ", ".join(reads[i])),
                   "%s.met_dependencies = []" % op,
                   "%s.outputs = [" % op,
                   "    buf%d: ComputedBuffer" % b[i],
                   "    buf%d.layout = %s" % (b[i], layouts[i]),
                   "    buf%d.users = [%s]" % (b[i], ", ".join(users[i])),
                   "]",
                   "%s.group.device = cpu" % op,
                   "%s.group.iteration = ((4,), (32,))" % op,
                   "%s.sizes = ([4], [32])" % op,
                   "class %s_loop_body:" % op,
                   "    var_ranges = {p0: 4, p1: 32}",
                   "    index0 = 32*p0 + p1",
                   "    index1 = p0",
                   "    def body(self, ops):",
                   "        get_index = self.get_index('index0')"]
            ir += ["        " + line for line in bodies[i]]
        ir += ["", ""]
    with open(os.path.join(d, "ir_post_fusion.txt"), "w") as f:
        f.write("\n".join(ir) + "\n")


if __name__ == "__main__":
    main()
