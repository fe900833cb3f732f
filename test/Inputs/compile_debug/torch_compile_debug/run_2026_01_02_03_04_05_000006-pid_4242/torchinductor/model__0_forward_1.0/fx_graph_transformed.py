class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[32, 16]", primals_2: "f32[32]", primals_3: "f32[4, 16]"):
        # File: /home/user/prog.py:13 in forward, code: h = torch.relu(self.fc1(x))
        permute: "f32[16, 32]" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        addmm: "f32[4, 32]" = torch.ops.aten.addmm.default(primals_2, primals_3, permute);  primals_2 = permute = None
        relu: "f32[4, 32]" = torch.ops.aten.relu.default(addmm)

        # File: /home/user/prog.py:14 in forward, code: h = h * torch.sigmoid(h) + h.sum(dim=1, keepdim=True)
        sigmoid: "f32[4, 32]" = torch.ops.aten.sigmoid.default(relu)
        mul: "f32[4, 32]" = torch.ops.aten.mul.Tensor(relu, sigmoid);  sigmoid = None
        sum_1: "f32[4, 1]" = torch.ops.aten.sum.dim_IntList(relu, [1], True);  relu = None
        add: "f32[4, 32]" = torch.ops.aten.add.Tensor(mul, sum_1);  mul = sum_1 = None
        return (add, primals_3, addmm)
