//===- WrapperParserTest.cpp - Typed fields of the Python wrapper ---------===//

#include "tlp/IR/Artifact.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/Diagnostics.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tlp;

namespace {

std::string params(const KernelDef &D) {
  std::string S;
  for (const KernelParam &P : D.Params) {
    static const char *Roles[] = {"value", "in", "out", "inout", "scratch"};
    S += std::string(S.empty() ? "" : " ") + Roles[int(P.Role)] +
         (P.Name.empty() ? "" : ":" + P.Name);
  }
  return S;
}

std::string args(const CallSite &C) {
  std::string S;
  for (const CallArg &A : C.Args)
    S += std::string(S.empty() ? "" : " ") + (A.Out ? "out=" : "") +
         (A.Buffer.empty() ? "-" : A.Buffer);
  return S;
}

const char *const Wrapper = R"py(# AOT ID: ['0_inference']
triton_poi_fused_add_0 = async_compile.triton('triton_poi_fused_add_0', '''
@triton.jit
def triton_poi_fused_add_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
''', device_str='cuda')

cpp_fused_mul_1 = async_compile.cpp_pybinding(['float*', 'const float*'], '''
extern "C"  void kernel(float* in_out_ptr0,
                       const float* in_ptr0, float* in_out_ptr1)
{
    auto out_ptr0 = in_out_ptr1;
}
''')

def call(args):
    arg0_1, = args
    buf0 = empty_strided_cuda((4, ), (1, ), torch.float32)
    triton_poi_fused_add_0.run(arg0_1, buf0, 4, stream=stream0)
    buf1 = reinterpret_tensor(buf0, (2, 2), (2, 1), 0); del buf0
    cpp_fused_mul_1(buf1, f(arg0_1, 'a,)'), reinterpret_tensor(buf1, (4, ), (1, ), 0))
    extern_kernels.mm(arg0_1, buf1, out=buf2)
    return (buf1, )
)py";

} // namespace

TEST(WrapperParser, ParamsArgsAndAssigns) {
  CodeArtifact C(Artifact::AK_OutputCode);
  C.Text = Wrapper;
  DiagnosticEngine D;
  {
    PayloadContext Ctx(D, "x.log", 1, "inductor_output_code");
    parsePythonWrapper(C, Ctx);
  }
  EXPECT_EQ(D.size(), 0u);
  ASSERT_EQ(C.Defs.size(), 2u);
  // Triton: the `def` signature; sizes and block sizes are values.
  EXPECT_EQ(params(C.Defs[0]), "in:in_ptr0 out:out_ptr0 value value");
  // C++: `kernel(` across lines; in_out_ptr1 is aliased as an output.
  EXPECT_EQ(params(C.Defs[1]), "inout:in_out_ptr0 in:in_ptr0 scratch:in_out_ptr1");
  ASSERT_EQ(C.Calls.size(), 3u);
  // A Triton launch's arguments are not recorded.
  EXPECT_EQ(C.Calls[0].Kernel, "triton_poi_fused_add_0");
  EXPECT_EQ(args(C.Calls[0]), "");
  // Brackets and string literals do not split arguments.
  EXPECT_EQ(args(C.Calls[1]), "buf1 - buf1");
  EXPECT_EQ(args(C.Calls[2]), "- buf1 out=buf2");
  ASSERT_EQ(C.Assigns.size(), 2u);
  EXPECT_EQ(C.Assigns[0].Line, 18u);
  EXPECT_EQ(C.Assigns[0].Buffer, "buf0");
  EXPECT_EQ(C.Assigns[0].From, "");
  EXPECT_EQ(C.Assigns[1].Line, 20u);
  EXPECT_EQ(C.Assigns[1].Buffer, "buf1");
  EXPECT_EQ(C.Assigns[1].From, "buf0");
}
