
# Note: the following variables are used inside the guard function.
___check_tensors = '''None'''
def __guard_0_for_forward(L, G, **___kwargs_ignored):
    __guard_hit = True
    __guard_hit = __guard_hit and utils_device.CURRENT_DEVICE == None                           # _dynamo/output_graph.py:1122 in init_ambient_guards
    __guard_hit = __guard_hit and check_tensor(L['x'], Tensor, DispatchKeySet(CUDA, BackendSelect, ADInplaceOrView, AutogradCUDA), torch.float32, device=0, requires_grad=False, size=[4, 8], stride=[8, 1])  # y = torch.relu(x @ w)  # home/user/model.py:5 in forward
    __guard_hit = __guard_hit and ___check_torch_function_mode_stack()
    return __guard_hit

# Note: please refer to the graph code in __compiled_fn_1_5b1e0c2a_0d4e_4c1f_9a7b_2f3c4d5e6f70*.py.
# Captured Graph: Dynamo generated graph (debuggable when using eager backend).
# Joint graph: joint forward+backward graph from aot autograd.
# Forward graph: forward graph from aot autograd (debuggable when using aot_eager backend).
# Backward graph: backward graph from aot autograd (debuggable when using aot_eager backend).
# AFTER XXX: graph processed by inductor as the name suggests.
def __compiled_fn_1_5b1e0c2a_0d4e_4c1f_9a7b_2f3c4d5e6f70(*args, **kwargs):
    pass

def __transformed_code_0_for_forward(x, w):
    graph_out_0 = __compiled_fn_1_5b1e0c2a_0d4e_4c1f_9a7b_2f3c4d5e6f70(x, w)
    return graph_out_0[0]


# Note: if there is a transformed version below, this function might well not be executed directly. Please check the transformed version if possible.
def forward(x, w):
    y = torch.relu(x @ w)
    return y

def transformed_forward(x, w):
    __local_dict = {"x": x, "w": w}
    __global_dict = globals()
    if __guard_0_for_forward(__local_dict, __global_dict):
        return __transformed_code_0_for_forward(x, w)
    # Note: this function might well not be executed directly. It might well be transformed again, i.e. adding one more guards and transformed code.
    return forward(x, w)

#============ end of forward ============#
