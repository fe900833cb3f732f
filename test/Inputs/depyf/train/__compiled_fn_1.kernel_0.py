# AOT ID: ['0_forward']
from ctypes import c_void_p, c_long, c_int
import torch
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels

aten = torch.ops.aten
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
async_compile = AsyncCompile()


# kernel path: /tmp/torchinductor_user/ab/cabcdef.py
# Topologically Sorted Source Nodes: [y], Original ATen: [aten.relu, aten.le]
# Source node to ATen node mapping:
#   y => relu, le
triton_poi_fused_le_relu_0 = async_compile.triton('triton_poi_fused_le_relu_0', '''
import triton
import triton.language as tl

@triton.jit
def triton_poi_fused_le_relu_0(in_out_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 0, tl.int32)
    tmp2 = triton_helpers.maximum(tmp1, tmp0)
    tmp3 = 0.0
    tmp4 = tmp2 <= tmp3
    tl.store(in_out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def call(self, args):
        primals_1, primals_2 = args
        args.clear()
        assert_size_stride(primals_1, (4, 8), (8, 1), 'input')
        assert_size_stride(primals_2, (8, 2), (2, 1), 'input')
        buf0 = empty_strided_cuda((4, 2), (2, 1), torch.float32)
        # Topologically Sorted Source Nodes: [matmul], Original ATen: [aten.mm]
        extern_kernels.mm(primals_1, primals_2, out=buf0)
        del primals_2
        buf1 = buf0; del buf0  # reuse
        buf2 = empty_strided_cuda((4, 2), (2, 1), torch.bool)
        # Topologically Sorted Source Nodes: [y], Original ATen: [aten.relu, aten.le]
        stream0 = get_raw_stream(0)
        triton_poi_fused_le_relu_0.run(buf1, buf2, 8, stream=stream0)
        return (buf1, primals_1, buf2, )

runner = Runner(partitions=[])
call = runner.call
