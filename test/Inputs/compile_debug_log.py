"""Write the YAML of a TORCH_TRACE log (for tlp-yaml2log) whose
inductor_output_code is the output_code.py of the compile_debug fixture's
model__0_forward_1.0 folder, byte for byte, as PyTorch logs the same
compile in both (test/Emit/compile-debug.test)."""
import sys, glob
d = glob.glob(sys.argv[1] + '/torch_compile_debug/*/torchinductor/model__0_forward_1.0/')[0]
code = open(d + 'output_code.py').read()
post = open(d + 'fx_graph_transformed.py').read()
def block(t):
    return '|\n' + ''.join('      ' + l + '\n' if l else '\n' for l in t[:-1].split('\n'))
ids = "    frame_id: 0\n    frame_compile_id: 0\n    attempt: 0\n"
print("pid: 4242\nstart: 0102 03:04:05.000006\nstep_ms: 1\nsource: \"torch/_inductor/compile_fx.py:1\"\nevents:")
print("  - event: str\n    metadata: [/home/user/prog.py, 0]")
print("  - event: dynamo_start\n    metadata:\n      stack:\n        - {line: 13, name: forward, filename: 0}\n" + ids, end='')
print("  - event: aot_forward_graph\n" + ids, end='')
print("  - event: inductor_post_grad_graph\n" + ids + "    payload: " + block(post), end='')
print("  - event: inductor_output_code\n    metadata: {filename: /tmp/x.py}\n" + ids + "    payload: " + block(code), end='')
