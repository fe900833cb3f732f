# AOT ID: ['0_inference']
import torch
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
async_compile = AsyncCompile()


cpp_fused__softmax_0 = async_compile.cpp_pybinding(['const float*', 'float*', 'float*', 'float*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(const float* in_ptr0,
                       float* out_ptr0,
                       float* out_ptr1,
                       float* out_ptr2)
{
    for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(4L); x0+=static_cast<int64_t>(1L))
    {
        float tmp_acc0 = -std::numeric_limits<float>::infinity();
        for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(32L); x1+=static_cast<int64_t>(1L))
        {
            auto tmp0 = in_ptr0[static_cast<int64_t>(x1 + 32L*x0)];
            tmp_acc0 = max_propagate_nan(tmp_acc0, tmp0);
        }
        out_ptr0[static_cast<int64_t>(x0)] = tmp_acc0;
        float tmp_acc1 = 0;
        for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(32L); x1+=static_cast<int64_t>(1L))
        {
            auto tmp0 = in_ptr0[static_cast<int64_t>(x1 + 32L*x0)];
            auto tmp1 = out_ptr0[static_cast<int64_t>(x0)];
            tmp_acc1 = tmp_acc1 + std::exp(tmp0 - tmp1);
        }
        out_ptr1[static_cast<int64_t>(x0)] = tmp_acc1;
        for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(32L); x1+=static_cast<int64_t>(1L))
        {
            auto tmp0 = in_ptr0[static_cast<int64_t>(x1 + 32L*x0)];
            auto tmp1 = out_ptr0[static_cast<int64_t>(x0)];
            auto tmp2 = out_ptr1[static_cast<int64_t>(x0)];
            out_ptr2[static_cast<int64_t>(x1 + 32L*x0)] = std::exp(tmp0 - tmp1) / tmp2;
        }
    }
}
''')


async_compile.wait(globals())
del async_compile

def call(args):
    arg0_1, arg1_1, arg2_1 = args
    args.clear()
    buf0 = empty_strided_cpu((4, 32), (32, 1), torch.float32)
    # [Provenance debug handles] extern_kernels.addmm:1
    extern_kernels.addmm(arg1_1, arg2_1, reinterpret_tensor(arg0_1, (16, 32), (1, 16), 0), alpha=1, beta=1, out=buf0)
    del arg0_1
    del arg1_1
    del arg2_1
    buf1 = empty_strided_cpu((4, 1), (1, 4), torch.float32)
    buf2 = empty_strided_cpu((4, 1), (1, 4), torch.float32)
    buf3 = empty_strided_cpu((4, 32), (32, 1), torch.float32)
    # [Provenance debug handles] cpp_fused__softmax_0:2
    cpp_fused__softmax_0(buf0, buf1, buf2, buf3)
    return (buf3, )
