def __transformed_code_0_for_forward(x, w):
    graph_out_0 = __compiled_fn_1_5b1e0c2a_0d4e_4c1f_9a7b_2f3c4d5e6f70(x, w)
    return graph_out_0[0]
