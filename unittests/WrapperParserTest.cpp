//===- WrapperParserTest.cpp - Typed fields of the Python wrapper ---------===//

#include "tlp/IR/Artifact.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/Diagnostics.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"

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

namespace {

std::vector<uint32_t> linesOf(const CodeArtifact &C, llvm::StringRef Name) {
  llvm::ArrayRef<uint32_t> L = C.entryNames().lines(Name);
  return std::vector<uint32_t>(L.begin(), L.end());
}

} // namespace

// The name index of the entry function: dot-aligned prefixes of identifier
// chains at token starts, outside whole-line comments and definitions.
TEST(WrapperParser, EntryNames) {
  CodeArtifact C(Artifact::AK_OutputCode);
  C.Text = "k0.run(x)\n"                           // 1: before the entry
           "def call(args):\n"                     // 2: entry begins
           "    kern.run(buf0)  # other_k[grid]\n" // 3
           "    # kern(buf1)\n"                    // 4: whole-line comment
           "    def inner(): kern(buf2)\n"         // 5: a definition
           "    extern_kernels.mm(a, b, out=c)\n"  // 6
           "    x.kern(1); call_kern(2); zkern[3]\n" // 7
           "    user_k[(8, 1)](buf3); kern(4)\n"   // 8
           "    s = 'kern' // kern\n"              // 9
           "    a..b.c; .d.e\n"                    // 10
           "    return buf0\n";                    // 11
  C.EntryBegin = 2;
  C.EntryEnd = 11;
  KernelDef D;
  D.Name = "inner";
  D.Begin = D.End = 5;
  C.Defs.push_back(D);
  C.reindex();

  EXPECT_EQ(linesOf(C, "kern"), (std::vector<uint32_t>{3, 8, 9}));
  EXPECT_EQ(linesOf(C, "kern.run"), (std::vector<uint32_t>{3}));
  EXPECT_EQ(linesOf(C, "run"), std::vector<uint32_t>());
  EXPECT_EQ(linesOf(C, "k0"), std::vector<uint32_t>());
  EXPECT_EQ(linesOf(C, "extern_kernels"), (std::vector<uint32_t>{6}));
  EXPECT_EQ(linesOf(C, "extern_kernels.mm"), (std::vector<uint32_t>{6}));
  EXPECT_EQ(linesOf(C, "mm"), std::vector<uint32_t>());
  EXPECT_EQ(linesOf(C, "call_kern"), (std::vector<uint32_t>{7}));
  EXPECT_EQ(linesOf(C, "x.kern"), (std::vector<uint32_t>{7}));
  EXPECT_EQ(linesOf(C, "inner"), std::vector<uint32_t>());
  EXPECT_EQ(linesOf(C, "other_k"), (std::vector<uint32_t>{3}));
  EXPECT_EQ(linesOf(C, "a"), (std::vector<uint32_t>{6, 10}));
  EXPECT_EQ(linesOf(C, "a..b"), (std::vector<uint32_t>{10}));
  EXPECT_EQ(linesOf(C, "a..b.c"), (std::vector<uint32_t>{10}));
  EXPECT_EQ(linesOf(C, "d"), std::vector<uint32_t>());
  EXPECT_EQ(linesOf(C, "a."), std::vector<uint32_t>());
  // Each index answer is what findToken says on the trimmed line.
  for (llvm::StringRef N : {"kern", "kern.run", "x.kern", "a..b", "d"}) {
    for (uint32_t L = 3; L <= 11; ++L) {
      if (L == 4 || L == 5)
        continue;
      EXPECT_EQ(llvm::is_contained(linesOf(C, N), L),
                findToken(trimWS(C.lines().line(C.Text, L)), N) !=
                    llvm::StringRef::npos)
          << N.str() << " on line " << L;
    }
  }

  // `name[`, as a substring of the line.
  EXPECT_TRUE(C.entryNames().subscripted("user_k", 8));
  EXPECT_TRUE(C.entryNames().subscripted("other_k", 3));
  EXPECT_TRUE(C.entryNames().subscripted("kern", 7));
  EXPECT_FALSE(C.entryNames().subscripted("kern", 8));
  EXPECT_FALSE(C.entryNames().subscripted("user_k", 7));

  // Names of up to MaxNameParts parts.
  CodeArtifact Long(Artifact::AK_OutputCode);
  Long.Text = "p1.p2.p3.p4.p5.p6.p7.p8.p9(x)\n";
  Long.reindex();
  EXPECT_EQ(EntryNameIndex::MaxNameParts, 8u);
  EXPECT_EQ(linesOf(Long, "p1.p2.p3.p4.p5.p6.p7.p8"),
            (std::vector<uint32_t>{1}));
  EXPECT_EQ(linesOf(Long, "p1.p2.p3.p4.p5.p6.p7.p8.p9"),
            std::vector<uint32_t>());

  // No entry function: the whole code; reindex() rebuilds.
  C.EntryBegin = C.EntryEnd = 0;
  C.reindex();
  EXPECT_EQ(linesOf(C, "k0.run"), (std::vector<uint32_t>{1}));
  EXPECT_EQ(linesOf(C, "call"), (std::vector<uint32_t>{2}));
}
