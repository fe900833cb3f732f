#!/usr/bin/env python3
"""Generate the hand-written TORCH_TRACE fixtures of tlp's tests.

    utils/gen-fixtures.py [--check] [OUTDIR]

Every payload below is written by hand from ../shared/docs/FORMAT.md (log
grammar, artifact names, mapping versions, FX text and wrapper shapes); this
script only adds envelopes, tabs and md5s. Broken inputs are broken on
purpose, and say so. Outputs: test/Inputs/*.log, test/Inputs/ranks/ and
examples/*.log. With --check, compare with the committed files instead.
"""
import argparse
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tracelog import TraceLog  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = "/home/user/proj/model.py"

# --------------------------------------------------------------------------
# Shared pieces of the Python wrapper.

PY_HEADER = """# AOT ID: ['{aot_id}']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
{device_imports}
aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p
"""

CUDA_IMPORTS = """import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
"""

PY_FOOTER = """

def benchmark_compiled_module(times=10, repeat=10):
    from torch._dynamo.testing import rand_strided
    from torch._inductor.utils import print_performance
{bench_inputs}
    fn = lambda: call([{bench_args}])
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    compiled_module_main('None', benchmark_compiled_module)
"""


def triton_src(name, signature, body, kind="pointwise", size="{'x': 128}"):
    return ("""{name} = async_compile.triton('{name}', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.{kind}(
    size_hints={size},
    filename=__file__,
    triton_meta={{'signature': {{}}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=108, cc=80, major=8, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, warp_size=32), 'constants': {{}}}},
    inductor_meta={{'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': '{name}', 'mutated_arg_names': [], 'optimize_mem': False, 'no_x_dim': False}},
    min_elem_per_thread=0
)
@triton.jit
def {name}({signature}):
{body}''', device_str='cuda')
""").format(name=name, signature=signature, body=body, kind=kind, size=size)


def cpp_src(name, argtypes, params, body):
    return ("""{name} = async_compile.cpp_pybinding([{argtypes}], '''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void kernel({params})
{{
{body}
}}
''')
""").format(name=name, argtypes=argtypes, params=params, body=body)


def stack_trace(line, code, jit=True):
    """A kernel stack trace string as the kernel_stack_traces JSON holds."""
    if jit:
        return '  File "%s", line %d, in forward\n    %s\n' % (MODEL, line, code)
    return 'File "%s", line %d, in forward\n    %s' % (MODEL, line, code)


def inverse(mapping):
    out = {}
    for k, vs in mapping.items():
        for v in vs:
            out.setdefault(v, [])
            if k not in out[v]:
                out[v].append(k)
    return out


def node_mapping(pre_to_post, kernel_to_post, version=2.0):
    m = {"preToPost": pre_to_post, "postToPre": inverse(pre_to_post),
         "cppCodeToPost": kernel_to_post,
         "postToCppCode": inverse(kernel_to_post)}
    if version is not None:
        m["version"] = version
    return json.dumps(m)


def chromium(log, name, ph, cid, **kw):
    payload = json.dumps({"name": name, "ts": 1755632570490403.5 + log.tick,
                          "args": {"compile_id": "%d/%d" % cid[:2]},
                          "ph": ph, "cat": "dynamo_timed", "tid": 0,
                          "pid": 0}, indent=0)
    log.event("chromium_event", cid=cid, payload=payload,
              path="torch/_dynamo/utils.py", lineno=1946, **kw)


def dynamo_start(log, cid, fn_line, rank=None):
    log.event("dynamo_start", {"stack": [
        {"line": 40, "name": "<module>", "filename": 1, "loc": "main()"},
        {"line": 33, "name": "main", "filename": 1, "loc": "out = model(x, a)"},
        {"line": fn_line, "name": "forward", "filename": 2}]},
        cid=cid, rank=rank, path="torch/_dynamo/convert_frame.py",
        lineno=1059)


def string_table(log, rank=None):
    log.str_entry("torch/_dynamo/convert_frame.py", 0)
    log.str_entry("/home/user/proj/train.py", 1)
    log.str_entry(MODEL, 2)


# --------------------------------------------------------------------------
# jit_cuda_train.log: JIT on CUDA, a training step (forward and backward
# under one compile id), mapping v2 with debug handles, kernel stack traces,
# triton_kernel_info. Handle order is not textual order (the extern call
# comes first in call() but has handle 3).

TRAIN_PRE = """class GraphModule(torch.nn.Module):
    def forward(self, L_self_modules_fc1_parameters_weight_: "f32[16, 10][10, 1]cuda:0", L_self_modules_fc1_parameters_bias_: "f32[16][1]cuda:0", L_x_: "f32[8, 10][10, 1]cuda:0", L_a_: "f32[10, 20][20, 1]cuda:0"):
        l_self_modules_fc1_parameters_weight_ = L_self_modules_fc1_parameters_weight_
        l_self_modules_fc1_parameters_bias_ = L_self_modules_fc1_parameters_bias_
        l_x_ = L_x_
        l_a_ = L_a_
        
         # File: {m}:16 in forward, code: x = self.fc1(x)
        x: "f32[8, 16][16, 1]cuda:0" = torch._C._nn.linear(l_x_, l_self_modules_fc1_parameters_weight_, l_self_modules_fc1_parameters_bias_);  l_x_ = l_self_modules_fc1_parameters_weight_ = l_self_modules_fc1_parameters_bias_ = None
        
         # File: {m}:17 in forward, code: x = self.relu(x)
        x_1: "f32[8, 16][16, 1]cuda:0" = torch.nn.functional.relu(x, inplace = False);  x = None
        
         # File: {m}:18 in forward, code: x = torch.sigmoid(x)
        x_2: "f32[8, 16][16, 1]cuda:0" = torch.sigmoid(x_1);  x_1 = None
        
         # File: {m}:19 in forward, code: d = a * 3.14
        d: "f32[10, 20][20, 1]cuda:0" = l_a_ * 3.14;  l_a_ = None
        return (x_2, d)
        

 # graph id: 140244409021184""".format(m=MODEL)

TRAIN_FW_POST = """class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[16, 10][10, 1]cuda:0", primals_2: "f32[16][1]cuda:0", primals_3: "f32[8, 10][10, 1]cuda:0", primals_4: "f32[10, 20][20, 1]cuda:0"):
         # File: {m}:16 in forward, code: x = self.fc1(x)
        permute: "f32[10, 16][1, 10]cuda:0" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        mm_default: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.mm.default(primals_3, permute);  permute = None
        add_tensor: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.add.Tensor(mm_default, primals_2);  mm_default = primals_2 = None
        
         # File: {m}:17 in forward, code: x = self.relu(x)
        relu: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.relu.default(add_tensor);  add_tensor = None
        
         # File: {m}:18 in forward, code: x = torch.sigmoid(x)
        sigmoid: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.sigmoid.default(relu)
        
         # File: {m}:19 in forward, code: d = a * 3.14
        mul: "f32[10, 20][20, 1]cuda:0" = torch.ops.aten.mul.Tensor(primals_4, 3.14);  primals_4 = None
        
         # File: {m}:17 in forward, code: x = self.relu(x)
        le: "b8[8, 16][16, 1]cuda:0" = torch.ops.aten.le.Scalar(relu, 0);  relu = None
        return (sigmoid, mul, primals_3, sigmoid, le)
        """.format(m=MODEL)

TRAIN_FW_CODE = PY_HEADER.format(aot_id="0_forward", device_imports=CUDA_IMPORTS) + """

# kernel path: /tmp/torchinductor_user/5x/c5xkq4bngw3o2m2hgdrc2acwd3ixmzagfglgsby5bnahcxlrtyi7.py
# Topologically Sorted Source Nodes: [x, x_1, x_2], Original ATen: [aten.addmm, aten.relu, aten.sigmoid, aten.threshold_backward]
# Source node to ATen node mapping:
#   x => add_tensor
#   x_1 => relu
#   x_2 => sigmoid
# Graph fragment:
#   %mm_default : Tensor "f32[8, 16][16, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %primals_2 : Tensor "f32[16][1]cuda:0" = PlaceHolder[target=primals_2]
#   %add_tensor : Tensor "f32[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_default, %primals_2), kwargs = {})
#   %relu : Tensor "f32[8, 16][16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.relu.default](args = (%add_tensor,), kwargs = {})
#   %sigmoid : Tensor "f32[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%relu,), kwargs = {})
#   %le : Tensor "b8[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Scalar](args = (%relu, 0), kwargs = {})
#   return %sigmoid,%le
""" + triton_src("triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0",
                 "in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr",
                 """    xnumel = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % 16)
    tmp0 = tl.load(in_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0, tl.int32)
    tmp4 = triton_helpers.maximum(tmp3, tmp2)
    tmp5 = tl.sigmoid(tmp4)
    tmp6 = 0.0
    tmp7 = tmp4 <= tmp6
    tl.store(out_ptr0 + (x2), tmp5, xmask)
    tl.store(out_ptr1 + (x2), tmp7, xmask)
""") + """

# kernel path: /tmp/torchinductor_user/q2/cq2ffwbyxd2m2o6kibrdyeo3gdaloqlkcmnf6xn2zjkgcnnfbgla.py
# Topologically Sorted Source Nodes: [d], Original ATen: [aten.mul]
# Source node to ATen node mapping:
#   d => mul
# Graph fragment:
#   %primals_4 : Tensor "f32[10, 20][20, 1]cuda:0" = PlaceHolder[target=primals_4]
#   %mul : Tensor "f32[10, 20][20, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%primals_4, 3.14), kwargs = {})
#   return %mul
""" + triton_src("triton_poi_fused_mul_1", "in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr",
                 """    xnumel = 200
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = 3.14
    tmp2 = tmp0 * tmp1
    tl.store(out_ptr0 + (x0), tmp2, xmask)
""", size="{'x': 256}") + """

async_compile.wait(globals())
del async_compile

def call(args):
    primals_1, primals_2, primals_3, primals_4 = args
    args.clear()
    assert_size_stride(primals_1, (16, 10), (10, 1))
    assert_size_stride(primals_2, (16, ), (1, ))
    assert_size_stride(primals_3, (8, 10), (10, 1))
    assert_size_stride(primals_4, (10, 20), (20, 1))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((8, 16), (16, 1), torch.float32)
        # Topologically Sorted Source Nodes: [x], Original ATen: [aten.t, aten.addmm]
        # [Provenance debug handles] extern_kernels.mm:3
        extern_kernels.mm(primals_3, reinterpret_tensor(primals_1, (10, 16), (1, 10), 0), out=buf0)
        del primals_1
        buf1 = empty_strided_cuda((8, 16), (16, 1), torch.float32)
        buf4 = empty_strided_cuda((8, 16), (16, 1), torch.bool)
        # Topologically Sorted Source Nodes: [x, x_1, x_2], Original ATen: [aten.addmm, aten.relu, aten.sigmoid, aten.threshold_backward]
        # [Provenance debug handles] triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0:1
        stream0 = get_raw_stream(0)
        triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0.run(buf0, primals_2, buf1, buf4, 128, stream=stream0)
        del buf0
        del primals_2
        buf2 = empty_strided_cuda((10, 20), (20, 1), torch.float32)
        # Topologically Sorted Source Nodes: [d], Original ATen: [aten.mul]
        # [Provenance debug handles] triton_poi_fused_mul_1:2
        stream0 = get_raw_stream(0)
        triton_poi_fused_mul_1.run(primals_4, buf2, 200, stream=stream0)
        del primals_4
    return (buf1, buf2, primals_3, buf1, buf4, )
""" + PY_FOOTER.format(
    bench_inputs="\n".join(
        "    primals_%d = rand_strided(%s, device='cuda:0', dtype=torch.float32)" % (i, s)
        for i, s in [(1, "(16, 10), (10, 1)"), (2, "(16, ), (1, )"),
                     (3, "(8, 10), (10, 1)"), (4, "(10, 20), (20, 1)")]),
    bench_args="primals_1, primals_2, primals_3, primals_4")

TRAIN_BW_POST = """class GraphModule(torch.nn.Module):
    def forward(self, primals_3: "f32[8, 10][10, 1]cuda:0", sigmoid: "f32[8, 16][16, 1]cuda:0", le: "b8[8, 16][16, 1]cuda:0", tangents_1: "f32[8, 16][16, 1]cuda:0", tangents_2: "f32[10, 20][20, 1]cuda:0"):
         # File: {m}:18 in forward, code: x = torch.sigmoid(x)
        sub: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.sub.Tensor(1, sigmoid)
        mul_1: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.mul.Tensor(sigmoid, sub);  sigmoid = sub = None
        mul_2: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.mul.Tensor(tangents_1, mul_1);  tangents_1 = mul_1 = None
        
         # File: {m}:17 in forward, code: x = self.relu(x)
        full_default: "f32[][]cuda:0" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.where.self(le, full_default, mul_2);  le = full_default = mul_2 = None
        
         # File: {m}:16 in forward, code: x = self.fc1(x)
        permute_1: "f32[16, 8][1, 16]cuda:0" = torch.ops.aten.permute.default(where, [1, 0])
        mm: "f32[16, 10][10, 1]cuda:0" = torch.ops.aten.mm.default(permute_1, primals_3);  permute_1 = primals_3 = None
        sum_1: "f32[1, 16][16, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view: "f32[16][1]cuda:0" = torch.ops.aten.view.default(sum_1, [16]);  sum_1 = None
        
         # File: {m}:19 in forward, code: d = a * 3.14
        mul_3: "f32[10, 20][20, 1]cuda:0" = torch.ops.aten.mul.Tensor(tangents_2, 3.14);  tangents_2 = None
        return (mm, view, None, mul_3)
        """.format(m=MODEL)

TRAIN_BW_CODE = PY_HEADER.format(aot_id="0_backward", device_imports=CUDA_IMPORTS) + """

# kernel path: /tmp/torchinductor_user/hn/chnc6zuxmzbxr5hu2kqtrfdpnvm5d4enqaxpx2ytfspydyqsbn2c.py
# Topologically Sorted Source Nodes: [x_2, x_1], Original ATen: [aten.sigmoid_backward, aten.threshold_backward]
# Source node to ATen node mapping:
#   x_1 => full_default, where
#   x_2 => mul_1, mul_2, sub
# Graph fragment:
#   %tangents_1 : Tensor "f32[8, 16][16, 1]cuda:0" = PlaceHolder[target=tangents_1]
#   %sigmoid : Tensor "f32[8, 16][16, 1]cuda:0" = PlaceHolder[target=sigmoid]
#   %le : Tensor "b8[8, 16][16, 1]cuda:0" = PlaceHolder[target=le]
#   %sub : Tensor "f32[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (1, %sigmoid), kwargs = {})
#   %mul_1 : Tensor "f32[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sigmoid, %sub), kwargs = {})
#   %mul_2 : Tensor "f32[8, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%tangents_1, %mul_1), kwargs = {})
#   %full_default : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[8, 16][16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.where.self](args = (%le, %full_default, %mul_2), kwargs = {})
#   return %where
""" + triton_src("triton_poi_fused_sigmoid_backward_threshold_backward_0",
                 "in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr",
                 """    xnumel = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tl.load(in_ptr2 + (x0), xmask)
    tmp3 = 1.0
    tmp4 = tmp3 - tmp2
    tmp5 = tmp2 * tmp4
    tmp6 = tmp1 * tmp5
    tmp7 = 0.0
    tmp8 = tl.where(tmp0, tmp7, tmp6)
    tl.store(out_ptr0 + (x0), tmp8, xmask)
""") + """

# kernel path: /tmp/torchinductor_user/xp/cxpskb6ofhrsj7qsm6hggmx5qgwbvcqoaeleyskknbqjegxmg6pr.py
# Topologically Sorted Source Nodes: [x], Original ATen: [aten.sum]
# Source node to ATen node mapping:
#   x => sum_1
# Graph fragment:
#   %where : Tensor "f32[8, 16][16, 1]cuda:0" = PlaceHolder[target=where]
#   %sum_1 : Tensor "f32[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%where, [0], True), kwargs = {})
#   return %sum_1
""" + triton_src("triton_per_fused_sum_1", "in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr",
                 """    xnumel = 16
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16*r0_index), xmask, other=0.0)
    tmp3 = tl.sum(tmp0, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp3, xmask)
""", kind="persistent_reduction", size="{'x': 16, 'r0_': 8}") + """

# kernel path: /tmp/torchinductor_user/q2/cq2ffwbyxd2m2o6kibrdyeo3gdaloqlkcmnf6xn2zjkgcnnfbgla.py
# Topologically Sorted Source Nodes: [d], Original ATen: [aten.mul]
# Source node to ATen node mapping:
#   d => mul_3
# Graph fragment:
#   %tangents_2 : Tensor "f32[10, 20][20, 1]cuda:0" = PlaceHolder[target=tangents_2]
#   %mul_3 : Tensor "f32[10, 20][20, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%tangents_2, 3.14), kwargs = {})
#   return %mul_3
""" + triton_src("triton_poi_fused_mul_2", "in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr",
                 """    xnumel = 200
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = 3.14
    tmp2 = tmp0 * tmp1
    tl.store(out_ptr0 + (x0), tmp2, xmask)
""", size="{'x': 256}") + """

async_compile.wait(globals())
del async_compile

def call(args):
    primals_3, sigmoid, le, tangents_1, tangents_2 = args
    args.clear()
    assert_size_stride(primals_3, (8, 10), (10, 1))
    assert_size_stride(sigmoid, (8, 16), (16, 1))
    assert_size_stride(le, (8, 16), (16, 1))
    assert_size_stride(tangents_1, (8, 16), (16, 1))
    assert_size_stride(tangents_2, (10, 20), (20, 1))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((8, 16), (16, 1), torch.float32)
        # Topologically Sorted Source Nodes: [x_2, x_1], Original ATen: [aten.sigmoid_backward, aten.threshold_backward]
        # [Provenance debug handles] triton_poi_fused_sigmoid_backward_threshold_backward_0:4
        stream0 = get_raw_stream(0)
        triton_poi_fused_sigmoid_backward_threshold_backward_0.run(le, tangents_1, sigmoid, buf0, 128, stream=stream0)
        del le
        del sigmoid
        del tangents_1
        buf1 = empty_strided_cuda((16, 10), (10, 1), torch.float32)
        # Topologically Sorted Source Nodes: [x], Original ATen: [aten.mm]
        # [Provenance debug handles] extern_kernels.mm:5
        extern_kernels.mm(reinterpret_tensor(buf0, (16, 8), (1, 16), 0), primals_3, out=buf1)
        del primals_3
        buf2 = empty_strided_cuda((1, 16), (16, 1), torch.float32)
        # Topologically Sorted Source Nodes: [x], Original ATen: [aten.sum]
        # [Provenance debug handles] triton_per_fused_sum_1:6
        stream0 = get_raw_stream(0)
        triton_per_fused_sum_1.run(buf0, buf2, 16, 8, stream=stream0)
        del buf0
        buf3 = empty_strided_cuda((10, 20), (20, 1), torch.float32)
        # Topologically Sorted Source Nodes: [d], Original ATen: [aten.mul]
        # [Provenance debug handles] triton_poi_fused_mul_2:7
        stream0 = get_raw_stream(0)
        triton_poi_fused_mul_2.run(tangents_2, buf3, 200, stream=stream0)
        del tangents_2
    return (buf1, reinterpret_tensor(buf2, (16, ), (1, ), 0), None, buf3, )
""" + PY_FOOTER.format(
    bench_inputs="    primals_3 = rand_strided((8, 10), (10, 1), device='cuda:0', dtype=torch.float32)",
    bench_args="primals_3, sigmoid, le, tangents_1, tangents_2")


def gen_jit_cuda_train():
    log = TraceLog(month_day="0819", hour=12)
    cid = (0, 0, 0)
    string_table(log)
    dynamo_start(log, cid, 15)
    chromium(log, "dynamo", "B", cid)
    log.event("describe_storage", {"id": 0, "describer_id": 0, "size": 640},
              cid=cid, path="torch/_subclasses/meta_utils.py", lineno=270)
    log.event("dynamo_output_graph", {"sizes": {"l_x_": [8, 10], "x": [8, 16]}},
              cid=cid, payload=TRAIN_PRE.split("\n\n # graph id")[0],
              path="torch/_dynamo/output_graph.py", lineno=1752)
    log.artifact("before_pre_grad_graph", TRAIN_PRE, cid=cid, lineno=2223)
    log.artifact("after_pre_grad_graph", TRAIN_PRE, cid=cid, lineno=2254)
    log.artifact("aotautograd_cache_bypass", json.dumps(
        {"cache_bypass_reason": "provenance tracking"}), encoding="json",
        cid=cid, path="torch/_functorch/_aot_autograd/autograd_cache.py",
        lineno=1268)
    log.event("aot_forward_graph", cid=cid, payload=TRAIN_FW_POST,
              path="torch/_functorch/_aot_autograd/graph_compile.py",
              lineno=1633)
    log.event("aot_backward_graph", cid=cid, payload=TRAIN_BW_POST,
              path="torch/_functorch/_aot_autograd/graph_compile.py",
              lineno=1637)
    # Forward Inductor compile.
    log.artifact("before_post_grad_graph", TRAIN_FW_POST, cid=cid, lineno=1279)
    log.artifact("after_post_grad_graph", TRAIN_FW_POST, cid=cid, lineno=1317)
    chromium(log, "GraphLowering.run", "B", cid)
    log.event("inductor_output_code", {
        "filename": "/tmp/torchinductor_user/lr/clrftghodm4tm4zqkq3os2ku43gh6fxhq2gvsumm3gyvlongh3ut.py"},
        cid=cid, payload=TRAIN_FW_CODE, path="torch/_inductor/graph.py",
        lineno=2390)
    log.artifact("triton_kernel_info", json.dumps({
        "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0": {
            "autotune_cache_state": "only 1 config",
            "only_config": [["XBLOCK", 128], ["num_warps", 4], ["num_stages", 1]],
            "compile_time_us": 124070},
        "triton_poi_fused_mul_1": {"autotune_cache_state": "miss",
                                   "num_configs": 2,
                                   "compile_time_us": 159751}}),
        encoding="json", cid=cid, path="torch/_inductor/async_compile.py",
        lineno=117)
    fw_pre = {"x": ["permute", "mm_default", "add_tensor"], "x_1": ["relu"],
              "x_2": ["sigmoid"], "d": ["mul"]}
    fw_k = {"triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0:1":
            ["sigmoid", "relu", "add_tensor", "le"],
            "triton_poi_fused_mul_1:2": ["mul"],
            "extern_kernels.mm:3": ["mm_default"]}
    log.artifact("inductor_provenance_tracking_node_mappings",
                 node_mapping(fw_pre, fw_k), encoding="json", cid=cid,
                 lineno=1063)
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps({
        "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0:1": [
            stack_trace(18, "x = torch.sigmoid(x)"),
            stack_trace(17, "x = self.relu(x)"),
            stack_trace(16, "x = self.fc1(x)")],
        "triton_poi_fused_mul_1:2": [stack_trace(19, "d = a * 3.14")],
        "extern_kernels.mm:3": [stack_trace(16, "x = self.fc1(x)")]}),
        encoding="json", cid=cid, lineno=1073)
    # Backward Inductor compile: same compile id, later in the log.
    log.artifact("before_post_grad_graph", TRAIN_BW_POST, cid=cid, lineno=1279)
    log.artifact("after_post_grad_graph", TRAIN_BW_POST, cid=cid, lineno=1317)
    log.event("inductor_output_code", {
        "filename": "/tmp/torchinductor_user/7b/c7bqz3wfv6hh4u6pmtm4axcvzkxvwppskfkoufkyzpoc3lodqbvh.py"},
        cid=cid, payload=TRAIN_BW_CODE, path="torch/_inductor/graph.py",
        lineno=2390)
    bw_pre = {"x_2": ["sub", "mul_1", "mul_2"], "x_1": ["full_default", "where"],
              "x": ["permute_1", "mm", "sum_1", "view"], "d": ["mul_3"]}
    bw_k = {"triton_poi_fused_sigmoid_backward_threshold_backward_0:4":
            ["where", "mul_2", "mul_1", "sub", "full_default"],
            "extern_kernels.mm:5": ["mm"],
            "triton_per_fused_sum_1:6": ["sum_1"],
            "triton_poi_fused_mul_2:7": ["mul_3"]}
    log.artifact("inductor_provenance_tracking_node_mappings",
                 node_mapping(bw_pre, bw_k), encoding="json", cid=cid,
                 lineno=1063)
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps({
        "triton_poi_fused_sigmoid_backward_threshold_backward_0:4": [
            stack_trace(18, "x = torch.sigmoid(x)"),
            stack_trace(17, "x = self.relu(x)")],
        "extern_kernels.mm:5": [stack_trace(16, "x = self.fc1(x)")],
        "triton_per_fused_sum_1:6": [stack_trace(16, "x = self.fc1(x)")],
        "triton_poi_fused_mul_2:7": [stack_trace(19, "d = a * 3.14")]}),
        encoding="json", cid=cid, lineno=1073)
    chromium(log, "dynamo", "E", cid)
    log.event("compilation_metrics", {"compile_id": "0/0", "co_name": "forward",
                                      "co_filename": MODEL,
                                      "co_firstlineno": 15},
              cid=cid, path="torch/_dynamo/utils.py", lineno=1641)
    return log.text()



# --------------------------------------------------------------------------
# jit_cpu_v1.log: JIT on CPU (May 2025 shapes): mapping v1 (no "version",
# bare kernel names), one extern key merged across two calls, C++ kernels
# called without comments, the older separate artifacts
# inductor_post_to_pre_grad_nodes / inductor_triton_kernel_to_post_grad_nodes,
# and two compile ids: 0/0 and, after a graph break and one restart, 1/0_1.

CPU_PRE_0 = """class GraphModule(torch.nn.Module):
    def forward(self, L_self_modules_fc1_parameters_weight_: "f32[16, 10][10, 1]cpu", L_self_modules_fc1_parameters_bias_: "f32[16][1]cpu", L_x_: "f32[8, 10][10, 1]cpu", L_a_: "f32[10, 20][20, 1]cpu", L_b_: "f32[20, 30][30, 1]cpu", L_c_: "f32[10, 30][30, 1]cpu"):
        l_self_modules_fc1_parameters_weight_ = L_self_modules_fc1_parameters_weight_
        l_self_modules_fc1_parameters_bias_ = L_self_modules_fc1_parameters_bias_
        l_x_ = L_x_
        l_a_ = L_a_
        l_b_ = L_b_
        l_c_ = L_c_
        
         # File: {m}:21 in forward, code: x = self.fc1(x)
        x: "f32[8, 16][16, 1]cpu" = torch._C._nn.linear(l_x_, l_self_modules_fc1_parameters_weight_, l_self_modules_fc1_parameters_bias_);  l_x_ = l_self_modules_fc1_parameters_weight_ = l_self_modules_fc1_parameters_bias_ = None
        
         # File: {m}:22 in forward, code: x = self.relu(x)
        x_1: "f32[8, 16][16, 1]cpu" = torch.nn.functional.relu(x, inplace = False);  x = None
        
         # File: {m}:23 in forward, code: x = torch.sigmoid(x)
        x_2: "f32[8, 16][16, 1]cpu" = torch.sigmoid(x_1);  x_1 = None
        
         # File: {m}:24 in forward, code: d = a * 3.14
        d: "f32[10, 20][20, 1]cpu" = l_a_ * 3.14;  l_a_ = None
        
         # File: {m}:25 in forward, code: y = torch.addmm(c, d, b)
        y: "f32[10, 30][30, 1]cpu" = torch.addmm(l_c_, d, l_b_);  l_c_ = d = l_b_ = None
        return (x_2, y)
        

 # graph id: 140502189412416""".format(m=MODEL)

CPU_POST_0 = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 10][10, 1]cpu", arg1_1: "f32[16][1]cpu", arg2_1: "f32[8, 10][10, 1]cpu", arg3_1: "f32[10, 20][20, 1]cpu", arg4_1: "f32[20, 30][30, 1]cpu", arg5_1: "f32[10, 30][30, 1]cpu"):
         # File: {m}:21 in forward, code: x = self.fc1(x)
        permute: "f32[10, 16][1, 10]cpu" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm: "f32[8, 16][16, 1]cpu" = torch.ops.aten.addmm.default(arg1_1, arg2_1, permute);  arg1_1 = arg2_1 = permute = None
        
         # File: {m}:22 in forward, code: x = self.relu(x)
        relu: "f32[8, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm);  addmm = None
        
         # File: {m}:23 in forward, code: x = torch.sigmoid(x)
        sigmoid: "f32[8, 16][16, 1]cpu" = torch.ops.aten.sigmoid.default(relu);  relu = None
        
         # File: {m}:24 in forward, code: d = a * 3.14
        mul: "f32[10, 20][20, 1]cpu" = torch.ops.aten.mul.Tensor(arg3_1, 3.14);  arg3_1 = None
        
         # File: {m}:25 in forward, code: y = torch.addmm(c, d, b)
        addmm_1: "f32[10, 30][30, 1]cpu" = torch.ops.aten.addmm.default(arg5_1, mul, arg4_1);  arg5_1 = mul = arg4_1 = None
        return (sigmoid, addmm_1)
        """.format(m=MODEL)

CPU_CODE_0 = PY_HEADER.format(aot_id="0_inference", device_imports="") + """

""" + cpp_src("cpp_fused_mul_relu_sigmoid_0", "'float*', 'const float*', 'float*'",
              """float* in_out_ptr0,
                       const float* in_ptr0,
                       float* out_ptr0""",
              """    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(128LL); x0+=static_cast<int64_t>(16LL))
        {
            auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
            auto tmp1 = at::vec::clamp_min(tmp0, decltype(tmp0)(0));
            auto tmp2 = tmp1.sigmoid();
            tmp2.store(in_out_ptr0 + static_cast<int64_t>(x0));
        }
    }
    {
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(200LL); x0+=static_cast<int64_t>(16LL))
        {
            auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
            auto tmp1 = static_cast<float>(3.14);
            auto tmp2 = tmp0 * at::vec::Vectorized<float>(tmp1);
            tmp2.store(out_ptr0 + static_cast<int64_t>(x0));
        }
    }""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1 = args
    args.clear()
    assert_size_stride(arg0_1, (16, 10), (10, 1))
    assert_size_stride(arg1_1, (16, ), (1, ))
    assert_size_stride(arg2_1, (8, 10), (10, 1))
    assert_size_stride(arg3_1, (10, 20), (20, 1))
    assert_size_stride(arg4_1, (20, 30), (30, 1))
    assert_size_stride(arg5_1, (10, 30), (30, 1))
    buf0 = empty_strided_cpu((8, 16), (16, 1), torch.float32)
    # Topologically Sorted Source Nodes: [x], Original ATen: [aten.addmm]
    extern_kernels.addmm(arg1_1, arg2_1, reinterpret_tensor(arg0_1, (10, 16), (1, 10), 0), alpha=1, beta=1, out=buf0)
    del arg0_1
    del arg1_1
    del arg2_1
    buf1 = buf0; del buf0  # reuse
    buf2 = empty_strided_cpu((10, 20), (20, 1), torch.float32)
    cpp_fused_mul_relu_sigmoid_0(buf1, arg3_1, buf2)
    del arg3_1
    buf3 = empty_strided_cpu((10, 30), (30, 1), torch.float32)
    # Topologically Sorted Source Nodes: [d, y], Original ATen: [aten.mul, aten.addmm]
    extern_kernels.addmm(arg5_1, buf2, arg4_1, alpha=1, beta=1, out=buf3)
    del arg4_1
    del arg5_1
    del buf2
    return (buf1, buf3, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((16, 10), (10, 1), device='cpu', dtype=torch.float32)",
    bench_args="arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1")

CPU_PRE_1 = """class GraphModule(torch.nn.Module):
    def forward(self, L_y_: "f32[10, 30][30, 1]cpu"):
        l_y_ = L_y_
        
         # File: {m}:27 in torch_dynamo_resume_in_forward_at_26, code: z = torch.nn.functional.gelu(y)
        z: "f32[10, 30][30, 1]cpu" = torch._C._nn.gelu(l_y_);  l_y_ = None
        return (z,)
        

 # graph id: 140502189413872""".format(m=MODEL)

CPU_POST_1 = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[10, 30][30, 1]cpu"):
         # File: {m}:27 in torch_dynamo_resume_in_forward_at_26, code: z = torch.nn.functional.gelu(y)
        mul: "f32[10, 30][30, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 0.5)
        mul_1: "f32[10, 30][30, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 0.7071067811865476);  arg0_1 = None
        erf: "f32[10, 30][30, 1]cpu" = torch.ops.aten.erf.default(mul_1);  mul_1 = None
        add: "f32[10, 30][30, 1]cpu" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_2: "f32[10, 30][30, 1]cpu" = torch.ops.aten.mul.Tensor(mul, add);  mul = add = None
        return (mul_2,)
        """.format(m=MODEL)

CPU_CODE_1 = PY_HEADER.format(aot_id="1_inference", device_imports="") + """

""" + cpp_src("cpp_fused_gelu_0", "'float*'", "float* in_out_ptr0",
              """    {
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(300LL); x0+=static_cast<int64_t>(16LL))
        {
            auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
            auto tmp1 = static_cast<float>(0.5);
            auto tmp2 = tmp0 * at::vec::Vectorized<float>(tmp1);
            auto tmp3 = static_cast<float>(0.7071067811865476);
            auto tmp4 = tmp0 * at::vec::Vectorized<float>(tmp3);
            auto tmp5 = tmp4.erf();
            auto tmp6 = tmp5 + at::vec::Vectorized<float>(1.0);
            auto tmp7 = tmp2 * tmp6;
            tmp7.store(in_out_ptr0 + static_cast<int64_t>(x0));
        }
    }""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (10, 30), (30, 1))
    buf0 = arg0_1; del arg0_1  # reuse
    cpp_fused_gelu_0(buf0)
    return (buf0, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((10, 30), (30, 1), device='cpu', dtype=torch.float32)",
    bench_args="arg0_1")


def node_source(name, target, graph_id):
    return {"name": name, "target": target, "graph_id": graph_id,
            "pass_name": "Interpreter_PropagateUnbackedSymInts",
            "action": "create", "from_node": []}


def gen_jit_cpu_v1():
    log = TraceLog(month_day="0521", hour=11)
    string_table(log)
    cid = (0, 0, 0)
    dynamo_start(log, cid, 20)
    log.artifact("before_pre_grad_graph", CPU_PRE_0, cid=cid, lineno=2045)
    log.artifact("after_pre_grad_graph", CPU_PRE_0, cid=cid, lineno=2069)
    log.event("aot_inference_graph", cid=cid, payload=CPU_POST_0,
              path="torch/_functorch/_aot_autograd/dispatch_and_compile_graph.py",
              lineno=232)
    log.artifact("before_post_grad_graph", CPU_POST_0, cid=cid, lineno=1158)
    log.artifact("after_post_grad_graph", CPU_POST_0, cid=cid, lineno=1194)
    gid = 140502189412416
    tree = {"permute": [node_source("x", "<built-in function linear>", gid)],
            "addmm": [node_source("x", "<built-in function linear>", gid)],
            "relu": [node_source("x_1", "<function relu at 0x7fc94d140a40>", gid)],
            "sigmoid": [node_source("x_2", "<built-in method sigmoid>", gid)],
            "mul": [node_source("d", "<built-in function mul>", gid)],
            # A NodeSource of another graph, and a sentinel: neither counts.
            "addmm_1": [node_source("y", "<built-in method addmm>", gid),
                        {"name": "y_0", "target": "", "graph_id": 12345,
                         "pass_name": "", "action": "replace",
                         "from_node": [{"name": "", "target": "",
                                        "graph_id": -1, "pass_name": "",
                                        "action": "create", "from_node": []}]}]}
    log.artifact("inductor_post_to_pre_grad_nodes", json.dumps(tree),
                 encoding="json", cid=cid, lineno=1206)
    log.event("inductor_output_code", {"filename": "/var/tmp/torchinductor_user/el/celvaalwlz2ulme27hh3jttevphbo7cueohqpbbvxp4oigd66bqb.py"},
              cid=cid, payload=CPU_CODE_0, path="torch/_inductor/graph.py",
              lineno=2347)
    log.artifact("fx_graph_cache_miss", json.dumps({"key": "fjq4", "cache_state": "miss"}),
                 encoding="json", cid=cid, lineno=947)
    k2p = {"cpp_fused_mul_relu_sigmoid_0": ["sigmoid", "relu", "mul"],
           "extern_kernels.addmm": ["addmm", "addmm_1", "mul"]}
    log.artifact("inductor_triton_kernel_to_post_grad_nodes", json.dumps(k2p),
                 encoding="json", cid=cid, lineno=967)
    pre = {"x": ["permute", "addmm"], "x_1": ["relu"], "x_2": ["sigmoid"],
           "d": ["mul"], "y": ["addmm_1"]}
    log.artifact("inductor_provenance_tracking_node_mappings",
                 node_mapping(pre, k2p, version=None), encoding="json",
                 cid=cid, lineno=975)
    log.event("compilation_metrics", {"compile_id": "0/0"}, cid=cid,
              path="torch/_dynamo/utils.py", lineno=1565)
    # The resumed frame after the graph break: attempt 0 restarts, attempt 1
    # compiles.
    dynamo_start(log, (1, 0, 0), 26)
    log.artifact("restart_reasons", json.dumps(["graph break in inlined call"]),
                 encoding="json", cid=(1, 0, 0), lineno=900)
    cid = (1, 0, 1)
    dynamo_start(log, cid, 26)
    log.artifact("before_pre_grad_graph", CPU_PRE_1, cid=cid, lineno=2045)
    log.event("aot_inference_graph", cid=cid, payload=CPU_POST_1,
              path="torch/_functorch/_aot_autograd/dispatch_and_compile_graph.py",
              lineno=232)
    log.artifact("after_post_grad_graph", CPU_POST_1, cid=cid, lineno=1194)
    log.event("inductor_output_code", {"filename": "/var/tmp/torchinductor_user/ab/cab.py"},
              cid=cid, payload=CPU_CODE_1, path="torch/_inductor/graph.py",
              lineno=2347)
    log.artifact("inductor_provenance_tracking_node_mappings",
                 node_mapping({"z": ["mul", "mul_1", "erf", "add", "mul_2"]},
                              {"cpp_fused_gelu_0": ["mul_2", "mul", "add", "erf", "mul_1"]},
                              version=None),
                 encoding="json", cid=cid, lineno=975)
    log.event("compilation_metrics", {"compile_id": "1/0_1"}, cid=cid,
              path="torch/_dynamo/utils.py", lineno=1565)
    return log.text()


# --------------------------------------------------------------------------
# aot_cpu.log: AOTInductor on CPU. No compile id anywhere (envelopes carry
# "stack" with interned file names), export-style pre-grad names, a pytree
# post-grad signature, the C++ wrapper and kernel file as graph_dump events
# after the graphs, mapping v1 with an extern key merged across two calls.

AOT_PRE = """class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[8, 10][10, 1]cpu", a: "f32[10, 20][20, 1]cpu", b: "f32[20, 30][30, 1]cpu", c: "f32[10, 30][30, 1]cpu"):
        # No stacktrace found for following nodes
        fc1_weight: "f32[16, 10][10, 1]cpu" = self.fc1.weight
        fc1_bias: "f32[16][1]cpu" = self.fc1.bias
        
         # File: /opt/torch/nn/modules/linear.py:125 in forward, code: return F.linear(input, self.weight, self.bias)
        linear: "f32[8, 16][16, 1]cpu" = torch.ops.aten.linear.default(x, fc1_weight, fc1_bias);  x = fc1_weight = fc1_bias = None
        
         # File: /opt/torch/nn/modules/activation.py:135 in forward, code: return F.relu(input, inplace=self.inplace)
        relu: "f32[8, 16][16, 1]cpu" = torch.ops.aten.relu.default(linear);  linear = None
        
         # File: /opt/torch/nn/modules/activation.py:329 in forward, code: return torch.sigmoid(input)
        sigmoid: "f32[8, 16][16, 1]cpu" = torch.ops.aten.sigmoid.default(relu);  relu = None
        
         # File: {m}:24 in forward, code: d = a * 3.14
        mul: "f32[10, 20][20, 1]cpu" = torch.ops.aten.mul.Tensor(a, 3.14);  a = None
        
         # File: {m}:25 in forward, code: y = torch.addmm(c, d, b)
        addmm: "f32[10, 30][30, 1]cpu" = torch.ops.aten.addmm.default(c, mul, b);  c = mul = b = None
        
         # File: {m}:27 in forward, code: z = torch.nn.functional.gelu(y)
        gelu: "f32[10, 30][30, 1]cpu" = torch.ops.aten.gelu.default(addmm);  addmm = None
        return (sigmoid, gelu)
        

 # graph id: 139705807944448""".format(m=MODEL)

AOT_POST = """class <lambda>(torch.nn.Module):
    def forward(self):
        arg2_1: "f32[8, 10][10, 1]cpu"; arg3_1: "f32[10, 20][20, 1]cpu"; arg4_1: "f32[20, 30][30, 1]cpu"; arg5_1: "f32[10, 30][30, 1]cpu"; 
    
        arg2_1, arg3_1, arg4_1, arg5_1, = fx_pytree.tree_flatten_spec([], self._in_spec)
        # No stacktrace found for following nodes
        fc1_weight: "f32[16, 10][10, 1]cpu" = self.fc1.weight
        fc1_bias: "f32[16][1]cpu" = self.fc1.bias
        
         # File: /opt/torch/nn/modules/linear.py:125 in forward, code: return F.linear(input, self.weight, self.bias)
        permute: "f32[10, 16][1, 10]cpu" = torch.ops.aten.permute.default(fc1_weight, [1, 0]);  fc1_weight = None
        addmm: "f32[8, 16][16, 1]cpu" = torch.ops.aten.addmm.default(fc1_bias, arg2_1, permute);  fc1_bias = arg2_1 = permute = None
        
         # File: /opt/torch/nn/modules/activation.py:135 in forward, code: return F.relu(input, inplace=self.inplace)
        relu: "f32[8, 16][16, 1]cpu" = torch.ops.aten.relu.default(addmm);  addmm = None
        
         # File: /opt/torch/nn/modules/activation.py:329 in forward, code: return torch.sigmoid(input)
        sigmoid: "f32[8, 16][16, 1]cpu" = torch.ops.aten.sigmoid.default(relu);  relu = None
        
         # File: {m}:24 in forward, code: d = a * 3.14
        mul: "f32[10, 20][20, 1]cpu" = torch.ops.aten.mul.Tensor(arg3_1, 3.14);  arg3_1 = None
        
         # File: {m}:25 in forward, code: y = torch.addmm(c, d, b)
        addmm_1: "f32[10, 30][30, 1]cpu" = torch.ops.aten.addmm.default(arg5_1, mul, arg4_1);  arg5_1 = mul = arg4_1 = None
        
         # File: {m}:27 in forward, code: z = torch.nn.functional.gelu(y)
        mul_1: "f32[10, 30][30, 1]cpu" = torch.ops.aten.mul.Tensor(addmm_1, 0.5)
        mul_2: "f32[10, 30][30, 1]cpu" = torch.ops.aten.mul.Tensor(addmm_1, 0.7071067811865476);  addmm_1 = None
        erf: "f32[10, 30][30, 1]cpu" = torch.ops.aten.erf.default(mul_2);  mul_2 = None
        add: "f32[10, 30][30, 1]cpu" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_3: "f32[10, 30][30, 1]cpu" = torch.ops.aten.mul.Tensor(mul_1, add);  mul_1 = add = None
        return (sigmoid, mul_3)
        """.format(m=MODEL)

AOT_CPU_WRAPPER = """
#include <torch/csrc/inductor/aoti_include/cpu.h>
// Definition of AOTI runtime interface functions

#include <torch/csrc/inductor/aoti_runtime/interface.h>
#include <torch/csrc/inductor/aoti_runtime/model_container.h>

#include <iostream>
#include <vector>

extern "C" {

AOTIRuntimeError AOTInductorModelContainerRun(
    AOTInductorModelContainerHandle container_handle,
    AtenTensorHandle* input_handles,
    size_t num_inputs,
    AtenTensorHandle* output_handles,
    size_t num_outputs,
    AOTInductorStreamHandle stream_handle,
    AOTIProxyExecutorHandle proxy_executor_handle) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    container->run(input_handles, output_handles, stream_handle, proxy_executor_handle);
  })
}

AOTIRuntimeError AOTInductorModelRun(
    AOTInductorModelHandle model_handle,
    AtenTensorHandle* input_handles,
    AtenTensorHandle* output_handles) {
  auto model = reinterpret_cast<torch::aot_inductor::AOTInductorModel*>(model_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    model->run_impl(
        input_handles,
        output_handles,
        (torch::aot_inductor::DeviceStreamType) nullptr,
        nullptr);
  })
}

} // extern "C"

extern "C"  void cpp_fused_mul_relu_sigmoid_0(float* in_out_ptr0,
                       const float* in_ptr0,
                       float* out_ptr0);
extern "C"  void cpp_fused_gelu_1(float* in_out_ptr0);
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DEVICE(cpu);
CACHE_TORCH_LAYOUT(strided);
namespace torch::aot_inductor {
namespace {
class AOTInductorModelKernels : public AOTInductorModelKernelsBase {
  public:
};
}  // namespace

AOTInductorModel::AOTInductorModel(std::shared_ptr<ConstantMap> constants_map,
                                   std::shared_ptr<std::vector<ConstantHandle>> constants_array,
                                   const std::string& device_str,
                                   std::optional<std::string> cubin_dir)
    : AOTInductorModelBase(4, 2, 2, device_str, std::move(cubin_dir), true) {
    inputs_info_[0].name = "arg2_1";
    constants_info_[0].name = "fc1_weight";
    outputs_info_[0].name = "output0";
    this->kernels_ = std::make_unique<AOTInductorModelKernels>();
}

std::unordered_map<std::string, AtenTensorHandle> AOTInductorModel::const_run_impl(
    DeviceStreamType stream,
    AOTIProxyExecutorHandle proxy_executor,
    bool initialization
) {
    return {};
}

void AOTInductorModel::_const_run_impl(
    std::vector<AtenTensorHandle>& output_handles,
    DeviceStreamType stream,
    AOTIProxyExecutorHandle proxy_executor
) {}

void AOTInductorModel::run_impl(
    AtenTensorHandle*
        input_handles, // array of input AtenTensorHandle; handles
                        // are stolen; the array itself is borrowed
    AtenTensorHandle*
        output_handles, // array for writing output AtenTensorHandle; handles
                        // will be stolen by the caller; the array itself is
                        // borrowed
    DeviceStreamType stream,
    AOTIProxyExecutorHandle proxy_executor
) {
    __check_inputs_outputs(input_handles, output_handles);

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 4);
    auto arg2_1 = std::move(inputs[0]);
    auto arg3_1 = std::move(inputs[1]);
    auto arg4_1 = std::move(inputs[2]);
    auto arg5_1 = std::move(inputs[3]);
    [[maybe_unused]] auto fc1_weight = constants_->at(0);
    [[maybe_unused]] auto fc1_bias = constants_->at(1);
    inputs.clear();
    [[maybe_unused]] auto& kernels = static_cast<AOTInductorModelKernels&>(*this->kernels_.get());
    static constexpr int64_t int_array_0[] = {8L, 16L};
    static constexpr int64_t int_array_1[] = {16L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cpu, this->device_idx_, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // Topologically Sorted Source Nodes: [linear], Original ATen: [aten.addmm]
    static constexpr int64_t int_array_2[] = {10L, 16L};
    static constexpr int64_t int_array_3[] = {1L, 10L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_addmm_out(buf0, fc1_bias, arg2_1, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(fc1_weight, 2, int_array_2, int_array_3, 0L)), 1L, 1L));
    arg2_1.reset();
    auto buf1 = std::move(buf0);  // reuse
    static constexpr int64_t int_array_4[] = {10L, 20L};
    static constexpr int64_t int_array_5[] = {20L, 1L};
    AtenTensorHandle buf2_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cpu, this->device_idx_, &buf2_handle));
    RAIIAtenTensorHandle buf2(buf2_handle);
    cpp_fused_mul_relu_sigmoid_0((float*)(buf1.data_ptr()), (const float*)(arg3_1.data_ptr()), (float*)(buf2.data_ptr()));
    arg3_1.reset();
    static constexpr int64_t int_array_6[] = {10L, 30L};
    static constexpr int64_t int_array_7[] = {30L, 1L};
    AtenTensorHandle buf3_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cpu, this->device_idx_, &buf3_handle));
    RAIIAtenTensorHandle buf3(buf3_handle);
    // Topologically Sorted Source Nodes: [mul, addmm], Original ATen: [aten.mul, aten.addmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_addmm_out(buf3, arg5_1, buf2, arg4_1, 1L, 1L));
    arg4_1.reset();
    arg5_1.reset();
    buf2.reset();
    auto buf4 = std::move(buf3);  // reuse
    cpp_fused_gelu_1((float*)(buf4.data_ptr()));
    output_handles[0] = buf1.release();
    output_handles[1] = buf4.release();
} // AOTInductorModel::run_impl
} // namespace torch::aot_inductor


"""

AOT_CPU_KERNELS = """
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void cpp_fused_mul_relu_sigmoid_0(float* in_out_ptr0,
                       const float* in_ptr0,
                       float* out_ptr0)
{
    {
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(128LL); x0+=static_cast<int64_t>(16LL))
        {
            auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
            auto tmp1 = at::vec::clamp_min(tmp0, decltype(tmp0)(0));
            auto tmp2 = tmp1.sigmoid();
            tmp2.store(in_out_ptr0 + static_cast<int64_t>(x0));
        }
    }
    {
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(200LL); x0+=static_cast<int64_t>(16LL))
        {
            auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
            auto tmp2 = tmp0 * at::vec::Vectorized<float>(static_cast<float>(3.14));
            tmp2.store(out_ptr0 + static_cast<int64_t>(x0));
        }
    }
}

#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void cpp_fused_gelu_1(float* in_out_ptr0)
{
    {
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(300LL); x0+=static_cast<int64_t>(16LL))
        {
            auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
            auto tmp7 = tmp0 * at::vec::Vectorized<float>(0.5) * ((tmp0 * at::vec::Vectorized<float>(0.7071067811865476)).erf() + at::vec::Vectorized<float>(1.0));
            tmp7.store(in_out_ptr0 + static_cast<int64_t>(x0));
        }
    }
}
"""

AOT_STACK = [{"line": 40, "name": "<module>", "filename": 0, "loc": "main()"},
             {"line": 35, "name": "main", "filename": 0,
              "loc": "package_path = torch._inductor.aoti_compile_and_package(ep)"},
             {"line": 1745, "name": "compile_fx_aot", "filename": 1,
              "loc": "compiled_artifacts = compile_fx("}]

AOT_PRE_TO_POST = {"linear": ["permute", "addmm"], "relu": ["relu"],
                   "sigmoid": ["sigmoid"], "mul": ["mul"], "addmm": ["addmm_1"],
                   "gelu": ["mul_1", "mul_2", "erf", "add", "mul_3"]}


def aot_strings(log):
    log.str_entry("/home/user/proj/export_aot.py", 0)
    log.str_entry("torch/_inductor/compile_fx.py", 1)


def gen_aot_cpu():
    log = TraceLog(month_day="0521", hour=11)
    aot_strings(log)
    st = AOT_STACK
    log.artifact("before_pre_grad_graph", AOT_PRE, stack=st, lineno=2045)
    log.event("chromium_event", stack=None, payload=json.dumps(
        {"name": "_recursive_pre_grad_passes", "ts": 1747851702519642.8,
         "args": {"compile_id": "None"}, "ph": "B", "cat": "dynamo_timed",
         "tid": 0, "pid": 0}, indent=0), path="torch/_dynamo/utils.py",
        lineno=1864)
    log.artifact("after_pre_grad_graph", AOT_PRE, stack=st, lineno=2069)
    log.event("aot_inference_graph", stack=st, payload=AOT_POST,
              path="torch/_functorch/_aot_autograd/dispatch_and_compile_graph.py",
              lineno=232)
    log.artifact("after_post_grad_graph", AOT_POST, stack=st, lineno=1194)
    log.event("graph_dump", {"name": "inductor_aot_wrapper_code", "type": "cpp",
                             "filename": "/var/tmp/torchinductor_user/cwhk/cgg4.wrapper.cpp"},
              stack=st, payload=AOT_CPU_WRAPPER, path="torch/_inductor/codecache.py",
              lineno=1650)
    log.event("graph_dump", {"name": "inductor_aot_kernel_code", "type": "cpp",
                             "filename": "/var/tmp/torchinductor_user/cwhk/cxrn.kernel.cpp"},
              stack=st, payload=AOT_CPU_KERNELS, path="torch/_inductor/codecache.py",
              lineno=1659)
    k2p = {"cpp_fused_mul_relu_sigmoid_0": ["sigmoid", "relu", "mul"],
           "cpp_fused_gelu_1": ["mul_3", "mul_1", "add", "erf", "mul_2"],
           "aoti_torch_cpu_addmm_out": ["addmm", "addmm_1", "mul"]}
    log.artifact("inductor_provenance_tracking_node_mappings",
                 node_mapping(AOT_PRE_TO_POST, k2p, version=None),
                 encoding="json", stack=st, lineno=975)
    log.event("compilation_metrics", {"compile_id": None}, stack=None,
              path="torch/_dynamo/utils.py", lineno=1565)
    return log.text()


def gen_aot_old_names():
    """Mar 2025: inductor_pre/post_grad_graph events, *_recompile_* dumps,
    a v1-early mapping (generated kernels only) logged before the code."""
    log = TraceLog(month_day="0318", hour=11)
    aot_strings(log)
    st = AOT_STACK
    pre_old = AOT_PRE.split("\n\n # graph id")[0]
    log.event("inductor_pre_grad_graph", stack=st, payload=AOT_PRE,
              lineno=1843)
    log.artifact("before_recompile_pre_grad", pre_old, stack=st,
                 path="torch/_inductor/fx_passes/pre_grad.py", lineno=261)
    log.artifact("after_recompile_pre_grad", pre_old, stack=st,
                 path="torch/_inductor/fx_passes/pre_grad.py", lineno=313)
    log.event("aot_inference_graph", stack=st, payload=AOT_POST,
              path="torch/_functorch/_aot_autograd/dispatch_and_compile_graph.py",
              lineno=232)
    log.artifact("before_recompile_post_grad", AOT_POST, stack=st,
                 path="torch/_inductor/fx_passes/post_grad.py", lineno=118)
    log.artifact("after_recompile_post_grad", AOT_POST, stack=st,
                 path="torch/_inductor/fx_passes/post_grad.py", lineno=205)
    log.event("inductor_post_grad_graph", stack=st, payload=AOT_POST,
              lineno=1027)
    k2p = {"cpp_fused_mul_relu_sigmoid_0": ["mul"],
           "cpp_fused_gelu_1": ["mul_3", "mul_1", "add", "erf", "mul_2"]}
    log.artifact("inductor_provenance_tracking_node_mappings",
                 node_mapping(AOT_PRE_TO_POST, k2p, version=None),
                 encoding="json", stack=st, path="torch/_inductor/graph.py",
                 lineno=2028)
    log.event("graph_dump", {"name": "inductor_aot_wrapper_code", "type": "cpp",
                             "filename": "/tmp/tmpq/c3a.wrapper.cpp"},
              stack=st, payload=AOT_CPU_WRAPPER, path="torch/_inductor/codecache.py",
              lineno=1468)
    log.event("graph_dump", {"name": "inductor_aot_kernel_code", "type": "cpp",
                             "filename": "/tmp/tmpq/c3a.kernel.cpp"},
              stack=st, payload=AOT_CPU_KERNELS, path="torch/_inductor/codecache.py",
              lineno=1477)
    return log.text()



# --------------------------------------------------------------------------
# aot_cuda_v2.log: AOTInductor on CUDA, mapping v2. Triton kernels are
# launched through `call_triton_<name>(...)` wrappers whose definitions hold
# the Triton source in a /* */ comment; handle comments are separated from
# the calls by `static constexpr` lines; `<kernel>_xnumel` declarations name
# the kernel but are not calls; stack traces in the export form.

AOT_CUDA_PRE = AOT_PRE.replace("cpu", "cuda:0")
AOT_CUDA_POST = """class <lambda>(torch.nn.Module):
    def forward(self):
        arg2_1: "f32[8, 10][10, 1]cuda:0"; arg3_1: "f32[10, 20][20, 1]cuda:0"; arg4_1: "f32[20, 30][30, 1]cuda:0"; arg5_1: "f32[10, 30][30, 1]cuda:0"; 
    
        arg2_1, arg3_1, arg4_1, arg5_1, = fx_pytree.tree_flatten_spec([], self._in_spec)
        # No stacktrace found for following nodes
        fc1_weight: "f32[16, 10][10, 1]cuda:0" = self.fc1.weight
        fc1_bias: "f32[16][1]cuda:0" = self.fc1.bias
        
         # File: /opt/torch/nn/modules/linear.py:125 in forward, code: return F.linear(input, self.weight, self.bias)
        permute: "f32[10, 16][1, 10]cuda:0" = torch.ops.aten.permute.default(fc1_weight, [1, 0]);  fc1_weight = None
        mm_default_1: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.mm.default(arg2_1, permute);  arg2_1 = permute = None
        add_tensor_1: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.add.Tensor(mm_default_1, fc1_bias);  mm_default_1 = fc1_bias = None
        
         # File: /opt/torch/nn/modules/activation.py:135 in forward, code: return F.relu(input, inplace=self.inplace)
        relu: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.relu.default(add_tensor_1);  add_tensor_1 = None
        
         # File: /opt/torch/nn/modules/activation.py:329 in forward, code: return torch.sigmoid(input)
        sigmoid: "f32[8, 16][16, 1]cuda:0" = torch.ops.aten.sigmoid.default(relu);  relu = None
        
         # File: {m}:24 in forward, code: d = a * 3.14
        mul: "f32[10, 20][20, 1]cuda:0" = torch.ops.aten.mul.Tensor(arg3_1, 3.14);  arg3_1 = None
        
         # File: {m}:25 in forward, code: y = torch.addmm(c, d, b)
        mm_default: "f32[10, 30][30, 1]cuda:0" = torch.ops.aten.mm.default(mul, arg4_1);  mul = arg4_1 = None
        add_tensor: "f32[10, 30][30, 1]cuda:0" = torch.ops.aten.add.Tensor(mm_default, arg5_1);  mm_default = arg5_1 = None
        
         # File: {m}:27 in forward, code: z = torch.nn.functional.gelu(y)
        mul_1: "f32[10, 30][30, 1]cuda:0" = torch.ops.aten.mul.Tensor(add_tensor, 0.5)
        mul_2: "f32[10, 30][30, 1]cuda:0" = torch.ops.aten.mul.Tensor(add_tensor, 0.7071067811865476);  add_tensor = None
        erf: "f32[10, 30][30, 1]cuda:0" = torch.ops.aten.erf.default(mul_2);  mul_2 = None
        add: "f32[10, 30][30, 1]cuda:0" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_3: "f32[10, 30][30, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_1, add);  mul_1 = add = None
        return (sigmoid, mul_3)
        """.format(m=MODEL)

TQ = "'" * 3


def call_triton(name, params, grid):
    return ("""template <typename in_out_ptr0_type_, typename kernels_type_>
static inline void call_{n}(
    const in_out_ptr0_type_& in_out_ptr0,
    {params},
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){{
    /*
    async_compile.triton('{n}', {tq}
    import triton
    import triton.language as tl

    @triton.jit
    def {n}(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        tmp0 = tl.load(in_out_ptr0 + (xindex))
        tl.store(in_out_ptr0 + (xindex), tmp0)
    {tq}, device_str='cuda')
    */
    uint32_t grid_0 = {g};
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.{n} == nullptr) {{
        kernels_.{n} = loadKernel("/tmp/torchinductor_user/cr/crx2.cubin", "{n}", 0, cubin_dir_);
    }}
    CUdeviceptr var_0 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    void* kernel_args_[] = {{&var_0}};
    launchKernel(kernels_.{n}, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);
}}
""").format(n=name, params=params, g=grid, tq=TQ)


AOT_CUDA_WRAPPER = """
#include <torch/csrc/inductor/aoti_include/cuda.h>
// Definition of AOTI runtime interface functions

#include <torch/csrc/inductor/aoti_runtime/interface.h>
#include <torch/csrc/inductor/aoti_runtime/model_container.h>

CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DEVICE(cuda);
CACHE_TORCH_LAYOUT(strided);
namespace torch::aot_inductor {
namespace {
class AOTInductorModelKernels : public AOTInductorModelKernelsBase {
  public:
    CUfunction triton_poi_fused_addmm_relu_sigmoid_0{nullptr};
    CUfunction triton_poi_fused_mul_1{nullptr};
    CUfunction triton_poi_fused_addmm_gelu_2{nullptr};
};
}  // namespace

""" + call_triton("triton_poi_fused_addmm_relu_sigmoid_0", "const in_ptr0_type_& in_ptr0,\n    int64_t xnumel", "4") + "\n" + \
    call_triton("triton_poi_fused_mul_1", "int64_t xnumel", "2") + "\n" + \
    call_triton("triton_poi_fused_addmm_gelu_2", "const in_ptr0_type_& in_ptr0,\n    int64_t xnumel", "3") + """
void AOTInductorModel::run_impl(
    AtenTensorHandle*
        input_handles, // array of input AtenTensorHandle; handles
                        // are stolen; the array itself is borrowed
    AtenTensorHandle*
        output_handles, // array for writing output AtenTensorHandle; handles
                        // will be stolen by the caller; the array itself is
                        // borrowed
    DeviceStreamType stream,
    AOTIProxyExecutorHandle proxy_executor
) {
    __check_inputs_outputs(input_handles, output_handles);

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 4);
    auto arg2_1 = std::move(inputs[0]);
    auto arg3_1 = std::move(inputs[1]);
    auto arg4_1 = std::move(inputs[2]);
    auto arg5_1 = std::move(inputs[3]);
    [[maybe_unused]] auto fc1_weight = constants_->at(0);
    [[maybe_unused]] auto fc1_bias = constants_->at(1);
    inputs.clear();
    [[maybe_unused]] auto& kernels = static_cast<AOTInductorModelKernels&>(*this->kernels_.get());

    AOTICudaStreamGuard stream_guard(stream, this->device_idx_);
    static constexpr int64_t int_array_0[] = {8L, 16L};
    static constexpr int64_t int_array_1[] = {16L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // Topologically Sorted Source Nodes: [linear], Original ATen: [aten.t, aten.addmm]
    // [Provenance debug handles] aoti_torch_cuda_mm_out:4
    static constexpr int64_t int_array_2[] = {10L, 16L};
    static constexpr int64_t int_array_3[] = {1L, 10L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf0, arg2_1, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(fc1_weight, 2, int_array_2, int_array_3, 0L))));
    arg2_1.reset();
    auto buf1 = std::move(buf0);  // reuse
    // Topologically Sorted Source Nodes: [linear, relu, sigmoid], Original ATen: [aten.addmm, aten.relu, aten.sigmoid]
    // [Provenance debug handles] triton_poi_fused_addmm_relu_sigmoid_0:1
    call_triton_poi_fused_addmm_relu_sigmoid_0(buf1, fc1_bias, 128L, this->device_idx_, stream, kernels, this->cubin_dir_);
    static constexpr int64_t int_array_4[] = {10L, 20L};
    static constexpr int64_t int_array_5[] = {20L, 1L};
    AtenTensorHandle buf2_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf2_handle));
    RAIIAtenTensorHandle buf2(buf2_handle);
    // Topologically Sorted Source Nodes: [mul], Original ATen: [aten.mul]
    // [Provenance debug handles] triton_poi_fused_mul_1:2
    int64_t triton_poi_fused_mul_1_xnumel = 200L;
    call_triton_poi_fused_mul_1(arg3_1, buf2, triton_poi_fused_mul_1_xnumel, this->device_idx_, stream, kernels, this->cubin_dir_);
    arg3_1.reset();
    static constexpr int64_t int_array_6[] = {10L, 30L};
    static constexpr int64_t int_array_7[] = {30L, 1L};
    AtenTensorHandle buf3_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf3_handle));
    RAIIAtenTensorHandle buf3(buf3_handle);
    // Topologically Sorted Source Nodes: [mul, addmm], Original ATen: [aten.mul, aten.addmm]
    // [Provenance debug handles] aoti_torch_cuda_mm_out:5
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf3, buf2, arg4_1));
    arg4_1.reset();
    buf2.reset();
    auto buf4 = std::move(buf3);  // reuse
    // Topologically Sorted Source Nodes: [addmm, gelu], Original ATen: [aten.addmm, aten.gelu]
    // [Provenance debug handles] triton_poi_fused_addmm_gelu_2:3
    call_triton_poi_fused_addmm_gelu_2(buf4, arg5_1, 300L, this->device_idx_, stream, kernels, this->cubin_dir_);
    arg5_1.reset();
    output_handles[0] = buf1.release();
    output_handles[1] = buf4.release();
} // AOTInductorModel::run_impl
} // namespace torch::aot_inductor
"""


def gen_aot_cuda_v2():
    log = TraceLog(month_day="0820", hour=9)
    aot_strings(log)
    st = AOT_STACK
    log.artifact("before_pre_grad_graph", AOT_CUDA_PRE, stack=st, lineno=2223)
    log.event("aot_inference_graph", stack=st, payload=AOT_CUDA_POST,
              path="torch/_functorch/_aot_autograd/graph_compile.py",
              lineno=1460)
    log.artifact("after_post_grad_graph", AOT_CUDA_POST, stack=st, lineno=1317)
    log.artifact("triton_kernel_info", json.dumps({
        "triton_poi_fused_addmm_gelu_2": {"autotune_cache_state": "miss",
                                          "num_configs": 2,
                                          "compile_time_us": 180121},
        "triton_poi_fused_addmm_relu_sigmoid_0": {
            "autotune_cache_state": "only 1 config",
            "only_config": [["XBLOCK", 128], ["num_warps", 4], ["num_stages", 1]],
            "compile_time_us": 121090},
        "triton_poi_fused_mul_1": {"autotune_cache_state": "miss",
                                   "num_configs": 2, "compile_time_us": 150040}}),
        encoding="json", stack=st, path="torch/_inductor/async_compile.py",
        lineno=117)
    log.event("graph_dump", {"name": "inductor_aot_wrapper_code", "type": "cpp",
                             "filename": "/tmp/torchinductor_user/cz/czw.wrapper.cpp"},
              stack=st, payload=AOT_CUDA_WRAPPER, path="torch/_inductor/codecache.py",
              lineno=1712)
    k2p = {"triton_poi_fused_addmm_relu_sigmoid_0:1": ["sigmoid", "relu", "add_tensor_1"],
           "triton_poi_fused_mul_1:2": ["mul"],
           "triton_poi_fused_addmm_gelu_2:3": ["mul_3", "mul_1", "add_tensor", "add", "erf", "mul_2"],
           "aoti_torch_cuda_mm_out:4": ["mm_default_1"],
           "aoti_torch_cuda_mm_out:5": ["mm_default"]}
    pre = {"linear": ["permute", "mm_default_1", "add_tensor_1"], "relu": ["relu"],
           "sigmoid": ["sigmoid"], "mul": ["mul"], "addmm": ["mm_default", "add_tensor"],
           "gelu": ["mul_1", "mul_2", "erf", "add", "mul_3"]}
    log.artifact("inductor_provenance_tracking_node_mappings",
                 node_mapping(pre, k2p), encoding="json", stack=st, lineno=1063)
    lib = "/opt/torch/nn/modules/"
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps({
        "triton_poi_fused_addmm_relu_sigmoid_0:1": [
            'File "%s", line 14, in forward\n    x = self.sigmoid(self.relu(self.fc1(x)))\n  File "%sactivation.py", line 359, in forward\n    return torch.sigmoid(input)' % (MODEL, lib)],
        "triton_poi_fused_mul_1:2": [stack_trace(24, "d = a * 3.14", jit=False)],
        "triton_poi_fused_addmm_gelu_2:3": [stack_trace(27, "z = torch.nn.functional.gelu(y)", jit=False),
                                            stack_trace(25, "y = torch.addmm(c, d, b)", jit=False)],
        "aoti_torch_cuda_mm_out:4": [
            'File "%s", line 14, in forward\n    x = self.sigmoid(self.relu(self.fc1(x)))\n  File "%slinear.py", line 125, in forward\n    return F.linear(input, self.weight, self.bias)' % (MODEL, lib)],
        "aoti_torch_cuda_mm_out:5": [stack_trace(25, "y = torch.addmm(c, d, b)", jit=False)]}),
        encoding="json", stack=st, lineno=1073)
    return log.text()


# --------------------------------------------------------------------------
# handles.log: debug-handle resolution, the cases tlparse's substring match
# gets wrong. One kernel launched twice (comments `:45` then `:4`, so `:4`
# must not take the `:45` launch); kernels `..._1` and `..._10`; handle
# comments several lines before their launch, with another launch in
# between; a v2 key for a call that has no handle comment; a key for a
# user kernel launched in a form the wrapper parser does not know
# (`kernel[grid](...)`), found by name.

HANDLES_CODE = PY_HEADER.format(aot_id="0_inference", device_imports=CUDA_IMPORTS) + """

""" + triton_src("triton_poi_fused_mul_1", "in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr",
                 """    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    tmp0 = tl.load(in_ptr0 + (xindex))
    tl.store(out_ptr0 + (xindex), tmp0 * 2.0)
""") + """

""" + triton_src("triton_poi_fused_mul_10", "in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr",
                 """    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    tmp0 = tl.load(in_ptr0 + (xindex))
    tl.store(out_ptr0 + (xindex), tmp0 * 10.0)
""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, arg1_1, arg2_1 = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((128, ), (1, ), torch.float32)
        # Topologically Sorted Source Nodes: [a], Original ATen: [aten.mul]
        # [Provenance debug handles] triton_poi_fused_mul_1:45
        stream0 = get_raw_stream(0)
        triton_poi_fused_mul_1.run(arg0_1, buf0, 128, stream=stream0)
        buf1 = empty_strided_cuda((128, ), (1, ), torch.float32)
        # [Provenance debug handles] triton_poi_fused_mul_1:4
        # [Provenance debug handles] triton_poi_fused_mul_10:46
        stream0 = get_raw_stream(0)
        triton_poi_fused_mul_10.run(arg1_1, buf1, 128, stream=stream0)
        buf2 = empty_strided_cuda((128, ), (1, ), torch.float32)
        stream0 = get_raw_stream(0)
        triton_poi_fused_mul_1.run(buf1, buf2, 128, stream=stream0)
        buf3 = empty_strided_cuda((8, 16, 16), (256, 16, 1), torch.float32)
        # Topologically Sorted Source Nodes: [c], Original ATen: [aten.bmm]
        extern_kernels.bmm(arg2_1, arg2_1, out=buf3)
        buf4 = empty_strided_cuda((8, 16, 16), (256, 16, 1), torch.float32)
        user_defined_scale_kernel[(8, 1, 1)](buf3, buf4, 2048)
    return (buf0, buf2, buf4, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.float32)",
    bench_args="arg0_1, arg1_1, arg2_1")

HANDLES_PRE = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[128][1]cuda:0", L_y_: "f32[128][1]cuda:0", L_m_: "f32[8, 16, 16][256, 16, 1]cuda:0"):
        l_x_ = L_x_
        l_y_ = L_y_
        l_m_ = L_m_
        
         # File: {m}:50 in forward, code: a = x * 2.0
        a: "f32[128][1]cuda:0" = l_x_ * 2.0;  l_x_ = None
        
         # File: {m}:51 in forward, code: b = (y * 10.0) * 2.0
        mul_1: "f32[128][1]cuda:0" = l_y_ * 10.0;  l_y_ = None
        b: "f32[128][1]cuda:0" = mul_1 * 2.0;  mul_1 = None
        
         # File: {m}:52 in forward, code: c = m @ m
        c: "f32[8, 16, 16][256, 16, 1]cuda:0" = l_m_ @ l_m_;  l_m_ = None
        
         # File: {m}:53 in forward, code: e = scale(c)
        e: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.user.scale.default(c);  c = None
        return (a, b, e)
        

 # graph id: 140100000000777""".format(m=MODEL)

HANDLES_POST = """class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[128][1]cuda:0", arg1_1: "f32[128][1]cuda:0", arg2_1: "f32[8, 16, 16][256, 16, 1]cuda:0"):
         # File: {m}:50 in forward, code: a = x * 2.0
        mul: "f32[128][1]cuda:0" = torch.ops.aten.mul.Tensor(arg0_1, 2.0);  arg0_1 = None
        
         # File: {m}:51 in forward, code: b = (y * 10.0) * 2.0
        mul_1: "f32[128][1]cuda:0" = torch.ops.aten.mul.Tensor(arg1_1, 10.0);  arg1_1 = None
        mul_2: "f32[128][1]cuda:0" = torch.ops.aten.mul.Tensor(mul_1, 2.0);  mul_1 = None
        
         # File: {m}:52 in forward, code: c = m @ m
        bmm: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.bmm.default(arg2_1, arg2_1);  arg2_1 = None
        
         # File: {m}:53 in forward, code: e = scale(c)
        scale: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.user.scale.default(bmm);  bmm = None
        return (mul, mul_2, scale)
        """.format(m=MODEL)


def handles_log(kernel_to_post, stack_traces=None):
    """The compile of handles.log with the given kernel section of its
    provenance mapping and, if given, kernel stack traces."""
    log = TraceLog(month_day="0901", hour=10)
    cid = (0, 0, 0)
    string_table(log)
    dynamo_start(log, cid, 49)
    log.artifact("before_pre_grad_graph", HANDLES_PRE, cid=cid)
    log.event("aot_inference_graph", cid=cid, payload=HANDLES_POST,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1460)
    log.artifact("after_post_grad_graph", HANDLES_POST, cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/torchinductor_user/h1/ch1.py"},
              cid=cid, payload=HANDLES_CODE, path="torch/_inductor/graph.py", lineno=2390)
    log.artifact("inductor_provenance_tracking_node_mappings", node_mapping(
        {"a": ["mul"], "mul_1": ["mul_1"], "b": ["mul_2"], "c": ["bmm"],
         "e": ["scale"]}, kernel_to_post), encoding="json", cid=cid)
    if stack_traces is not None:
        log.artifact("inductor_provenance_tracking_kernel_stack_traces",
                     json.dumps(stack_traces), encoding="json", cid=cid)
    return log.text()


def gen_handles():
    return handles_log(
        {"triton_poi_fused_mul_1:4": ["mul_2"],
         "triton_poi_fused_mul_1:45": ["mul"],
         "triton_poi_fused_mul_10:46": ["mul_1"],
         "extern_kernels.bmm:47": ["bmm"],
         "user_defined_scale_kernel": ["scale"]})



# --------------------------------------------------------------------------
# carried_handles.log: handles.log's compile, whose provenance mapping and
# kernel stack traces also hold entries of an earlier compile, as PyTorch
# 2.13 logs them with a backward compiled after others (it numbers debug
# handles from 1 in one table it does not clear): keys 1 to 3, below the
# code's lowest handle (4), that name no call. `triton_poi_fused_mul_1:3`
# (the kernel is called, with other handles), `extern_kernels.mm:1` and
# `triton_poi_fused_add_0:2` (not called) are carried.

def gen_carried():
    return handles_log(
        {"extern_kernels.bmm:47": ["bmm"],
         "extern_kernels.mm:1": ["mm_9"],
         "triton_poi_fused_add_0:2": ["add_8"],
         "triton_poi_fused_mul_1:3": ["add_9", "mul"],
         "triton_poi_fused_mul_1:4": ["mul_2"],
         "triton_poi_fused_mul_1:45": ["mul"],
         "triton_poi_fused_mul_10:46": ["mul_1"],
         "user_defined_scale_kernel": ["scale"]},
        {"extern_kernels.mm:1": [stack_trace(9, "h = self.fc(x)")],
         "triton_poi_fused_add_0:2": [stack_trace(10, "h = h + 1")],
         "triton_poi_fused_mul_1:3": [stack_trace(11, "h = h * 2")],
         "triton_poi_fused_mul_1:4": [stack_trace(51, "b = (y * 10.0) * 2.0")],
         "triton_poi_fused_mul_1:45": [stack_trace(50, "a = x * 2.0")]})


# --------------------------------------------------------------------------
# shapes.log: FX and wrapper shapes beyond the common ones, and a compile
# with no provenance mapping at all (so provenance comes from the comments
# Inductor writes into the code). On rank 0 (envelope "rank").
#   pre-grad: a nested submodule and call_module, get_attr, call_method,
#             getitem, `# No stacktrace found`, `# Annotation: {...} File:`
#   post-grad: multi-line signature with AOT descriptors, multi-line return
#   wrapper: class Runner (call is a method), a combo kernel, a template
#            kernel, a fallback op, a collective and its wait

SHAPES_PRE = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[64, 64][64, 1]cuda:0", L_y_: "f32[64, 64][64, 1]cuda:0"):
        l_x_ = L_x_
        l_y_ = L_y_
        
        # No stacktrace found for following nodes
        submod_0 = self.submod_0(l_x_, l_y_);  l_x_ = l_y_ = None
        getitem: "f32[64, 64][64, 1]cuda:0" = submod_0[0]
        getitem_1: "f32[64, 64][64, 1]cuda:0" = submod_0[1];  submod_0 = None
        
        # Annotation: {{'pp_stage': 0}} File: {m}:70 in forward, code: w = self.weight
        weight: "f32[64, 64][64, 1]cuda:0" = self.weight
        
         # File: {m}:71 in forward, code: z = (a @ w).view(-1)
        matmul: "f32[64, 64][64, 1]cuda:0" = getitem @ weight;  getitem = weight = None
        z: "f32[4096][1]cuda:0" = matmul.view(-1);  matmul = None
        
         # File: {m}:72 in forward, code: s = dist.all_reduce(b)
        s: "f32[64, 64][64, 1]cuda:0" = torch.ops._c10d_functional.all_reduce.default(getitem_1, 'sum', '0');  getitem_1 = None
        
         # File: {m}:73 in forward, code: n = torch.nonzero(z)
        n: "i64[u0, 1][1, 1]cuda:0" = torch.nonzero(z)
        return (z, s, n)
        
    class submod_0(torch.nn.Module):
        def forward(self, l_x_: "f32[64, 64][64, 1]cuda:0", l_y_: "f32[64, 64][64, 1]cuda:0"):
             # File: {m}:68 in forward, code: a = torch.relu(x)
            a: "f32[64, 64][64, 1]cuda:0" = torch.relu(l_x_);  l_x_ = None
            
             # File: {m}:69 in forward, code: b = torch.sigmoid(y)
            b: "f32[64, 64][64, 1]cuda:0" = torch.sigmoid(l_y_);  l_y_ = None
            return (a, b)
            

 # graph id: 140200000001234""".format(m=MODEL)

SHAPES_POST = """class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[64, 64][64, 1]cuda:0",  # PlainAOTInput(idx=0)
        primals_2: "f32[64, 64][64, 1]cuda:0",  # PlainAOTInput(idx=1)
        primals_3: "f32[64, 64][64, 1]cuda:0",  # ParamAOTInput(target='weight')
    ):
         # File: {m}:68 in forward, code: a = torch.relu(x)
        relu: "f32[64, 64][64, 1]cuda:0" = torch.ops.aten.relu.default(primals_1);  primals_1 = None
        
         # File: {m}:69 in forward, code: b = torch.sigmoid(y)
        sigmoid: "f32[64, 64][64, 1]cuda:0" = torch.ops.aten.sigmoid.default(primals_2);  primals_2 = None
        
         # File: {m}:71 in forward, code: z = (a @ w).view(-1)
        mm: "f32[64, 64][64, 1]cuda:0" = torch.ops.aten.mm.default(relu, primals_3);  relu = primals_3 = None
        view: "f32[4096][1]cuda:0" = torch.ops.aten.view.default(mm, [-1]);  mm = None
        
         # File: {m}:72 in forward, code: s = dist.all_reduce(b)
        all_reduce: "f32[64, 64][64, 1]cuda:0" = torch.ops._c10d_functional.all_reduce.default(sigmoid, 'sum', '0');  sigmoid = None
        wait_tensor: "f32[64, 64][64, 1]cuda:0" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None
        
         # File: {m}:73 in forward, code: n = torch.nonzero(z)
        nonzero: "i64[u0, 1][1, 1]cuda:0" = torch.ops.aten.nonzero.default(view)
        return (
            view,  # PlainAOTOutput(idx=0)
            wait_tensor,  # PlainAOTOutput(idx=1)
            nonzero,  # PlainAOTOutput(idx=2)
        )
        """.format(m=MODEL)

COMBO_BODY = """    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(xnumel_0, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(xnumel_1, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xindex = pid_offset * XBLOCK + tl.arange(0, XBLOCK)[:]
        tmp0 = tl.load(in_ptr0 + (xindex))
        tl.store(out_ptr0 + (xindex), triton_helpers.maximum(tmp0, 0.0))
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
        xindex = pid_offset * XBLOCK + tl.arange(0, XBLOCK)[:]
        tmp1 = tl.load(in_ptr1 + (xindex))
        tl.store(out_ptr1 + (xindex), tl.sigmoid(tmp1))
    else:
        pass
"""

SHAPES_CODE = PY_HEADER.format(aot_id="0_forward", device_imports=CUDA_IMPORTS) + """

# kernel path: /tmp/torchinductor_user/cm/ccmbo.py
# Topologically Sorted Source Nodes: [a, b], Original ATen: [aten.relu, aten.sigmoid]
# Source node to ATen node mapping:
#   a => relu
#   b => sigmoid
# Graph fragment:
#   %primals_1 : Tensor "f32[64, 64][64, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %relu : Tensor "f32[64, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%primals_1,), kwargs = {})
#   %sigmoid : Tensor "f32[64, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%primals_2,), kwargs = {})
#   return %relu,%sigmoid
""" + triton_src("triton_poi_fused_0", "in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel_0, xnumel_1",
                 COMBO_BODY, kind="pointwise", size="{'x': 4096}") + """

# kernel path: /tmp/torchinductor_user/tm/ctmpl.py
# Topologically Sorted Source Nodes: [matmul], Original ATen: [aten.mm]
# Source node to ATen node mapping:
#   matmul => mm
# Graph fragment:
#   %relu : Tensor "f32[64, 64][64, 1]cuda:0" = PlaceHolder[target=relu]
#   %primals_3 : Tensor "f32[64, 64][64, 1]cuda:0" = PlaceHolder[target=primals_3]
#   %mm : Tensor "f32[64, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%relu, %primals_3), kwargs = {})
#   return %mm
""" + triton_src("triton_tem_fused_mm_1", "arg_A, arg_B, out_ptr0",
                 """    GROUP_M : tl.constexpr = 8
    BLOCK_M : tl.constexpr = 64
    A = arg_A
    B = arg_B
    acc = tl.zeros((BLOCK_M, BLOCK_M), dtype=tl.float32)
    tl.store(out_ptr0, acc)
""", kind="template", size="None") + """

async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        primals_1, primals_2, primals_3 = args
        args.clear()
        assert_size_stride(primals_1, (64, 64), (64, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
            buf1 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [a, b], Original ATen: [aten.relu, aten.sigmoid]
            stream0 = get_raw_stream(0)
            triton_poi_fused_0.run(primals_1, primals_2, buf0, buf1, 4096, 4096, stream=stream0)
            del primals_1
            buf2 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [matmul], Original ATen: [aten.mm]
            triton_tem_fused_mm_1.run(buf0, primals_3, buf2, 1, 1, 1, stream=stream0)
            # Topologically Sorted Source Nodes: [s], Original ATen: [_c10d_functional.all_reduce]
            torch.ops._c10d_functional.all_reduce_.default(buf1, 'sum', '0')
            # Topologically Sorted Source Nodes: [s], Original ATen: [_c10d_functional.wait_tensor]
            torch.ops._c10d_functional.wait_tensor.default(buf1)
            # Topologically Sorted Source Nodes: [n], Original ATen: [aten.nonzero]
            buf4 = torch.ops.aten.nonzero.default(reinterpret_tensor(buf2, (4096, ), (1, ), 0))
            assert_alignment(buf4, 16, 'torch.ops.aten.nonzero.default')
        return (reinterpret_tensor(buf2, (4096, ), (1, ), 0), buf1, buf4, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns
""" + PY_FOOTER.format(
    bench_inputs="    primals_1 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)",
    bench_args="primals_1, primals_2, primals_3")


def gen_shapes():
    log = TraceLog(month_day="0815", hour=8)
    cid = (0, 0, 0)
    log.str_entry("/home/user/proj/train.py", 1)
    log.str_entry(MODEL, 2)
    dynamo_start(log, cid, 66, rank=0)
    log.artifact("before_pre_grad_graph", SHAPES_PRE, cid=cid, rank=0)
    log.event("aot_forward_graph", cid=cid, rank=0, payload=SHAPES_POST,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1633)
    log.artifact("inductor_post_grad_graph", SHAPES_POST, cid=cid, rank=0)
    log.event("inductor_output_code", {"filename": "/tmp/torchinductor_user/sh/csh.py",
                                       "file_path": "/tmp/torchinductor_user/sh/csh.py"},
              cid=cid, rank=0, payload=SHAPES_CODE, path="torch/_inductor/graph.py",
              lineno=2390)
    log.artifact("inductor_collective_schedule", "[\n" + ",\n".join(
        json.dumps(x) for x in ["torch.ops._c10d_functional.all_reduce_.default"]) + "\n]",
        encoding="json", cid=cid, rank=0)
    return log.text()


# --------------------------------------------------------------------------
# broken.log: bad input, each kind once, around one good compile (0/0,
# JIT CPU). Every line marked BROKEN below is wrong on purpose; the reader
# must report each with its line and go on.

def gen_broken():
    log = TraceLog(month_day="0521", hour=11)
    # BROKEN: payload lines before any event.
    log.raw("\tstray payload line")
    string_table(log)
    cid = (0, 0, 0)
    dynamo_start(log, cid, 20)
    # BROKEN: not an event line at all.
    log.raw("this line is not part of a TORCH_TRACE log")
    # BROKEN: the envelope JSON is cut short; its payload lines go with it.
    log.raw('V0521 11:47:42.996000 2962972 torch/_inductor/compile_fx.py:2045] '
            '{"artifact": {"name": "before_pre_grad_graph", "encoding": "string"}, "frame_id": 0, ')
    log.raw("\tclass GraphModule(torch.nn.Module):")
    log.artifact("before_pre_grad_graph", CPU_PRE_0, cid=cid, lineno=2045)
    # BROKEN: event kinds tlp does not know (counted, reported once).
    log.event("future_event_kind", {"x": 1}, cid=cid)
    log.event("future_event_kind", {"x": 2}, cid=cid)
    log.event("another_new_kind", cid=cid)
    # BROKEN: the md5 is not the payload's (the payload is still used).
    log.artifact("after_post_grad_graph", CPU_POST_0, cid=cid, lineno=1194,
                 md5="0123456789abcdef0123456789abcdef")
    # A truly empty line where a lone tab belongs (some tools strip
    # trailing whitespace); the md5 tells it is part of the payload.
    start = len(log.lines)
    log.event("inductor_output_code", {"filename": "/tmp/c.py"}, cid=cid,
              payload=CPU_CODE_0, path="torch/_inductor/graph.py", lineno=2347)
    for i in range(start + 1, len(log.lines)):
        if log.lines[i] == "\t":
            log.lines[i] = ""
            break
    # BROKEN: a JSON payload that does not parse.
    log.artifact("triton_kernel_info", '{"cpp_fused_mul_relu_sigmoid_0": {"num_configs": 2,,}}',
                 encoding="json", cid=cid)
    # BROKEN: an artifact that announces a payload and has none.
    log.raw('V0521 11:47:55.846000 2962972 torch/_inductor/compile_fx.py:967] '
            '{"artifact": {"name": "inductor_triton_kernel_to_post_grad_nodes", "encoding": "json"}, '
            '"frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "2f18a350d889228534030b0f5e49d84f"}')
    # BROKEN: names that resolve to nothing: a pre-grad node, a post-grad
    # node, and a kernel key with a handle no call carries.
    pre = {"x": ["permute", "addmm"], "x_1": ["relu"], "x_2": ["sigmoid"],
           "d": ["mul"], "y": ["addmm_1"], "ghost": ["addmm"]}
    k2p = {"cpp_fused_mul_relu_sigmoid_0": ["sigmoid", "relu", "mul", "phantom"],
           "extern_kernels.addmm": ["addmm", "addmm_1", "mul"]}
    log.artifact("inductor_provenance_tracking_node_mappings",
                 node_mapping(pre, k2p, version=None), encoding="json",
                 cid=cid, lineno=975)
    # BROKEN: the log ends in the middle of a payload, without a newline.
    cid = (1, 0, 0)
    log.event("inductor_output_code", {"filename": "/tmp/d.py"}, cid=cid,
              payload=CPU_CODE_1, path="torch/_inductor/graph.py", lineno=2347)
    cut = len(log.lines) - 30
    del log.lines[cut:]
    return log.text()[:-1]


# --------------------------------------------------------------------------
# ranks/: a directory of rank logs as TORCH_TRACE writes them, plus files
# that are not logs. Rank 1 has CR LF line endings (a Windows copy).

RANK_PRE = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[2, 2][2, 1]cpu"):
        l_x_ = L_x_
        
         # File: {m}:6 in kernel, code: return x.sum()
        sum_1: "f32[][]cpu" = l_x_.sum();  l_x_ = None
        return (sum_1,)
        

 # graph id: 140300000000042""".format(m=MODEL)

RANK_POST = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2][2, 1]cpu"):
         # File: {m}:6 in kernel, code: return x.sum()
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default(arg0_1);  arg0_1 = None
        return (sum_1,)
        """.format(m=MODEL)

RANK_CODE = PY_HEADER.format(aot_id="0_inference", device_imports="") + """

""" + cpp_src("cpp_fused_sum_0", "'const float*', 'float*'",
              """const float* in_ptr0,
                       float* out_ptr0""",
              """    {
        float tmp_acc0 = 0;
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(4LL); x0+=static_cast<int64_t>(1LL))
        {
            tmp_acc0 = tmp_acc0 + in_ptr0[static_cast<int64_t>(x0)];
        }
        out_ptr0[static_cast<int64_t>(0LL)] = tmp_acc0;
    }""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (2, 2), (2, 1))
    buf0 = empty_strided_cpu((), (), torch.float32)
    # [Provenance debug handles] cpp_fused_sum_0:1
    cpp_fused_sum_0(arg0_1, buf0)
    del arg0_1
    return (buf0, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((2, 2), (2, 1), device='cpu', dtype=torch.float32)",
    bench_args="arg0_1")


def gen_rank(rank, crlf=False, event_rank=None):
    log = TraceLog(month_day="0718", hour=15, pid=1337 + rank)
    cid = (0, 0, 0)
    r = event_rank
    string_table(log)
    dynamo_start(log, cid, 5, rank=r)
    log.artifact("before_pre_grad_graph", RANK_PRE, cid=cid, rank=r)
    log.event("aot_inference_graph", cid=cid, payload=RANK_POST, rank=r,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1460)
    log.artifact("after_post_grad_graph", RANK_POST, cid=cid, rank=r)
    log.event("inductor_output_code", {"filename": "/tmp/r%d.py" % rank},
              cid=cid, payload=RANK_CODE, path="torch/_inductor/graph.py",
              lineno=2390, rank=r)
    log.artifact("inductor_provenance_tracking_node_mappings", node_mapping(
        {"sum_1": ["sum_1"]}, {"cpp_fused_sum_0:1": ["sum_1"]}),
        encoding="json", cid=cid, rank=r)
    text = log.text()
    return text.replace("\n", "\r\n") if crlf else text


def gen_ranks_readme():
    return "Logs of one job, written with TORCH_TRACE=ranks/ on two ranks.\n"


# ranks-renamed/: the logs of rank 1 under three file names (rank_1, rank_5,
# rank_6), every envelope with "rank": 1, as when a user copies one rank's
# log next to others: the file-name rank and the event rank disagree.


# --------------------------------------------------------------------------
# examples/two_compiles.log: the README's example. A small model on CUDA
# (mapping v2, stack traces, kernel info) whose forward has a graph break,
# so torch.compile makes two compile ids:
#
#   30    def forward(self, x):
#   31        h = self.proj(x)                 # Linear: extern mm + fused bias
#   32        h = torch.relu(h)
#   33        if h.sum() > 0:                  # data-dependent: graph break
#   34            h = h * 2.0 + 1.0
#   35        return torch.softmax(h, dim=-1)

EX = "/home/user/proj/example_model.py"

EX_PRE_0 = """class GraphModule(torch.nn.Module):
    def forward(self, L_self_modules_proj_parameters_weight_: "f32[32, 64][64, 1]cuda:0", L_self_modules_proj_parameters_bias_: "f32[32][1]cuda:0", L_x_: "f32[16, 64][64, 1]cuda:0"):
        l_self_modules_proj_parameters_weight_ = L_self_modules_proj_parameters_weight_
        l_self_modules_proj_parameters_bias_ = L_self_modules_proj_parameters_bias_
        l_x_ = L_x_
        
         # File: {e}:31 in forward, code: h = self.proj(x)
        h: "f32[16, 32][32, 1]cuda:0" = torch._C._nn.linear(l_x_, l_self_modules_proj_parameters_weight_, l_self_modules_proj_parameters_bias_);  l_x_ = l_self_modules_proj_parameters_weight_ = l_self_modules_proj_parameters_bias_ = None
        
         # File: {e}:32 in forward, code: h = torch.relu(h)
        h_1: "f32[16, 32][32, 1]cuda:0" = torch.relu(h);  h = None
        
         # File: {e}:33 in forward, code: if h.sum() > 0:
        sum_1: "f32[][]cuda:0" = h_1.sum()
        gt: "b8[][]cuda:0" = sum_1 > 0;  sum_1 = None
        return (gt, h_1)
        

 # graph id: 139990000000001""".format(e=EX)

EX_POST_0 = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[32, 64][64, 1]cuda:0", arg1_1: "f32[32][1]cuda:0", arg2_1: "f32[16, 64][64, 1]cuda:0"):
         # File: {e}:31 in forward, code: h = self.proj(x)
        permute: "f32[64, 32][1, 64]cuda:0" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        mm_default: "f32[16, 32][32, 1]cuda:0" = torch.ops.aten.mm.default(arg2_1, permute);  arg2_1 = permute = None
        add_tensor: "f32[16, 32][32, 1]cuda:0" = torch.ops.aten.add.Tensor(mm_default, arg1_1);  mm_default = arg1_1 = None
        
         # File: {e}:32 in forward, code: h = torch.relu(h)
        relu: "f32[16, 32][32, 1]cuda:0" = torch.ops.aten.relu.default(add_tensor);  add_tensor = None
        
         # File: {e}:33 in forward, code: if h.sum() > 0:
        sum_1: "f32[][]cuda:0" = torch.ops.aten.sum.default(relu)
        gt: "b8[][]cuda:0" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None
        return (gt, relu)
        """.format(e=EX)

EX_CODE_0 = PY_HEADER.format(aot_id="0_inference", device_imports=CUDA_IMPORTS) + """

# kernel path: /tmp/torchinductor_user/ex/cex0.py
# Topologically Sorted Source Nodes: [h, h_1, sum_1, gt], Original ATen: [aten.addmm, aten.relu, aten.sum, aten.gt]
# Source node to ATen node mapping:
#   gt => gt
#   h => add_tensor
#   h_1 => relu
#   sum_1 => sum_1
# Graph fragment:
#   %mm_default : Tensor "f32[16, 32][32, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %arg1_1 : Tensor "f32[32][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %add_tensor : Tensor "f32[16, 32][32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_default, %arg1_1), kwargs = {})
#   %relu : Tensor "f32[16, 32][32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.relu.default](args = (%add_tensor,), kwargs = {})
#   %sum_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%relu,), kwargs = {})
#   %gt : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%sum_1, 0), kwargs = {})
#   return %relu,%gt
""" + triton_src("triton_per_fused_addmm_gt_relu_sum_0",
                 "in_out_ptr0, in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr",
                 """    xnumel = 1
    r0_numel = 512
    R0_BLOCK: tl.constexpr = 512
    xoffset = tl.program_id(0) * XBLOCK
    r0_index = tl.arange(0, R0_BLOCK)[:]
    r0_1 = r0_index % 32
    tmp0 = tl.load(in_out_ptr0 + (r0_index), None)
    tmp1 = tl.load(in_ptr0 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = triton_helpers.maximum(tl.full([1], 0, tl.int32), tmp2)
    tmp7 = triton_helpers.promote_to_tensor(tl.sum(tmp4, 0))
    tmp9 = tmp7 > 0.0
    tl.store(in_out_ptr0 + (r0_index), tmp4, None)
    tl.store(out_ptr1 + (tl.full([1], 0, tl.int32)), tmp9, None)
""", kind="persistent_reduction", size="{'x': 1, 'r0_': 512}") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, arg1_1, arg2_1 = args
    args.clear()
    assert_size_stride(arg0_1, (32, 64), (64, 1))
    assert_size_stride(arg1_1, (32, ), (1, ))
    assert_size_stride(arg2_1, (16, 64), (64, 1))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((16, 32), (32, 1), torch.float32)
        # Topologically Sorted Source Nodes: [h], Original ATen: [aten.addmm]
        # [Provenance debug handles] extern_kernels.mm:2
        extern_kernels.mm(arg2_1, reinterpret_tensor(arg0_1, (64, 32), (1, 64), 0), out=buf0)
        del arg0_1
        del arg2_1
        buf1 = buf0; del buf0  # reuse
        buf3 = empty_strided_cuda((), (), torch.bool)
        # Topologically Sorted Source Nodes: [h, h_1, sum_1, gt], Original ATen: [aten.addmm, aten.relu, aten.sum, aten.gt]
        # [Provenance debug handles] triton_per_fused_addmm_gt_relu_sum_0:1
        stream0 = get_raw_stream(0)
        triton_per_fused_addmm_gt_relu_sum_0.run(buf1, arg1_1, buf3, 1, 512, stream=stream0)
        del arg1_1
    return (buf3, buf1, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)",
    bench_args="arg0_1, arg1_1, arg2_1")

EX_PRE_1 = """class GraphModule(torch.nn.Module):
    def forward(self, L_h_: "f32[16, 32][32, 1]cuda:0"):
        l_h_ = L_h_
        
         # File: {e}:34 in torch_dynamo_resume_in_forward_at_33, code: h = h * 2.0 + 1.0
        mul: "f32[16, 32][32, 1]cuda:0" = l_h_ * 2.0;  l_h_ = None
        h: "f32[16, 32][32, 1]cuda:0" = mul + 1.0;  mul = None
        
         # File: {e}:35 in torch_dynamo_resume_in_forward_at_33, code: return torch.softmax(h, dim=-1)
        softmax: "f32[16, 32][32, 1]cuda:0" = torch.softmax(h, dim = -1);  h = None
        return (softmax,)
        

 # graph id: 139990000000002""".format(e=EX)

EX_POST_1 = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 32][32, 1]cuda:0"):
         # File: {e}:34 in torch_dynamo_resume_in_forward_at_33, code: h = h * 2.0 + 1.0
        mul: "f32[16, 32][32, 1]cuda:0" = torch.ops.aten.mul.Tensor(arg0_1, 2.0);  arg0_1 = None
        add: "f32[16, 32][32, 1]cuda:0" = torch.ops.aten.add.Tensor(mul, 1.0);  mul = None
        
         # File: {e}:35 in torch_dynamo_resume_in_forward_at_33, code: return torch.softmax(h, dim=-1)
        amax: "f32[16, 1][1, 1]cuda:0" = torch.ops.aten.amax.default(add, [-1], True)
        sub: "f32[16, 32][32, 1]cuda:0" = torch.ops.aten.sub.Tensor(add, amax);  add = amax = None
        exp: "f32[16, 32][32, 1]cuda:0" = torch.ops.aten.exp.default(sub);  sub = None
        sum_1: "f32[16, 1][1, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div: "f32[16, 32][32, 1]cuda:0" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        return (div,)
        """.format(e=EX)

EX_CODE_1 = PY_HEADER.format(aot_id="1_inference", device_imports=CUDA_IMPORTS) + """

# kernel path: /tmp/torchinductor_user/ex/cex1.py
# Topologically Sorted Source Nodes: [mul, h, softmax], Original ATen: [aten.mul, aten.add, aten._softmax]
# Source node to ATen node mapping:
#   h => add
#   mul => mul
#   softmax => amax, div, exp, sub, sum_1
# Graph fragment:
#   %arg0_1 : Tensor "f32[16, 32][32, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %mul : Tensor "f32[16, 32][32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, 2.0), kwargs = {})
#   %add : Tensor "f32[16, 32][32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, 1.0), kwargs = {})
#   %amax : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%add, [-1], True), kwargs = {})
#   %sub : Tensor "f32[16, 32][32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add, %amax), kwargs = {})
#   %exp : Tensor "f32[16, 32][32, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
#   %sum_1 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [-1], True), kwargs = {})
#   %div : Tensor "f32[16, 32][32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp, %sum_1), kwargs = {})
#   return %div
""" + triton_src("triton_per_fused__softmax_add_mul_0",
                 "in_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr",
                 """    xnumel = 16
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_1 = tl.arange(0, R0_BLOCK)[None, :]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 32*x0), xmask, other=0.0)
    tmp4 = tmp0 * 2.0 + 1.0
    tmp7 = triton_helpers.max2(tl.where(xmask, tmp4, float("-inf")), 1)[:, None]
    tmp9 = tl_math.exp(tmp4 - tmp7)
    tmp12 = tl.sum(tl.where(xmask, tmp9, 0), 1)[:, None]
    tl.store(out_ptr2 + (r0_1 + 32*x0), tmp9 / tmp12, xmask)
""", kind="persistent_reduction", size="{'x': 16, 'r0_': 32}") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (16, 32), (32, 1))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf2 = empty_strided_cuda((16, 32), (32, 1), torch.float32)
        # Topologically Sorted Source Nodes: [mul, h, softmax], Original ATen: [aten.mul, aten.add, aten._softmax]
        # [Provenance debug handles] triton_per_fused__softmax_add_mul_0:3
        stream0 = get_raw_stream(0)
        triton_per_fused__softmax_add_mul_0.run(arg0_1, buf2, 16, 32, stream=stream0)
        del arg0_1
    return (buf2, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((16, 32), (32, 1), device='cuda:0', dtype=torch.float32)",
    bench_args="arg0_1")


def ex_trace(line, code, fn="forward"):
    return '  File "%s", line %d, in %s\n    %s\n' % (EX, line, fn, code)


def gen_example():
    log = TraceLog(month_day="1105", hour=14)
    log.str_entry("torch/_dynamo/convert_frame.py", 0)
    log.str_entry("/home/user/proj/run_example.py", 1)
    log.str_entry(EX, 2)
    cid = (0, 0, 0)
    log.event("dynamo_start", {"stack": [
        {"line": 12, "name": "<module>", "filename": 1, "loc": "out = model(x)"},
        {"line": 30, "name": "forward", "filename": 2}]}, cid=cid,
        path="torch/_dynamo/convert_frame.py", lineno=1059)
    log.artifact("before_pre_grad_graph", EX_PRE_0, cid=cid, lineno=2223)
    log.event("aot_inference_graph", cid=cid, payload=EX_POST_0,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1460)
    log.artifact("after_post_grad_graph", EX_POST_0, cid=cid, lineno=1317)
    log.event("inductor_output_code", {"filename": "/tmp/torchinductor_user/ex/cex0.py"},
              cid=cid, payload=EX_CODE_0, path="torch/_inductor/graph.py", lineno=2390)
    log.artifact("triton_kernel_info", json.dumps({
        "triton_per_fused_addmm_gt_relu_sum_0": {"autotune_cache_state": "only 1 config",
                                                 "only_config": [["XBLOCK", 1], ["num_warps", 4], ["num_stages", 1]],
                                                 "compile_time_us": 98211}}),
        encoding="json", cid=cid, path="torch/_inductor/async_compile.py", lineno=117)
    log.artifact("inductor_provenance_tracking_node_mappings", node_mapping(
        {"h": ["permute", "mm_default", "add_tensor"], "h_1": ["relu"],
         "sum_1": ["sum_1"], "gt": ["gt"]},
        {"triton_per_fused_addmm_gt_relu_sum_0:1": ["relu", "add_tensor", "sum_1", "gt"],
         "extern_kernels.mm:2": ["mm_default"]}), encoding="json", cid=cid, lineno=1063)
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps({
        "triton_per_fused_addmm_gt_relu_sum_0:1": [
            ex_trace(31, "h = self.proj(x)"), ex_trace(32, "h = torch.relu(h)"),
            ex_trace(33, "if h.sum() > 0:")],
        "extern_kernels.mm:2": [ex_trace(31, "h = self.proj(x)")]}),
        encoding="json", cid=cid, lineno=1073)
    log.event("compilation_metrics", {"compile_id": "0/0"}, cid=cid,
              path="torch/_dynamo/utils.py", lineno=1641)
    cid = (1, 0, 0)
    log.event("dynamo_start", {"stack": [
        {"line": 12, "name": "<module>", "filename": 1, "loc": "out = model(x)"},
        {"line": 33, "name": "torch_dynamo_resume_in_forward_at_33", "filename": 2}]},
        cid=cid, path="torch/_dynamo/convert_frame.py", lineno=1059)
    log.artifact("before_pre_grad_graph", EX_PRE_1, cid=cid, lineno=2223)
    log.event("aot_inference_graph", cid=cid, payload=EX_POST_1,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1460)
    log.artifact("after_post_grad_graph", EX_POST_1, cid=cid, lineno=1317)
    log.event("inductor_output_code", {"filename": "/tmp/torchinductor_user/ex/cex1.py"},
              cid=cid, payload=EX_CODE_1, path="torch/_inductor/graph.py", lineno=2390)
    log.artifact("triton_kernel_info", json.dumps({
        "triton_per_fused__softmax_add_mul_0": {"autotune_cache_state": "miss",
                                                "num_configs": 4,
                                                "compile_time_us": 210554}}),
        encoding="json", cid=cid, path="torch/_inductor/async_compile.py", lineno=117)
    log.artifact("inductor_provenance_tracking_node_mappings", node_mapping(
        {"mul": ["mul"], "h": ["add"], "softmax": ["amax", "sub", "exp", "sum_1", "div"]},
        {"triton_per_fused__softmax_add_mul_0:3": ["div", "exp", "sum_1", "sub", "amax", "add", "mul"]}),
        encoding="json", cid=cid, lineno=1063)
    fn = "torch_dynamo_resume_in_forward_at_33"
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps({
        "triton_per_fused__softmax_add_mul_0:3": [
            ex_trace(35, "return torch.softmax(h, dim=-1)", fn),
            ex_trace(34, "h = h * 2.0 + 1.0", fn)]}),
        encoding="json", cid=cid, lineno=1073)
    log.event("compilation_metrics", {"compile_id": "1/0"}, cid=cid,
              path="torch/_dynamo/utils.py", lineno=1641)
    return log.text()



# --------------------------------------------------------------------------
# ids.log: compile-id forms (FORMAT.md section 2). A compiled-autograd graph
# traced by Dynamo (!1/2/0), a compiled-autograd graph alone (!0), an id
# without "attempt" (explicit compile_id=), the Dec 2024 form with
# "compiled_autograd_id": null, and an envelope rank.

def small_compile(log, cid, rank=None, tag="a"):
    pre = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4][1]cpu"):
        l_x_ = L_x_
        
         # File: {m}:90 in step, code: {t} = x + 1
        {t}: "f32[4][1]cpu" = l_x_ + 1;  l_x_ = None
        return ({t},)
        """.format(m=MODEL, t=tag)
    post = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
         # File: {m}:90 in step, code: {t} = x + 1
        add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
        return (add,)
        """.format(m=MODEL, t=tag)
    log.artifact("before_pre_grad_graph", pre, cid=cid, rank=rank)
    log.artifact("after_post_grad_graph", post, cid=cid, rank=rank)


# phases.log: where a compile's time went (docs/markdown.md). Compile 0/0
# trains: compilation_metrics with the nested figures of a torch 2.13 log
# (dynamo_cumulative 1.0 s holds aot_autograd 0.7 s, which holds inductor
# 0.55 s, which holds code_gen 0.3 s) and the spans that time them, with
# inside them a cache-key span (0.03 s, in AOTAutograd), a template
# autotuning span (0.1 s, in Inductor, with a 0.02 s compile_file inside),
# two compile_file spans on two threads that overlap (0.15 s of wall time,
# in code_gen); then bwd_compilation_metrics (0.5 s, inductor 0.48 s,
# code_gen 0.3 s, a 0.1 s compile_file) and compilation_metrics_runtime
# (0.25 s of runtime autotuning). Compile 1/0 logs the older seconds
# figures only and no spans: Inductor's time is not told.

def gen_phases():
    log = TraceLog(month_day="1204", hour=15)
    string_table(log)
    t = 1796398131000000
    c0 = (0, 0, 0)

    def span(name, b, e, tid=0):
        health_chromium(log, name, "B", c0, t + b, tid=tid)
        health_chromium(log, name, "E", c0, t + e, tid=tid)

    dynamo_start(log, c0, 20)
    health_chromium(log, "entire_frame_compile", "B", c0, t)
    span("bytecode_tracing", 10000, 110000)
    health_chromium(log, "backend_compile", "B", c0, t + 200000)
    span("inductor_codecache_torch_key", 210000, 240000)
    health_chromium(log, "inductor_compile", "B", c0, t + 300000)
    health_chromium(log, "mm_template_autotuning", "B", c0, t + 350000)
    span("compile_file", 400000, 420000)
    health_chromium(log, "mm_template_autotuning", "E", c0, t + 450000)
    health_chromium(log, "code_gen", "B", c0, t + 500000)
    span("compile_file", 550000, 650000)
    span("compile_file", 600000, 700000, tid=1)
    small_compile(log, c0, tag="p")
    health_chromium(log, "code_gen", "E", c0, t + 800000)
    health_chromium(log, "inductor_compile", "E", c0, t + 850000)
    health_chromium(log, "backend_compile", "E", c0, t + 900000)
    health_metrics(log, c0, "forward", 20, entire_frame_compile_time_s=1.0,
                   backend_compile_time_s=0.7, inductor_compile_time_s=0.55,
                   code_gen_time_s=0.3,
                   dynamo_cumulative_compile_time_us=1000000,
                   aot_autograd_cumulative_compile_time_us=700000,
                   inductor_cumulative_compile_time_us=550000,
                   inductor_code_gen_cumulative_compile_time_us=300000)
    health_chromium(log, "entire_frame_compile", "E", c0, t + 1000000)
    log.event("compilation_metrics_runtime", {
        "runtime_triton_autotune_time_us": 250000, "is_runtime": True},
        cid=c0, path="torch/_dynamo/utils.py", lineno=1045)
    health_chromium(log, "entire_backward_compile", "B", c0, t + 2000000)
    health_chromium(log, "inductor_compile", "B", c0, t + 2010000)
    health_chromium(log, "code_gen", "B", c0, t + 2100000)
    span("compile_file", 2200000, 2300000)
    health_chromium(log, "code_gen", "E", c0, t + 2400000)
    health_chromium(log, "inductor_compile", "E", c0, t + 2490000)
    log.event("bwd_compilation_metrics", {
        "inductor_compile_time_s": 0.48, "code_gen_time_s": 0.3,
        "duration_us": 500000, "inductor_cumulative_compile_time_us": 480000,
        "inductor_code_gen_cumulative_compile_time_us": 300000,
        "backward_cumulative_compile_time_us": 500000, "is_runtime": False},
        cid=c0, path="torch/_dynamo/utils.py", lineno=1045)
    health_chromium(log, "entire_backward_compile", "E", c0, t + 2500000)
    c1 = (1, 0, 0)
    dynamo_start(log, c1, 30)
    small_compile(log, c1, tag="q")
    health_metrics(log, c1, "step", 30)
    return log.text()


def gen_ids():
    log = TraceLog(month_day="1206", hour=15)
    small_compile(log, {"compiled_autograd_id": 1, "frame_id": 2,
                        "frame_compile_id": 0, "attempt": 0}, tag="g")
    small_compile(log, {"compiled_autograd_id": 0}, tag="h")
    small_compile(log, {"frame_id": 3, "frame_compile_id": 0}, tag="k")
    small_compile(log, {"compiled_autograd_id": None, "frame_id": 4,
                        "frame_compile_id": 1, "attempt": 2}, tag="m", rank=2)
    return log.text()


# --------------------------------------------------------------------------
# health.log: compile health (FORMAT.md sections 1.5, 2 and 3; shapes as
# PyTorch writes them). Frame 0 breaks its graph: attempt 0 restarts
# (dynamo_graph_break_reason), attempt 1 succeeds (restart_reasons in its
# metrics, a dynamo_guards list, cache misses). Frame 1 compiles (FX cache
# hit, C++ guards) and recompiles (recompile_reasons, as a JSON list, then
# as the plain lines newer PyTorch writes; a cache miss whose key differs
# in one component). Frame 2 fails (dynamo_error, fail_type). Chromium
# events: a B/E pair, an X span, an instant, one outside any compile, a
# B without its E; broken on purpose: a chromium payload that is not JSON
# and one without a phase.

def health_chromium(log, name, ph, cid, ts, rank=None, **kw):
    ev = {"name": name, "ts": ts, "args": {}, "ph": ph, "cat": "dynamo_timed",
          "tid": 0, "pid": 0}
    ev.update(kw)
    log.event("chromium_event", cid=cid, rank=rank,
              payload=json.dumps(ev, indent=0),
              path="torch/_dynamo/utils.py", lineno=1900)


def fx_components(shape, cpp_wrapper="False"):
    return [
        "[ulqiww7tldpq2tcxecgbgpqkxvq35hx72nazld2likgnixupgvh] gm: <lambda>()\n\n"
        "def forward(self, arg0_1):\n    sin = torch.ops.aten.sin.default(arg0_1)\n"
        "    return (sin,)",
        "[%s] example_inputs[0]: "
        "TensorMetadata(dtype=torch.float32, shape=torch.Size([%d]), "
        "device=device(type='cpu'))" % (
            "2xbto62gqwflxftjm3a7nuaa7trao3tnlin4cd6kjm6iaymig7y" if shape == 4
            else "k5h2bq4rmg2z6t3wfyjx3nl2op7a4s5dv6cu7e8f9gxh1i2j3k4", shape),
        "[esstihe2nyydk4mhzpvox3qkajyu5y5t23hk3fi2me7jn75xi3o] "
        "fx_kwargs[cpp_wrapper]: " + cpp_wrapper,
        "[du4vyrfyozrfxcf6kk6ma7oqwatapifazeelfsawmsiu6gjdtxp] "
        "deterministic_algorithms_settings: (False, False, True)",
    ]


def health_metrics(log, cid, co_name, line, **kw):
    m = {"frame_key": "1", "co_name": co_name, "co_filename": MODEL,
         "co_firstlineno": line, "cache_size": 0, "accumulated_cache_size": 0,
         "guard_count": 4, "graph_op_count": 1, "graph_node_count": 3,
         "graph_input_count": 1, "entire_frame_compile_time_s": 0.25,
         "backend_compile_time_s": 0.125, "inductor_compile_time_s": None,
         "fail_type": None, "fail_reason": None,
         "fail_user_frame_filename": None, "fail_user_frame_lineno": None,
         "restart_reasons": [], "dynamo_config": "{\"verbose\": false}"}
    m.update(kw)
    log.event("compilation_metrics", m, cid=cid, path="torch/_dynamo/utils.py",
              lineno=1045)


def gen_health():
    log = TraceLog(month_day="0718", hour=15)
    string_table(log)
    t = 1752877801000000.0
    health_chromium(log, "compile_file", "X", None, t, dur=125.0)
    # Frame 0: a graph break, so a restart.
    c0 = (0, 0, 0)
    dynamo_start(log, c0, 20)
    health_chromium(log, "dynamo", "B", c0, t + 1000)
    log.artifact("dynamo_graph_break_reason",
                 "Graph break in user code at %s:22\n"
                 "Graph Break Reason: Call to `torch._dynamo.graph_break()`\n"
                 "  Explanation: User-inserted graph break. Message: None\n"
                 "\n"
                 "User code traceback:\n"
                 "  File \"%s\", line 22, in forward\n"
                 "    torch._dynamo.graph_break()\n" % (MODEL, MODEL),
                 cid=c0, path="torch/_dynamo/symbolic_convert.py", lineno=5098)
    health_chromium(log, "dynamo", "E", c0, t + 3000)
    c01 = (0, 0, 1)
    health_chromium(log, "dynamo", "B", c01, t + 4000)
    log.event("dynamo_guards", cid=c01, payload="[\n" + ",\n".join(
        json.dumps({"code": c, "stack": None, "user_stack": None}) for c in [
            "hasattr(L['x'], '_dynamo_dynamic_indices') == False",
            "utils_device.CURRENT_DEVICE == None"]) + "\n]",
        path="torch/_dynamo/guards.py", lineno=1894)
    log.artifact("aotautograd_cache_miss", json.dumps({
        "key": "aqxz0", "cache_state": "miss",
        "components": ["[c4wggpwp] aot_config: (0, True)"]}),
        encoding="json", cid=c01, lineno=1176)
    log.artifact("fx_graph_cache_miss", json.dumps({
        "key": "fxk0", "cache_status_detailed": "full_miss",
        "components": fx_components(4)}), encoding="json", cid=c01, lineno=751)
    health_chromium(log, "fx_graph_cache_miss", "i", c01, t + 5000, s="p")
    small_compile(log, c01, tag="a0")
    health_metrics(log, c01, "forward", 20, restart_reasons=[
        "Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted "
        "graph break. Message: None"])
    health_chromium(log, "dynamo", "E", c01, t + 9000)
    # Frame 1: compiles from the FX cache, then recompiles.
    c1 = (1, 0, 0)
    dynamo_start(log, c1, 30)
    health_chromium(log, "dynamo", "B", c1, t + 10000)
    log.artifact("fx_graph_cache_hit", json.dumps({
        "key": "fxk1", "cache_status_detailed": "hit", "time_saved_ms": 812.5,
        "components": fx_components(4)}), encoding="json", cid=c1, lineno=751)
    log.event("dynamo_cpp_guards_str", cid=c1, payload=
              "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n"
              "| +- LAMBDA_GUARD: L['x'].size()[0] == 4\n",
              path="torch/_dynamo/guards.py", lineno=3029)
    health_metrics(log, c1, "step", 30, entire_frame_compile_time_s=0.5)
    health_chromium(log, "dynamo", "E", c1, t + 12000)
    c11 = (1, 1, 0)
    log.artifact("recompile_reasons", "[\n" + json.dumps(
        "1/0: tensor 'x' size mismatch at index 0. expected 4, actual 6") +
        "\n]", encoding="json", cid=c11, path="torch/_dynamo/guards.py",
        lineno=3564)
    dynamo_start(log, c11, 30)
    health_chromium(log, "dynamo", "B", c11, t + 13000)
    log.artifact("fx_graph_cache_miss", json.dumps({
        "key": "fxk2", "cache_status_detailed": "full_miss",
        "components": fx_components(6)}), encoding="json", cid=c11, lineno=751)
    small_compile(log, c11, tag="b")
    health_metrics(log, c11, "step", 30, cache_size=1)
    health_chromium(log, "dynamo", "E", c11, t + 16000)
    c12 = (1, 2, 0)
    log.artifact("recompile_reasons",
                 "1/1: tensor 'x' size mismatch at index 0. expected 6, "
                 "actual 8\n1/0: tensor 'x' size mismatch at index 0. "
                 "expected 4, actual 8", encoding="json", cid=c12,
                 path="torch/_dynamo/guards.py", lineno=5400)
    dynamo_start(log, c12, 30)
    log.artifact("fx_graph_cache_bypass", json.dumps({
        "cache_bypass_reason": "Can't cache HigherOrderOperators",
        "cache_state": "bypass"}), encoding="json", cid=c12, lineno=751)
    health_metrics(log, c12, "step", 30, cache_size=2, graph_op_count=0)
    # Frame 2 fails in the backend.
    c2 = (2, 0, 0)
    dynamo_start(log, c2, 40)
    health_chromium(log, "dynamo", "B", c2, t + 20000)
    log.artifact("dynamo_error",
                 "Traceback (most recent call last):\n"
                 "  File \"/usr/lib/python3/torch/_dynamo/output_graph.py\", "
                 "line 1500, in call_user_compiler\n"
                 "    compiled_fn = compiler_fn(gm, example_inputs)\n"
                 "  File \"%s\", line 12, in broken_backend\n"
                 "    raise RuntimeError(\"broken backend\")\n"
                 "RuntimeError: broken backend\n" % MODEL,
                 cid=c2, path="torch/_dynamo/convert_frame.py", lineno=1011)
    health_metrics(log, c2, "tail", 40, guard_count=None, graph_op_count=None,
                   fail_type="BackendCompilerFailed",
                   fail_reason="backend='broken_backend' raised:\n"
                   "RuntimeError: broken backend",
                   fail_user_frame_filename=MODEL, fail_user_frame_lineno=41)
    # Broken on purpose: not JSON; no phase. And a B left open.
    log.event("chromium_event", cid=c2, payload="{\n\"name\": \"dynamo\",",
              path="torch/_dynamo/utils.py", lineno=1900)
    log.event("chromium_event", cid=c2, payload=json.dumps(
        {"name": "x", "ts": t}), path="torch/_dynamo/utils.py", lineno=1900)
    health_chromium(log, "backend_compile", "B", c2, t + 21000)
    return log.text()


# --------------------------------------------------------------------------
# reasons.log: whole reasons and user frames (issue 18), with torch run from
# a source checkout (/home/dev/pytorch/torch/...: no site-packages in its
# paths, so only the traceback's own torch/_dynamo frames tell it is
# torch's). Frame 0 fails on a custom op without a fake implementation:
# the metrics name custom_ops.py, the dynamo_error traceback's "from user
# code:" part has the user's model.py:24, then a standard-library frame and
# torch's; the reason holds backtick runs (a fence of three and one of
# four) that must not end the report's fenced block. Frame 1 breaks its
# graph in torch's optimizer.py (a break while handling a break, the
# "graph break in loop" kind) called from the user's train.py:33, restarts
# and compiles; its recompile 1/1 breaks the same way and says why it
# recompiled.

TORCH_SRC = "/home/dev/pytorch/torch"


def reasons_break(log, cid):
    log.artifact("dynamo_graph_break_reason",
                 "Graph break in user code at %s/optim/optimizer.py:79\n"
                 "Graph Break Reason: Encountered graph break when attempting "
                 "to trace CALL: a function call, e.g. f(x, y):\n"
                 "\n"
                 "Call to `torch._dynamo.graph_break()`\n"
                 "  Explanation: User-inserted graph break. Message: None\n"
                 "\n"
                 "*** While handling this graph break, another graph break "
                 "occurred: ***\n"
                 "\n"
                 "graph break in loop\n"
                 "  Explanation: torch.compile detected a graph break in a "
                 "for/while loop. Skipping the frame and falling back to "
                 "eager, as graph breaks in loops are not supported.\n"
                 "\n"
                 "User code traceback:\n"
                 "  File \"/home/user/proj/train.py\", line 33, in main\n"
                 "    opt.step()\n"
                 "  File \"%s/optim/optimizer.py\", line 79, in _use_grad\n"
                 "    torch._dynamo.graph_break()\n"
                 "\n"
                 "Traceback (most recent call last):\n"
                 "  File \"%s/_dynamo/symbolic_convert.py\", line 1076, in "
                 "wrapper\n"
                 "    return inner_fn(self, inst)\n"
                 "torch._dynamo.exc.Unsupported: Call to "
                 "`torch._dynamo.graph_break()`\n" % (TORCH_SRC, TORCH_SRC,
                                                      TORCH_SRC),
                 cid=cid, path="torch/_dynamo/symbolic_convert.py",
                 lineno=5098)


def gen_reasons():
    log = TraceLog(month_day="1204", hour=15)
    string_table(log)
    c0 = (0, 0, 0)
    dynamo_start(log, c0, 20)
    reason = ("RuntimeError when making fake tensor call\n"
              "  Explanation: got RuntimeError('There was no fake impl "
              "registered for <CustomOpDef(mylib::scale_rows)>. Please use "
              "`scale_rows.register_fake` to add an fake impl.')\n"
              "```\n"
              "````python\n"
              "# [not a link](javascript:alert(1))\n"
              "````")
    log.artifact("dynamo_error",
                 "Traceback (most recent call last):\n"
                 "  File \"%s/_dynamo/convert_frame.py\", line 2102, in "
                 "_compile\n"
                 "    guarded_code = compile_inner(code, one_graph, hooks)\n"
                 "  File \"%s/_dynamo/utils.py\", line 3938, in _wrap\n"
                 "    raise exc\n"
                 "torch._dynamo.exc.TorchRuntimeError: %s\n"
                 "\n"
                 "from user code:\n"
                 "   File \"%s\", line 24, in forward\n"
                 "    return scale_rows(x, s)\n"
                 "  File \"/usr/lib/python3.11/functools.py\", line 412, in "
                 "wrapper\n"
                 "    return f(*a)\n"
                 "  File \"%s/_library/custom_ops.py\", line 863, in "
                 "__call__\n"
                 "    return self._opoverload(*args, **kwargs)\n"
                 "\n"
                 "Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace.\n"
                 "\n" % (TORCH_SRC, TORCH_SRC, reason, MODEL, TORCH_SRC),
                 cid=c0, path="torch/_dynamo/convert_frame.py", lineno=2134)
    health_metrics(log, c0, "forward", 20, guard_count=None,
                   fail_type="TorchRuntimeError", fail_reason=reason,
                   fail_user_frame_filename=TORCH_SRC +
                   "/_library/custom_ops.py", fail_user_frame_lineno=863)
    # Frame 1: a break in torch's optimizer, a restart, then a recompile
    # that breaks the same way.
    c1 = (1, 0, 0)
    dynamo_start(log, c1, 30)
    reasons_break(log, c1)
    health_metrics(log, (1, 0, 1), "step", 30, restart_reasons=[
        "Call to `torch._dynamo.graph_break()`"])
    c11 = (1, 1, 0)
    log.artifact("recompile_reasons", "[\n" + json.dumps(
        "1/0: len(self.state[list(dict.keys(self.state))[0]]) != 0") +
        "\n]", encoding="json", cid=c11, path="torch/_dynamo/guards.py",
        lineno=3564)
    dynamo_start(log, c11, 30)
    reasons_break(log, c11)
    health_metrics(log, (1, 1, 1), "step", 30, cache_size=1, restart_reasons=[
        "Call to `torch._dynamo.graph_break()`"])
    return log.text()


# --------------------------------------------------------------------------
# trace_ranks/: chromium_event spans of two ranks for tlp-emit
# --chrome-trace: a parent and a child that begin at the same time, a second
# thread, a span name with quotes, a backslash and non-ASCII, an instant, a
# complete X event, an E without its B (dropped), a B left open and a span
# that ends in the attempt after a restart.

def gen_trace_rank(rank):
    log = TraceLog(month_day="0718", hour=15, pid=2000 + rank)
    string_table(log)
    t = 1752877900000000.0 + rank * 100.0
    c0 = (0, 0, 0)
    dynamo_start(log, c0, 20, rank=rank)
    ev = lambda name, ph, cid, ts, **kw: health_chromium(
        log, name, ph, cid, ts, rank=rank, **kw)
    ev("dynamo", "B", c0, t)
    ev("entire_frame_compile", "B", c0, t)
    ev("fx_graph_cache_miss", "i", c0, t + 250.5, s="p")
    ev("entire_frame_compile", "E", c0, t + 1500)
    ev("dynamo", "E", c0, t + 2000.4)
    c1 = (1, 0, 0)
    dynamo_start(log, c1, 30, rank=rank)
    ev("dynamo", "B", c1, t + 3000)
    ev("compile \"fx\" \\ \u00e9tape", "X", c1, t + 3100, dur=400.0,
       tid=7)
    ev("never_began", "E", c1, t + 3600)
    ev("dynamo", "E", c1, t + 4000)
    if rank == 1:
        ev("backend_compile", "B", c1, t + 5000)
    # Dynamo restarts frame 2: its span begins in attempt 0, ends in 1.
    c2, c21 = (2, 0, 0), (2, 0, 1)
    dynamo_start(log, c2, 40, rank=rank)
    ev("dynamo", "B", c2, t + 6000)
    ev("dynamo", "E", c21, t + 6800)
    return log.text()


# --------------------------------------------------------------------------
# jit_cpu_nodetree.log: jit_cpu_v1's first compile without the combined
# mapping: provenance comes from the older separate artifacts only.

def gen_jit_cpu_nodetree():
    text = gen_jit_cpu_v1()
    out, skip = [], False
    for line in text.split("\n"):
        if not line.startswith("\t"):
            skip = "inductor_provenance_tracking_node_mappings" in line
        if not skip:
            out.append(line)
    return "\n".join(out)


# --------------------------------------------------------------------------
# strings.log: text the IR must carry through a print/parse round trip:
# quotes, backslashes, tabs, a CR inside a line, non-ASCII, invalid UTF-8
# (replaced, with a warning), lines that look like YAML, leading spaces and
# empty lines, a trailing empty line.

def gen_strings():
    log = TraceLog(month_day="0101", hour=1)
    cid = (0, 0, 0)
    pre = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4][1]cpu"):
        l_x_ = L_x_
        
         # File: /home/user/caf\u00e9/m\u00f6del "quoted" it's.py:7 in forward, code: y = x * 2  # \u03bb: a\tb \\ c
        y: "f32[4][1]cpu" = l_x_ * 2;  l_x_ = None
        return (y,)
        
- not a list item
--- not a document
...
key: value # with a comment
\tcarriage\rreturn in the middle
bad byte \udcff here
   leading spaces

"""
    log.artifact("before_pre_grad_graph", pre, cid=cid)
    return log.text()

# --------------------------------------------------------------------------
# html_escape.log: log text that would break a page if it were not escaped
# (for the HTML emitter): "</script>", "<!--", tags and quotes in a source
# path, user code, a kernel body, a stack trace, triton_kernel_info and a
# mapping name that names nothing (so a diagnostic carries it too).

ESC_FILE = '/home/user/</script><script>window.__tlp_pwned=1</script>/m "q" \'s\'.py'
ESC_CODE = 'y = x * 2  # <!-- <b>bold</b> & <img src=x onerror="window.__tlp_pwned=2">'

ESC_PRE = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[8][1]cuda:0"):
        l_x_ = L_x_
        
         # File: {f}:7 in forward, code: {c}
        y: "f32[8][1]cuda:0" = l_x_ * 2;  l_x_ = None
        return (y,)
        

 # graph id: 140000000000007""".format(f=ESC_FILE, c=ESC_CODE)

ESC_POST = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8][1]cuda:0"):
         # File: {f}:7 in forward, code: {c}
        mul: "f32[8][1]cuda:0" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
        return (mul,)
        """.format(f=ESC_FILE, c=ESC_CODE)

ESC_CODE_TEXT = PY_HEADER.format(aot_id="0_inference", device_imports=CUDA_IMPORTS) + """

# kernel path: /tmp/torchinductor_user/es/cesc.py
# Topologically Sorted Source Nodes: [y], Original ATen: [aten.mul]
""" + triton_src("triton_poi_fused_mul_0",
                 "in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr",
                 """    # </script><!-- a comment that is not one -->
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tmp2 = tmp0 * 2.0
    tl.store(out_ptr0 + (xindex), tmp2, xmask)
""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((8, ), (1, ), torch.float32)
        # Topologically Sorted Source Nodes: [y], Original ATen: [aten.mul]
        # [Provenance debug handles] triton_poi_fused_mul_0:1
        stream0 = get_raw_stream(0)
        triton_poi_fused_mul_0.run(arg0_1, buf0, 8, stream=stream0)
        del arg0_1
    return (buf0, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.float32)",
    bench_args="arg0_1")


def gen_html_escape():
    log = TraceLog(month_day="0202", hour=2)
    cid = (0, 0, 0)
    log.artifact("before_pre_grad_graph", ESC_PRE, cid=cid)
    log.artifact("after_post_grad_graph", ESC_POST, cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/torchinductor_user/es/cesc.py"},
              cid=cid, payload=ESC_CODE_TEXT, path="torch/_inductor/graph.py", lineno=2390)
    log.artifact("triton_kernel_info", json.dumps({
        "triton_poi_fused_mul_0": {"autotune_cache_state": "</script><!--",
                                   "only_config": [["XBLOCK", 8]]}}),
        encoding="json", cid=cid, path="torch/_inductor/async_compile.py", lineno=117)
    log.artifact("inductor_provenance_tracking_node_mappings", node_mapping(
        {"y": ["mul"], "</script><b>ghost</b>": ["mul"]},
        {"triton_poi_fused_mul_0:1": ["mul"]}), encoding="json", cid=cid)
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps({
        "triton_poi_fused_mul_0:1": [
            '  File "%s", line 7, in forward\n    %s\n' % (ESC_FILE, ESC_CODE)]}),
        encoding="json", cid=cid)
    return log.text()


# --------------------------------------------------------------------------
# markup.log: log text that means something to Markdown, GFM, HTML, DOT and
# GitHub (| * _ ` [ ] < > & # @ ~ $ \ " and newlines) in a source path, in
# user code lines, in stack traces and in a mapping kernel key that names
# no call (a kernel row of its own, and a warning). One JIT CPU compile with
# a cpp kernel, a vanished pre-grad node and a fallback call.

MARKUP_FILE = '/home/user/we|rd [dir]/<b>m*o_d`e`l&amp;.py'
MARKUP_CODE = 'y = x | 1  # *not* _em_ `code` [a](http://x) <script>alert(1)</script> &amp; @user #1 ~~s~~ $x$ \\ "q"'


def gen_markup():
    log = TraceLog(month_day="0202", hour=2)
    cid = (0, 0, 0)
    pre = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4][1]cpu"):
        l_x_ = L_x_
        
         # File: {f}:7 in forward, code: {c}
        y: "f32[4][1]cpu" = l_x_ + 1;  l_x_ = None
        
         # File: {f}:8 in forward, code: dead = y * 0  # <i>unused</i>
        dead: "f32[4][1]cpu" = y * 0
        
         # File: {f}:9 in forward, code: n = torch.nonzero(y)
        n: "i64[u0, 1][1, 1]cpu" = torch.nonzero(y)
        return (y, n)
        """.format(f=MARKUP_FILE, c=MARKUP_CODE)
    post = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
         # File: {f}:7 in forward, code: {c}
        add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
        
         # File: {f}:9 in forward, code: n = torch.nonzero(y)
        nonzero: "i64[u0, 1][1, 1]cpu" = torch.ops.aten.nonzero.default(add)
        return (add, nonzero)
        """.format(f=MARKUP_FILE, c=MARKUP_CODE)
    code = PY_HEADER.format(aot_id="0_inference", device_imports="") + """

# Topologically Sorted Source Nodes: [y], Original ATen: [aten.add]
""" + cpp_src("cpp_fused_add_0", "'const float*', 'float*'",
              "const float* in_ptr0, float* out_ptr0",
              """    for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(4LL); x0+=static_cast<int64_t>(1LL))
    {
        out_ptr0[x0] = in_ptr0[x0] + 1.0f;
    }""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (4, ), (1, ))
    buf0 = empty_strided_cpu((4, ), (1, ), torch.float32)
    # [Provenance debug handles] cpp_fused_add_0:1
    cpp_fused_add_0(arg0_1, buf0)
    del arg0_1
    # [Provenance debug handles] torch.ops.aten.nonzero.default:2
    buf1 = torch.ops.aten.nonzero.default(buf0)
    return (buf0, buf1, )
""" + PY_FOOTER.format(
        bench_inputs="    arg0_1 = rand_strided((4, ), (1, ), device='cpu', dtype=torch.float32)",
        bench_args="arg0_1")
    trace = '  File "%s", line %d, in forward\n    %s\n'
    log.artifact("before_pre_grad_graph", pre, cid=cid)
    log.artifact("after_post_grad_graph", post, cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/torchinductor_user/mk/cmk.py"},
              cid=cid, payload=code, path="torch/_inductor/graph.py", lineno=2390)
    log.artifact("inductor_provenance_tracking_node_mappings", node_mapping(
        {"y": ["add"], "n": ["nonzero"]},
        {"cpp_fused_add_0:1": ["add"],
         "torch.ops.aten.nonzero.default:2": ["nonzero"],
         "we|rd`k`<i>*x*</i>:3": ["add"]}), encoding="json", cid=cid)
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps({
        "cpp_fused_add_0:1": [trace % (MARKUP_FILE, 7, MARKUP_CODE)],
        "torch.ops.aten.nonzero.default:2": [
            trace % (MARKUP_FILE, 9, "n = torch.nonzero(y)")]}),
        encoding="json", cid=cid)
    return log.text()


# --------------------------------------------------------------------------
# stack_escapes.log: kernel stack traces whose newlines are escaped twice, so
# that the decoded JSON strings hold a literal backslash-n (TLPARSE.md
# section 2: tlparse's readable page turns a literal \n into a newline).
# One trace has three frames on one escaped line, one mixes real and
# escaped newlines, one is escaped and also ends with a literal \n.

def gen_stack_escapes():
    log = TraceLog(month_day="0303", hour=3)
    cid = (0, 0, 0)
    pre = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4][1]cpu"):
        l_x_ = L_x_
        
         # File: {f}:7 in forward, code: y = torch.sigmoid(x)
        y: "f32[4][1]cpu" = torch.sigmoid(l_x_);  l_x_ = None
        
         # File: {f}:8 in forward, code: z = y * 2
        z: "f32[4][1]cpu" = y * 2;  y = None
        return (z,)
        """.format(f=MODEL)
    post = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
         # File: {f}:7 in forward, code: y = torch.sigmoid(x)
        sigmoid: "f32[4][1]cpu" = torch.ops.aten.sigmoid.default(arg0_1);  arg0_1 = None
        
         # File: {f}:8 in forward, code: z = y * 2
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(sigmoid, 2);  sigmoid = None
        return (mul,)
        """.format(f=MODEL)
    code = PY_HEADER.format(aot_id="0_inference", device_imports="") + """

# Topologically Sorted Source Nodes: [y, z], Original ATen: [aten.sigmoid, aten.mul]
""" + cpp_src("cpp_fused_mul_sigmoid_0", "'const float*', 'float*'",
              "const float* in_ptr0, float* out_ptr0",
              """    for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(4LL); x0+=static_cast<int64_t>(1LL))
    {
        out_ptr0[x0] = 2.0f / (1.0f + std::exp(-in_ptr0[x0]));
    }""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (4, ), (1, ))
    buf0 = empty_strided_cpu((4, ), (1, ), torch.float32)
    # [Provenance debug handles] cpp_fused_mul_sigmoid_0:1
    cpp_fused_mul_sigmoid_0(arg0_1, buf0)
    del arg0_1
    return (buf0, )
""" + PY_FOOTER.format(
        bench_inputs="    arg0_1 = rand_strided((4, ), (1, ), device='cpu', dtype=torch.float32)",
        bench_args="arg0_1")
    lib = "/usr/lib/python3/site-packages/torch/nn/modules/activation.py"
    frames = [(MODEL, 7, "forward", "y = torch.sigmoid(x)"),
              (lib, 359, "forward", "return torch.sigmoid(input)"),
              (MODEL, 8, "forward", "z = y * 2")]
    lit = "\\n"  # a backslash and an n in the decoded string
    one_line = lit.join('  File "%s", line %d, in %s%s    %s' % (f, l, fn, lit, c)
                        for f, l, fn, c in frames[:2]) + lit
    mixed = ('  File "%s", line %d, in %s\n    %s' % frames[2] + lit +
             '  File "%s", line %d, in %s%s    %s\n' % (frames[1][:3] + (lit, frames[1][3])))
    log.artifact("before_pre_grad_graph", pre, cid=cid)
    log.artifact("after_post_grad_graph", post, cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/torchinductor_user/se/cse.py"},
              cid=cid, payload=code, path="torch/_inductor/graph.py", lineno=2390)
    log.artifact("inductor_provenance_tracking_node_mappings", node_mapping(
        {"y": ["sigmoid"], "z": ["mul"]},
        {"cpp_fused_mul_sigmoid_0:1": ["sigmoid", "mul"]}), encoding="json", cid=cid)
    log.artifact("inductor_provenance_tracking_kernel_stack_traces", json.dumps(
        {"cpp_fused_mul_sigmoid_0:1": [one_line, mixed]}), encoding="json", cid=cid)
    return log.text()


# --------------------------------------------------------------------------
# not_read.log: one JIT CPU compile (0/0) among the events a PyTorch 2.13
# log carries and tlp does not read (FORMAT.md 3, in the order of a real
# compile): envelope kinds tlp knows (chromium_event, describe_*,
# dynamo_output_graph, guards, metrics), artifact names it does not read
# (after_pre_grad_graph, fx_graph_runnable, ...), a graph_dump name it does
# not read, and a kind no version of PyTorch wrote. Each is counted in
# unknown_kinds, by envelope kind or `artifact:NAME` / `graph_dump:NAME`.

def gen_not_read():
    log = TraceLog(month_day="1203", hour=7)
    string_table(log)
    cid = (0, 0, 0)
    chromium(log, "dynamo", "B", cid)
    dynamo_start(log, cid, 20)
    for i, kind in enumerate(("describe_storage", "describe_tensor", "describe_source")):
        log.event(kind, {"id": 0, "describer_id": 0}, cid=cid,
                  path="torch/_subclasses/meta_utils.py", lineno=270 + i)
    log.event("dynamo_output_graph", {"sizes": {"l_x_": [8, 10]}}, cid=cid,
              payload=CPU_PRE_0, path="torch/_dynamo/output_graph.py", lineno=1580)
    log.artifact("before_pre_grad_graph", CPU_PRE_0, cid=cid, lineno=2045)
    log.artifact("after_pre_grad_graph", CPU_PRE_0, cid=cid, lineno=2060)
    log.artifact("torch._functorch.config", "debug_assert = False", cid=cid)
    log.event("aot_inference_graph", cid=cid, payload=CPU_POST_0,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1633)
    log.artifact("fx_graph_runnable", "import torch\n", cid=cid)
    log.artifact("before_post_grad_graph", CPU_POST_0, cid=cid)
    log.artifact("inductor_post_grad_graph", CPU_POST_0, cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/c.py"}, cid=cid,
              payload=CPU_CODE_0, path="torch/_inductor/graph.py", lineno=2347)
    log.event("graph_dump", {"name": "inductor_aot_header_code", "type": "cpp",
                             "filename": "/tmp/c.h"}, cid=cid,
              payload="#pragma once", path="torch/_inductor/codecache.py",
              lineno=1750)
    log.artifact("fx_graph_cache_miss", json.dumps({"key": "f0"}),
                 encoding="json", cid=cid)
    log.event("dynamo_cpp_guards_str", cid=cid, payload="TREE_GUARD_MANAGER:",
              path="torch/_dynamo/guards.py", lineno=2700)
    log.event("compilation_metrics", {"compile_id": "0/0", "co_name": "forward"},
              cid=cid, path="torch/_dynamo/utils.py", lineno=1400)
    chromium(log, "dynamo", "E", cid)
    log.event("a_kind_from_the_future", cid=cid)
    log.artifact("torch_version", json.dumps({"version": "2.13.0+cpu"}),
                 encoding="json")
    return log.text()


# --------------------------------------------------------------------------
# restart.log: two shapes of PyTorch 2.13 logs (utils/gen-torch-logs.py,
# runs graph-break and train). 0/0 restarts when Dynamo meets a graph break
# while tracing: dynamo_start is logged once with attempt 0, the compile
# with attempt 1 (`0/0_1`), and the unit takes the frame of attempt 0.
# 0/0_1 also has a provenance mapping with no entries (`{"version": 2.0}`,
# as 2.13 writes for a CPU backward): linked as a unit without a mapping
# (from the wrapper's comments), with a note. create_symbol (dynamic shapes) is a kind tlp knows and does not read.

def gen_restart():
    log = TraceLog(month_day="1203", hour=7)
    string_table(log)
    first, cid = (0, 0, 0), (0, 0, 1)
    dynamo_start(log, first, 20)
    log.event("create_symbol", {"symbol": "s0", "val": 8}, cid=first,
              path="torch/fx/experimental/symbolic_shapes.py", lineno=5000)
    log.artifact("dynamo_graph_break_reason", "Call to graph_break()", cid=first)
    log.artifact("before_pre_grad_graph", CPU_PRE_0, cid=cid, lineno=2045)
    log.event("aot_inference_graph", cid=cid, payload=CPU_POST_0,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1633)
    log.artifact("inductor_post_grad_graph", CPU_POST_0, cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/c0.py"}, cid=cid,
              payload=CPU_CODE_0, path="torch/_inductor/graph.py", lineno=2347)
    log.artifact("inductor_provenance_tracking_node_mappings",
                 json.dumps({"version": 2.0}), encoding="json", cid=cid)
    cid = (1, 0, 0)
    log.event("dynamo_start", {"stack": [
        {"line": 40, "name": "<module>", "filename": 1, "loc": "main()"},
        {"line": 33, "name": "torch_dynamo_resume_in_forward_at_32",
         "filename": 2}]}, cid=cid, path="torch/_dynamo/convert_frame.py",
        lineno=1059)
    log.artifact("before_pre_grad_graph", CPU_PRE_1, cid=cid, lineno=2045)
    log.event("aot_inference_graph", cid=cid, payload=CPU_POST_1,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1633)
    log.artifact("inductor_post_grad_graph", CPU_POST_1, cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/c1.py"}, cid=cid,
              payload=CPU_CODE_1, path="torch/_inductor/graph.py", lineno=2347)
    return log.text()



# --------------------------------------------------------------------------
# xrank/: one job on three ranks (envelope ranks as the file names say).
# Compile 0/0 (an all_reduce between a relu and an add) is the same on every
# rank; compile 1/0 is the same on ranks 0 and 1, but rank 2 took another
# branch: an extra mul, fused into the sum kernel. Compile 2/0 exists only
# on rank 0. For the cross-rank view and tlp-emit --diff.

XR_PRE_0 = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8][8, 1]cpu"):
        l_x_ = L_x_
        
         # File: {m}:10 in forward, code: y = torch.relu(x)
        y: "f32[4, 8][8, 1]cpu" = torch.relu(l_x_);  l_x_ = None
        
         # File: {m}:11 in forward, code: y = fc.all_reduce(y, "sum", group)
        tensor: "f32[4, 8][8, 1]cpu" = torch.ops._c10d_functional.all_reduce(y, 'sum', '0');  y = None
        y_1: "f32[4, 8][8, 1]cpu" = torch.ops._c10d_functional.wait_tensor(tensor);  tensor = None
        
         # File: {m}:12 in forward, code: return y + 1.0
        add: "f32[4, 8][8, 1]cpu" = y_1 + 1.0;  y_1 = None
        return (add,)
        

 # graph id: 140300000000100""".format(m=MODEL)

XR_POST_0 = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu"):
         # File: {m}:10 in forward, code: y = torch.relu(x)
        relu: "f32[4, 8][8, 1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        
         # File: {m}:11 in forward, code: y = fc.all_reduce(y, "sum", group)
        all_reduce: "f32[4, 8][8, 1]cpu" = torch.ops._c10d_functional.all_reduce_.default(relu, 'sum', '0');  relu = None
        wait_tensor: "f32[4, 8][8, 1]cpu" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None
        
         # File: {m}:12 in forward, code: return y + 1.0
        add: "f32[4, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(wait_tensor, 1.0);  wait_tensor = None
        return (add,)
        """.format(m=MODEL)

XR_CODE_0 = PY_HEADER.format(aot_id="0_inference", device_imports="") + """

""" + cpp_src("cpp_fused_relu_0", "'const float*', 'float*'",
              """const float* in_ptr0,
                       float* out_ptr0""",
              """    for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(32LL); x0+=static_cast<int64_t>(1LL))
    {
        auto tmp0 = in_ptr0[static_cast<int64_t>(x0)];
        out_ptr0[static_cast<int64_t>(x0)] = std::max(tmp0, decltype(tmp0)(0));
    }""") + """

""" + cpp_src("cpp_fused_add_1", "'const float*', 'float*'",
              """const float* in_ptr0,
                       float* out_ptr0""",
              """    for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(32LL); x0+=static_cast<int64_t>(1LL))
    {
        auto tmp0 = in_ptr0[static_cast<int64_t>(x0)];
        out_ptr0[static_cast<int64_t>(x0)] = tmp0 + static_cast<float>(1.0);
    }""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (4, 8), (8, 1))
    buf0 = empty_strided_cpu((4, 8), (8, 1), torch.float32)
    # Topologically Sorted Source Nodes: [y], Original ATen: [aten.relu]
    # [Provenance debug handles] cpp_fused_relu_0:1
    cpp_fused_relu_0(arg0_1, buf0)
    del arg0_1
    # Topologically Sorted Source Nodes: [tensor], Original ATen: [_c10d_functional.all_reduce]
    # [Provenance debug handles] torch.ops._c10d_functional.all_reduce_.default:2
    torch.ops._c10d_functional.all_reduce_.default(buf0, 'sum', '0')
    # Topologically Sorted Source Nodes: [y_1], Original ATen: [_c10d_functional.wait_tensor]
    # [Provenance debug handles] torch.ops._c10d_functional.wait_tensor.default:3
    torch.ops._c10d_functional.wait_tensor.default(buf0)
    buf3 = empty_strided_cpu((4, 8), (8, 1), torch.float32)
    # Topologically Sorted Source Nodes: [add], Original ATen: [aten.add]
    # [Provenance debug handles] cpp_fused_add_1:4
    cpp_fused_add_1(buf0, buf3)
    del buf0
    return (buf3, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((4, 8), (8, 1), device='cpu', dtype=torch.float32)",
    bench_args="arg0_1")

XR_MAP_0 = node_mapping(
    {"y": ["relu"], "tensor": ["all_reduce"], "y_1": ["wait_tensor"],
     "add": ["add"]},
    {"cpp_fused_relu_0:1": ["relu"],
     "torch.ops._c10d_functional.all_reduce_.default:2": ["all_reduce"],
     "torch.ops._c10d_functional.wait_tensor.default:3": ["wait_tensor"],
     "cpp_fused_add_1:4": ["add"]})


def xr_graphs_1(extra_mul):
    """Compile 1/0: x.sum() (ranks 0, 1) or (x * 2).sum() (rank 2)."""
    mul_pre = ("""         # File: {m}:21 in g, code: x = x * 2.0
        mul: "f32[4, 8][8, 1]cpu" = l_x_ * 2.0;  l_x_ = None
        
""".format(m=MODEL)) if extra_mul else ""
    src = "mul" if extra_mul else "l_x_"
    pre = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 8][8, 1]cpu"):
        l_x_ = L_x_
        
{mul}         # File: {m}:22 in g, code: return x.sum()
        sum_1: "f32[][]cpu" = {src}.sum();  {src} = None
        return (sum_1,)
        

 # graph id: 140300000000200""".format(m=MODEL, mul=mul_pre, src=src)
    mul_post = ("""         # File: {m}:21 in g, code: x = x * 2.0
        mul: "f32[4, 8][8, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2.0);  arg0_1 = None
        
""".format(m=MODEL)) if extra_mul else ""
    psrc = "mul" if extra_mul else "arg0_1"
    post = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu"):
{mul}         # File: {m}:22 in g, code: return x.sum()
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default({src});  {src} = None
        return (sum_1,)
        """.format(m=MODEL, mul=mul_post, src=psrc)
    kname = "cpp_fused_mul_sum_0" if extra_mul else "cpp_fused_sum_0"
    expr = "tmp0 * static_cast<float>(2.0)" if extra_mul else "tmp0"
    code = PY_HEADER.format(aot_id="1_inference", device_imports="") + """

""" + cpp_src(kname, "'const float*', 'float*'",
              """const float* in_ptr0,
                       float* out_ptr0""",
              """    {
        float tmp_acc0 = 0;
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(32LL); x0+=static_cast<int64_t>(1LL))
        {
            auto tmp0 = in_ptr0[static_cast<int64_t>(x0)];
            tmp_acc0 = tmp_acc0 + %s;
        }
        out_ptr0[static_cast<int64_t>(0LL)] = tmp_acc0;
    }""" % expr) + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (4, 8), (8, 1))
    buf0 = empty_strided_cpu((), (), torch.float32)
    # Topologically Sorted Source Nodes: [%s], Original ATen: [%s]
    # [Provenance debug handles] %s:1
    %s(arg0_1, buf0)
    del arg0_1
    return (buf0, )
""" % ("mul, sum_1" if extra_mul else "sum_1",
       "aten.mul, aten.sum" if extra_mul else "aten.sum", kname, kname) + PY_FOOTER.format(
        bench_inputs="    arg0_1 = rand_strided((4, 8), (8, 1), device='cpu', dtype=torch.float32)",
        bench_args="arg0_1")
    nodes = ["mul", "sum_1"] if extra_mul else ["sum_1"]
    mapping = node_mapping({n: [n] for n in nodes}, {kname + ":1": nodes})
    return pre, post, code, mapping


def gen_xrank(rank):
    log = TraceLog(month_day="0718", hour=16, pid=2000 + rank)
    string_table(log)
    computes = [((0, 0, 0), (XR_PRE_0, XR_POST_0, XR_CODE_0, XR_MAP_0), 5),
                ((1, 0, 0), xr_graphs_1(rank == 2), 20)]
    if rank == 0:
        computes.append(((2, 0, 0), xr_graphs_1(False), 20))
    for cid, (pre, post, code, mapping), line in computes:
        dynamo_start(log, cid, line, rank=rank)
        log.artifact("before_pre_grad_graph", pre, cid=cid, rank=rank)
        log.event("aot_inference_graph", cid=cid, payload=post, rank=rank,
                  path="torch/_functorch/_aot_autograd/graph_compile.py",
                  lineno=1460)
        log.artifact("inductor_post_grad_graph", post, cid=cid, rank=rank)
        log.event("inductor_output_code",
                  {"filename": "/tmp/torchinductor_u%d/x%d/c%d.py" %
                   (rank, cid[0], rank)},
                  cid=cid, payload=code, path="torch/_inductor/graph.py",
                  lineno=2390, rank=rank)
        log.artifact("inductor_provenance_tracking_node_mappings", mapping,
                     encoding="json", cid=cid, rank=rank)
    return log.text()


# --------------------------------------------------------------------------
# layers.log: a model of two blocks run by one loop (a deep model in small,
# docs/inference.md "Deep models"), JIT on CPU with a mapping v2 and debug
# handles: each line of the block (11, 12) comes back once per block in both
# graphs, and the fused kernel cpp_fused_add_relu_view_0 is called once per
# block with nothing in its calls telling the blocks apart. The test hides
# the mapping (strip-provenance): inference must pair the runs of lines 11
# and 12 with their block and choose each call of the fused kernel by the
# extern calls around it.

LAYERS_W = "L_self_modules_blocks_modules_{i}_modules_fc_parameters_{p}_"

LAYERS_PRE = """class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[2, 4, 16][64, 16, 1]cpu", {w0}: "f32[16, 16][16, 1]cpu", {b0}: "f32[16][1]cpu", {w1}: "f32[16, 16][16, 1]cpu", {b1}: "f32[16][1]cpu"):
        l_x_ = L_x_
        {lw0} = {w0}
        {lb0} = {b0}
        {lw1} = {w1}
        {lb1} = {b1}
        
         # File: {m}:11 in forward, code: h = self.fc(x)
        h: "f32[2, 4, 16][64, 16, 1]cpu" = torch._C._nn.linear(l_x_, {lw0}, {lb0});  {lw0} = {lb0} = None
        
         # File: {m}:12 in forward, code: return x + torch.relu(h)
        relu: "f32[2, 4, 16][64, 16, 1]cpu" = torch.relu(h);  h = None
        add: "f32[2, 4, 16][64, 16, 1]cpu" = l_x_ + relu;  l_x_ = relu = None
        
         # File: {m}:11 in forward, code: h = self.fc(x)
        h_1: "f32[2, 4, 16][64, 16, 1]cpu" = torch._C._nn.linear(add, {lw1}, {lb1});  {lw1} = {lb1} = None
        
         # File: {m}:12 in forward, code: return x + torch.relu(h)
        relu_1: "f32[2, 4, 16][64, 16, 1]cpu" = torch.relu(h_1);  h_1 = None
        add_1: "f32[2, 4, 16][64, 16, 1]cpu" = add + relu_1;  add = relu_1 = None
        return (add_1,)
        

 # graph id: 140502189419712""".format(
    m=MODEL,
    w0=LAYERS_W.format(i=0, p="weight"), b0=LAYERS_W.format(i=0, p="bias"),
    w1=LAYERS_W.format(i=1, p="weight"), b1=LAYERS_W.format(i=1, p="bias"),
    lw0=LAYERS_W.format(i=0, p="weight").lower(),
    lb0=LAYERS_W.format(i=0, p="bias").lower(),
    lw1=LAYERS_W.format(i=1, p="weight").lower(),
    lb1=LAYERS_W.format(i=1, p="bias").lower())

LAYERS_POST = """class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 16][16, 1]cpu", arg1_1: "f32[16][1]cpu", arg2_1: "f32[16, 16][16, 1]cpu", arg3_1: "f32[16][1]cpu", arg4_1: "f32[2, 4, 16][64, 16, 1]cpu"):
         # File: {m}:11 in forward, code: h = self.fc(x)
        view: "f32[8, 16][16, 1]cpu" = torch.ops.aten.reshape.default(arg4_1, [8, 16])
        permute: "f32[16, 16][1, 16]cpu" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm: "f32[8, 16][16, 1]cpu" = torch.ops.aten.addmm.default(arg1_1, view, permute);  arg1_1 = view = permute = None
        view_1: "f32[2, 4, 16][64, 16, 1]cpu" = torch.ops.aten.reshape.default(addmm, [2, 4, 16]);  addmm = None
        
         # File: {m}:12 in forward, code: return x + torch.relu(h)
        relu: "f32[2, 4, 16][64, 16, 1]cpu" = torch.ops.aten.relu.default(view_1);  view_1 = None
        add: "f32[2, 4, 16][64, 16, 1]cpu" = torch.ops.aten.add.Tensor(arg4_1, relu);  arg4_1 = relu = None
        
         # File: {m}:11 in forward, code: h = self.fc(x)
        view_2: "f32[8, 16][16, 1]cpu" = torch.ops.aten.reshape.default(add, [8, 16])
        permute_1: "f32[16, 16][1, 16]cpu" = torch.ops.aten.permute.default(arg2_1, [1, 0]);  arg2_1 = None
        addmm_1: "f32[8, 16][16, 1]cpu" = torch.ops.aten.addmm.default(arg3_1, view_2, permute_1);  arg3_1 = view_2 = permute_1 = None
        view_3: "f32[2, 4, 16][64, 16, 1]cpu" = torch.ops.aten.reshape.default(addmm_1, [2, 4, 16]);  addmm_1 = None
        
         # File: {m}:12 in forward, code: return x + torch.relu(h)
        relu_1: "f32[2, 4, 16][64, 16, 1]cpu" = torch.ops.aten.relu.default(view_3);  view_3 = None
        add_1: "f32[2, 4, 16][64, 16, 1]cpu" = torch.ops.aten.add.Tensor(add, relu_1);  add = relu_1 = None
        return (add_1,)
        """.format(m=MODEL)

LAYERS_CODE = PY_HEADER.format(aot_id="0_inference", device_imports="") + """

""" + cpp_src("cpp_fused_add_relu_view_0", "'float*', 'const float*'",
              """float* in_out_ptr0,
                       const float* in_ptr0""",
              """    {
        for(int64_t x0=static_cast<int64_t>(0LL); x0<static_cast<int64_t>(128LL); x0+=static_cast<int64_t>(16LL))
        {
            auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
            auto tmp1 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
            auto tmp2 = at::vec::clamp_min(tmp1, decltype(tmp1)(0));
            auto tmp3 = tmp0 + tmp2;
            tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0));
        }
    }""") + """

async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1 = args
    args.clear()
    assert_size_stride(arg0_1, (16, 16), (16, 1))
    assert_size_stride(arg1_1, (16, ), (1, ))
    assert_size_stride(arg2_1, (16, 16), (16, 1))
    assert_size_stride(arg3_1, (16, ), (1, ))
    assert_size_stride(arg4_1, (2, 4, 16), (64, 16, 1))
    buf0 = empty_strided_cpu((8, 16), (16, 1), torch.float32)
    # Topologically Sorted Source Nodes: [h], Original ATen: [aten.view, aten.t, aten.addmm]
    # [Provenance debug handles] extern_kernels.addmm:1
    extern_kernels.addmm(arg1_1, reinterpret_tensor(arg4_1, (8, 16), (16, 1), 0), reinterpret_tensor(arg0_1, (16, 16), (1, 16), 0), alpha=1, beta=1, out=buf0)
    del arg0_1
    del arg1_1
    buf1 = reinterpret_tensor(buf0, (2, 4, 16), (64, 16, 1), 0); del buf0  # reuse
    # [Provenance debug handles] cpp_fused_add_relu_view_0:2
    cpp_fused_add_relu_view_0(buf1, arg4_1)
    del arg4_1
    buf2 = empty_strided_cpu((8, 16), (16, 1), torch.float32)
    # Topologically Sorted Source Nodes: [relu, add, h_1], Original ATen: [aten.relu, aten.add, aten.view, aten.t, aten.addmm]
    # [Provenance debug handles] extern_kernels.addmm:3
    extern_kernels.addmm(arg3_1, reinterpret_tensor(buf1, (8, 16), (16, 1), 0), reinterpret_tensor(arg2_1, (16, 16), (1, 16), 0), alpha=1, beta=1, out=buf2)
    del arg2_1
    del arg3_1
    buf3 = reinterpret_tensor(buf2, (2, 4, 16), (64, 16, 1), 0); del buf2  # reuse
    # [Provenance debug handles] cpp_fused_add_relu_view_0:4
    cpp_fused_add_relu_view_0(buf3, buf1)
    del buf1
    return (buf3, )
""" + PY_FOOTER.format(
    bench_inputs="    arg0_1 = rand_strided((16, 16), (16, 1), device='cpu', dtype=torch.float32)",
    bench_args="arg0_1, arg1_1, arg2_1, arg3_1, arg4_1")


def gen_layers():
    log = TraceLog(month_day="1203", hour=9)
    cid = (0, 0, 0)
    string_table(log)
    dynamo_start(log, cid, 20)
    log.artifact("before_pre_grad_graph", LAYERS_PRE, cid=cid, lineno=2045)
    log.event("aot_inference_graph", cid=cid, payload=LAYERS_POST,
              path="torch/_functorch/_aot_autograd/graph_compile.py", lineno=1633)
    log.artifact("inductor_post_grad_graph", LAYERS_POST, cid=cid)
    log.event("inductor_output_code", {"filename": "/tmp/cl.py"}, cid=cid,
              payload=LAYERS_CODE, path="torch/_inductor/graph.py", lineno=2347)
    log.artifact("inductor_provenance_tracking_node_mappings", node_mapping(
        {"h": ["view", "permute", "addmm", "view_1"], "relu": ["relu"],
         "add": ["add"], "h_1": ["view_2", "permute_1", "addmm_1", "view_3"],
         "relu_1": ["relu_1"], "add_1": ["add_1"]},
        {"extern_kernels.addmm:1": ["addmm"],
         "cpp_fused_add_relu_view_0:2": ["view_1", "relu", "add"],
         "extern_kernels.addmm:3": ["addmm_1"],
         "cpp_fused_add_relu_view_0:4": ["view_3", "relu_1", "add_1"]}),
        encoding="json", cid=cid)
    return log.text()

# --------------------------------------------------------------------------
# diff/: variants of other fixtures for tlp-emit --diff, made by rewriting
# their payloads and envelopes (md5s recomputed). noise.log is handles.log
# as another rank on another GPU would write it: cuda:1 and index=1, other
# buffer and kernel counters, another cache path (all noise: equal).
# moved.log is rank 0 of xrank/ with the user line of compile 1/0 moved
# down by one (a real difference: the kernels' source line).

def rewritten(gen, fn):
    """gen() with every payload and envelope passed through fn."""
    global TraceLog
    base = TraceLog

    class Rewriting(base):
        def event(self, kind, meta=None, payload=None, **kw):
            if payload is not None:
                payload = fn(payload)
            if meta is not None:
                meta = json.loads(fn(json.dumps(meta)))
            base.event(self, kind, meta, payload=payload, **kw)

    TraceLog = Rewriting
    try:
        return gen()
    finally:
        TraceLog = base


def other_gpu(text):
    text = text.replace("cuda:0", "cuda:1").replace("index=0", "index=1")
    text = re.sub(r"\bbuf(\d+)\b",
                  lambda m: "buf%d" % (int(m.group(1)) + 7), text)
    text = re.sub(r"\b(triton_poi_fused_mul)_(\d+)\b",
                  lambda m: "%s_%d" % (m.group(1), int(m.group(2)) + 20), text)
    return text.replace("/tmp/torchinductor_user/", "/tmp/torchinductor_u1/")


def line_moved(text):
    return text.replace(MODEL + ":22 ", MODEL + ":23 ")


FIXTURES = {
    "test/Inputs/jit_cuda_train.log": gen_jit_cuda_train,
    "test/Inputs/jit_cpu_v1.log": gen_jit_cpu_v1,
    "test/Inputs/aot_cpu.log": gen_aot_cpu,
    "test/Inputs/aot_old_names.log": gen_aot_old_names,
    "test/Inputs/aot_cuda_v2.log": gen_aot_cuda_v2,
    "test/Inputs/handles.log": gen_handles,
    "test/Inputs/carried_handles.log": gen_carried,
    "test/Inputs/shapes.log": gen_shapes,
    "test/Inputs/broken.log": gen_broken,
    "test/Inputs/not_read.log": gen_not_read,
    "test/Inputs/restart.log": gen_restart,
    "test/Inputs/ids.log": gen_ids,
    "test/Inputs/jit_cpu_nodetree.log": gen_jit_cpu_nodetree,
    "test/Inputs/strings.log": gen_strings,
    "test/Inputs/markup.log": gen_markup,
    "test/Inputs/health.log": gen_health,
    "test/Inputs/reasons.log": gen_reasons,
    "test/Inputs/phases.log": gen_phases,
    "test/Inputs/html_escape.log": gen_html_escape,
    "test/Inputs/stack_escapes.log": gen_stack_escapes,
    "test/Inputs/layers.log": gen_layers,
    "test/Inputs/ranks/dedicated_log_torch_trace_rank_0_8mrxh2kq.log": lambda: gen_rank(0),
    "test/Inputs/ranks/dedicated_log_torch_trace_rank_1_b0x9zu1c.log": lambda: gen_rank(1, crlf=True),
    "test/Inputs/ranks/README.txt": gen_ranks_readme,
    "test/Inputs/trace_ranks/dedicated_log_torch_trace_rank_0_q1.log": lambda: gen_trace_rank(0),
    "test/Inputs/trace_ranks/dedicated_log_torch_trace_rank_1_q2.log": lambda: gen_trace_rank(1),
    "test/Inputs/ranks-renamed/dedicated_log_torch_trace_rank_1_k2v8.log": lambda: gen_rank(1, event_rank=1),
    "test/Inputs/ranks-renamed/dedicated_log_torch_trace_rank_5_k2v8.log": lambda: gen_rank(1, event_rank=1),
    "test/Inputs/ranks-renamed/dedicated_log_torch_trace_rank_6_k2v8.log": lambda: gen_rank(1, event_rank=1),
    "test/Inputs/xrank/dedicated_log_torch_trace_rank_0_x7.log": lambda: gen_xrank(0),
    "test/Inputs/xrank/dedicated_log_torch_trace_rank_1_x7.log": lambda: gen_xrank(1),
    "test/Inputs/xrank/dedicated_log_torch_trace_rank_2_x7.log": lambda: gen_xrank(2),
    "test/Inputs/diff/noise.log": lambda: rewritten(gen_handles, other_gpu),
    "test/Inputs/diff/moved.log": lambda: rewritten(lambda: gen_xrank(0), line_moved),
    "examples/two_compiles.log": gen_example,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the committed files; exit 1 if stale")
    ap.add_argument("root", nargs="?", default=ROOT)
    a = ap.parse_args()
    stale = []
    for rel, fn in sorted(FIXTURES.items()):
        text = fn()
        path = os.path.join(a.root, rel)
        if a.check:
            try:
                with open(path, "rb") as f:
                    if f.read() != text.encode("utf-8", "surrogateescape"):
                        stale.append(rel)
            except OSError:
                stale.append(rel)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(text.encode("utf-8", "surrogateescape"))
    if stale:
        print("stale fixtures (run utils/gen-fixtures.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
