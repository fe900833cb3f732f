class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[32, 16]", arg1_1: "f32[32]", arg2_1: "f32[4, 16]"):
        permute: "f32[16, 32]" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm: "f32[4, 32]" = torch.ops.aten.addmm.default(arg1_1, arg2_1, permute);  arg1_1 = arg2_1 = permute = None
        amax: "f32[4, 1]" = torch.ops.aten.amax.default(addmm, [1], True)
        sub: "f32[4, 32]" = torch.ops.aten.sub.Tensor(addmm, amax);  addmm = amax = None
        exp: "f32[4, 32]" = torch.ops.aten.exp.default(sub);  sub = None
        sum_1: "f32[4, 1]" = torch.ops.aten.sum.dim_IntList(exp, [1], True)
        div: "f32[4, 32]" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        return (div,)
