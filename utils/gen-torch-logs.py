#!/usr/bin/env python3
"""Generate real TORCH_TRACE logs with PyTorch (CPU) for the `torch` tests.

    utils/gen-torch-logs.py [--out build/torch-logs] [--python PY] [-j N]
                            [--only NAME,...] [--timeout S] [--force]

Runs each program below in its own subprocess (PY, default the venv of
`utils/install-deps.sh --torch`, build/torch-venv) with TORCH_TRACE set, a
fixed seed, one compile thread and a timeout, and writes for each run NAME:

    OUT/NAME/trace/        the TORCH_TRACE directory (one log a rank)
    OUT/NAME/manifest.json what the program compiled: the units tlp must
                           find (rank, compile id, graph), and more
    OUT/NAME/output.txt    the program's stdout and stderr

and OUT/manifest.json: every run, its status and time, the script's hash.
A run that fails (exit status, timeout, a unit it expected but did not
log) is reported and makes the script exit 1; its directory is kept for a
look. OUT/manifest.json is written last, and the whole set is kept when
it names this script's hash and --force is not given (nothing is run).

The programs are written here (not copied from anywhere); most run twice,
with INDUCTOR_PROVENANCE=1 (NAME) and without (NAME-noprov). docs/testing.md
describes the set and what it costs."""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tlplog.log  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Every program starts with this: deterministic seeds, one thread.
PRELUDE = r'''
import os, sys
import torch
torch.manual_seed(0)
torch.set_num_threads(1)
import torch._inductor.config as inductor_config
inductor_config.compile_threads = 1
'''

MLP = r'''
class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        return torch.sigmoid(self.fc2(x)) * 2.0
'''

BLOCK = r'''
class Block(torch.nn.Module):
    def __init__(self, d=32, heads=2):
        super().__init__()
        self.heads = heads
        self.ln1 = torch.nn.LayerNorm(d)
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)
        self.ln2 = torch.nn.LayerNorm(d)
        self.fc = torch.nn.Linear(d, 4 * d)
        self.out = torch.nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q = q.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / (d // self.heads) ** 0.5)
        mask = torch.ones(t, t, dtype=torch.bool).tril()
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.proj(y)
        return x + self.out(torch.nn.functional.gelu(self.fc(self.ln2(x))))
'''

PROGRAMS = {}


def train_loop(optimizer):
    """A training loop of two steps on the MLP, its optimizer's step
    compiled on its own (train-opt, train-adam)."""
    return MLP + """
model = MLP()
opt = %s
f = torch.compile(model)
""" % optimizer + r"""
@torch.compile
def opt_step():
    opt.step()

x, y = torch.randn(4, 16), torch.randn(4, 8)
for step in range(2):
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.mse_loss(f(x), y)
    loss.backward()
    opt_step()
    print(step, loss.item())
"""


def program(name, units, source, prov_variants=True, env=None, ranks=1,
            expect_error=False, note="", caches=False, repeat=1,
            compiles=None, logs=None):
    """units: (rank, compile id, graph[, subgraph name]) the program
    compiles, in any order; rank None for a single-process run, subgraph
    the region of a regional inductor compile. caches: the FX graph and
    AOTAutograd caches on, in a cache directory of the run's own (empty
    at the start, so the run is the same every time). repeat: run the
    program that many times into the same TORCH_TRACE directory (one log
    a run; the second run finds the first's warm cache). compiles: what
    the log must say of each compile, in log order (dicts of the fields
    logged_compiles writes: run, compile_id, ordinal, caches, ...). logs:
    how many logs the run writes, when not one a rank and run (draft
    export writes a log of its own)."""
    # A unit may name its region (regional inductor's subgraph_name).
    if units is not None:
        units = [tuple(u) + (None,) * (4 - len(u)) for u in units]
    PROGRAMS[name] = dict(units=units, source=source, prov=prov_variants,
                          env=env or {}, ranks=ranks,
                          expect_error=expect_error, note=note,
                          caches=caches, repeat=repeat, compiles=compiles,
                          logs=logs)


program("mlp", [(None, "0/0", "inference")], MLP + r'''
model = MLP().eval()
f = torch.compile(model)
with torch.no_grad():
    print(f(torch.randn(4, 16)).sum().item())
''', note="inference of a two-layer MLP")

program("train", [(None, "0/0", "forward"), (None, "0/0", "backward")],
        BLOCK + r'''
model = Block()
f = torch.compile(model)
x = torch.randn(2, 8, 32)
loss = f(x).pow(2).mean()
loss.backward()
print(loss.item(), model.qkv.weight.grad.abs().sum().item())
''', note="training step (forward + backward) of a transformer block")

program("graph-break",
        [(None, "0/0_1", "inference"), (None, "1/0", "inference")], r'''
def f(x, w):
    y = torch.relu(x @ w)
    torch._dynamo.graph_break()
    return torch.tanh(y * 3.0).sum(dim=1)

g = torch.compile(f)
print(g(torch.randn(4, 8), torch.randn(8, 8)).sum().item())
''', note="a graph break: a restart (attempt 1) and a resume frame")

program("recompile",
        [(None, "0/0", "inference"), (None, "0/1", "inference")], r'''
def f(x):
    return torch.nn.functional.softmax(x * 2.0, dim=-1) + x.cos()

g = torch.compile(f)
print(g(torch.randn(4, 8)).sum().item())
print(g(torch.randn(6, 8)).sum().item())   # new shape: recompile 0/1
''', note="a recompile after a shape change (automatic dynamic)")

program("dynamic",
        [(None, "0/0", "inference"), (None, "0/1", "inference")], r'''
def f(x):
    return (x.sin() + 1.0).sum(dim=0) / x.shape[0]

g = torch.compile(f, dynamic=True)
print(g(torch.randn(4, 8)).sum().item())
print(g(torch.randn(7, 8)).sum().item())   # symbolic: no recompile
print(g(torch.randn(5, 8, dtype=torch.float64)).sum().item())  # dtype: 0/1
''', note="dynamic=True: one symbolic compile, then a recompile for a new dtype")

program("autotune", [(None, "0/0", "inference")], r'''
def f(a, b, c):
    return torch.relu(a @ b + c)

g = torch.compile(f, mode="max-autotune-no-cudagraphs")
a, b, c = torch.randn(16, 32), torch.randn(32, 16), torch.randn(16)
with torch.no_grad():
    print(g(a, b, c).sum().item())
''', note='mode="max-autotune-no-cudagraphs" on CPU')

program("compiled-autograd",
        [(None, "0/0_1", "forward"), (None, "!0/1/0", "inference")], MLP + r'''
torch._dynamo.config.compiled_autograd = True
model = MLP()

@torch.compile
def step(x):
    loss = model(x).sum()
    loss.backward()
    return loss

loss = step(torch.randn(4, 16))
print(loss.item(), model.fc1.weight.grad.abs().sum().item())
''', note="compiled autograd: the graph breaks at backward() (0/0_1 forward), "
        "which compiled autograd traces as its own graph (!0/1/0)")

program("aoti", [(None, None, "inference")], MLP + r'''
import tempfile
model = MLP().eval()
x = torch.randn(4, 16)
with torch.no_grad():
    ep = torch.export.export(model, (x,))
    pkg = torch._inductor.aoti_compile_and_package(
        ep, package_path=os.path.join(os.getcwd(), "mlp.pt2"))
    runner = torch._inductor.aoti_load_package(pkg)
    print(runner(x).sum().item())
''', note="AOTInductor: torch._inductor.aoti_compile_and_package")

program("gloo", [(r, "0/0", "inference") for r in range(4)], r'''
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.distributed._functional_collectives as fc

def f(x, w):
    y = torch.relu(x @ w)
    y = fc.all_reduce(y, "sum", dist.group.WORLD)
    return y * 0.25 + 1.0

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = os.environ["TLP_GEN_PORT"]
    torch.manual_seed(0)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    g = torch.compile(f)
    with torch.no_grad():
        out = g(torch.randn(4, 8), torch.randn(8, 8))
    print(rank, out.sum().item())
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(4,), nprocs=4, join=True)
''', ranks=4, env={"LOG_TLPARSE": "1"},
        note="4-rank gloo job (CPU), a functional all_reduce in the graph; "
        "LOG_TLPARSE=1 (per-op runtime estimates for tlparse)")

# Two ranks that diverge (issue 21, multi-rank runtime) and still run:
# rank 1's step holds a second all_reduce that rank 0 issues eagerly after
# it (the collective schedules of 0/0 differ, the collectives at run time
# match), `local` is compiled for 4 rows on rank 0 and 6 on rank 1 (its
# tensor metadata differs), and the ranks call the compiled graphs in
# another order the second time. LOG_TLPARSE=1 logs the runtime estimates
# and tensor metadata, record_and_log_graph_execution_order the order the
# graphs ran.
program("gloo-diverge", [(r, c, "inference") for r in range(2)
                         for c in ("0/0", "1/0")], r'''
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.distributed._functional_collectives as fc
from torch._inductor.debug import record_and_log_graph_execution_order

def step(x, w, z):
    y = torch.relu(x @ w)
    y = fc.all_reduce(y, "sum", dist.group.WORLD)
    if dist.get_rank() == 1:
        z = fc.all_reduce(z, "sum", dist.group.WORLD)
    return y * 0.5, z

def local(x):
    return torch.tanh(x) * 2.0

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = os.environ["TLP_GEN_PORT"]
    torch.manual_seed(0)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    s, l = torch.compile(step), torch.compile(local)
    x, w, z = torch.randn(4, 8), torch.randn(8, 8), torch.randn(4)
    mine = torch.randn(4 + 2 * rank, 8)
    with torch.no_grad(), record_and_log_graph_execution_order():
        y, z2 = s(x, w, z)                      # 0/0
        if rank == 0:
            dist.all_reduce(z)                  # rank 1's is in its graph
        l(mine)                                 # 1/0
        if rank == 0:
            y, z2 = s(x, w, z)
            dist.all_reduce(z)
            l(mine)
        else:
            l(mine)
            y, z2 = s(x, w, z)
    print(rank, y.sum().item())
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, args=(2,), nprocs=2, join=True)
''', ranks=2, env={"LOG_TLPARSE": "1"}, prov_variants=False,
        note="2-rank gloo job whose ranks diverge: rank 1 has an all_reduce "
        "more in its graph, a local function compiled for other shapes, the "
        "graphs run in another order (runtime estimates, collective "
        "schedules, graph execution order)")

program("compile-error", [(None, "0/0", "inference")], r'''
inductor_config.cpp.inject_relu_bug_TESTING_ONLY = "compile_error"

def f(x):
    return torch.relu(x) * 2.0

g = torch.compile(f)
try:
    g(torch.randn(4, 8))
except Exception as e:
    print("compile failed as intended:", type(e).__name__)
    sys.exit(0)
print("the compile did not fail")
sys.exit(1)
''', expect_error=True,
        note="a deliberate compile failure (C++ kernel that does not compile)")

# TORCH_COMPILE_DEBUG=1: a training step whose forward fuses a reduction
# with pointwise ops (an OuterLoopFusedSchedulerNode in ir_post_fusion.txt),
# run twice into the same folders: two run_*-pid_N folders whose graph
# folders have the same names and the same code, each joined to the unit
# of its own process's log (docs/inputs.md).
program("debug-dir", [(None, "0/0", "forward"), (None, "0/0", "backward")] * 2,
        r'''
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        h = h * torch.sigmoid(h) + h.sum(dim=1, keepdim=True)
        return torch.tanh(self.fc2(h)) * 2.0

model = Net()
f = torch.compile(model)
loss = f(torch.randn(4, 16)).pow(2).mean()
loss.backward()
print(loss.item(), model.fc1.weight.grad.abs().sum().item())
''', prov_variants=False, repeat=2, env={"TORCH_COMPILE_DEBUG": "1"},
        note="TORCH_COMPILE_DEBUG=1 (also writes work/torch_compile_debug/): "
        "a training step with a fused reduction, run twice")

program("depyf", [(None, "0/0", "inference")], MLP + r'''
import depyf
model = MLP().eval()
f = torch.compile(model)
with depyf.prepare_debug(os.path.join(os.getcwd(), "depyf")):
    with torch.no_grad():
        print(f(torch.randn(4, 16)).sum().item())
''', prov_variants=False, note="depyf's dump (depyf.prepare_debug)")

# depyf's dump of a training step with a graph break, then new shapes (a
# recompile), in a vLLM-style rank folder (depyf/rank_0/): forward and
# backward graphs, two AFTER_POST_GRAD files a graph, a backward compiled
# when a later graph is current (depyf files it under that graph), several
# cache entries and their guards in full_code_for_forward_0.py.
program("depyf-train", [(None, "0/0_1", "forward"), (None, "0/0_1", "backward"),
                        (None, "1/0", "forward"), (None, "1/0", "backward"),
                        (None, "0/1_1", "forward"), (None, "0/1_1", "backward"),
                        (None, "1/1", "forward"), (None, "1/1", "backward")],
        r'''
import depyf

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 32)
        self.b = torch.nn.Linear(32, 8)

    def forward(self, x):
        x = torch.relu(self.a(x))
        print("graph break")
        return self.b(x).sum(-1)

model = Net()
f = torch.compile(model)
with depyf.prepare_debug(os.path.join(os.getcwd(), "depyf", "rank_0")):
    for n in (4, 6, 7):
        f(torch.randn(n, 16)).sum().backward()
''', prov_variants=False,
        note="depyf's dump of training with a graph break and a recompile, "
             "in depyf/rank_0/")

GPT = r'''
class GPT(torch.nn.Module):
    def __init__(self, layers=int(os.environ.get("TLP_GPT_LAYERS", "24")),
                 d=32, vocab=64, t=8):
        super().__init__()
        self.tok = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Embedding(t, d)
        self.blocks = torch.nn.ModuleList(Block(d) for _ in range(layers))
        self.ln = torch.nn.LayerNorm(d)
        self.head = torch.nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        for b in self.blocks:
            x = b(x)
        return self.head(self.ln(x))
'''

program("gpt", [(None, "0/0", "inference")], BLOCK + GPT + r'''
model = GPT().eval()
with torch.no_grad():
    print(torch.compile(model)(torch.randint(0, 64, (2, 8))).sum().item())
''', prov_variants=False,
        note="a GPT-like model (24 blocks) for scale: over 2,000 post-grad nodes")

# Profiled runs (tlp-emit --profile, docs/profile.md): the compiled model
# called twice to warm up, then three steps under torch.profiler (CPU
# activities, C++ kernels named by cpp.enable_kernel_profile); the Chrome
# trace (work/profile.json) and the profiler's own key_averages() (name,
# count, self CPU time in us: work/key_averages.json) that the tests
# compare tlp's figures with.
PROFILE = r'''
import json
from torch.profiler import profile, ProfilerActivity
inductor_config.cpp.enable_kernel_profile = True

def save_profile(prof):
    prof.export_chrome_trace("profile.json")
    rows = [dict(name=e.key, count=e.count,
                 self_cpu_time_total=e.self_cpu_time_total,
                 cpu_time_total=e.cpu_time_total)
            for e in prof.key_averages()]
    rows.sort(key=lambda r: r["name"])
    with open("key_averages.json", "w") as out:
        json.dump(rows, out, indent=1)

def profiled(f, *args):
    with torch.no_grad():
        for _ in range(2):
            f(*args)
        with profile(activities=[ProfilerActivity.CPU],
                     record_shapes=False) as prof:
            for _ in range(3):
                f(*args)
    save_profile(prof)
'''

program("profile-mlp", [(None, "0/0", "inference")], MLP + PROFILE + r'''
profiled(torch.compile(MLP().eval()), torch.randn(4, 16))
print("profiled")
''', prov_variants=False,
        compiles=[dict(compile_id="0/0", status="success")],
        note="the MLP's inference, three steps under torch.profiler "
        "(work/profile.json, work/key_averages.json)")

program("profile-gpt", [(None, "0/0", "inference")],
        BLOCK + GPT + PROFILE + r'''
profiled(torch.compile(GPT(layers=2).eval()), torch.randint(0, 64, (2, 8)))
print("profiled")
''', prov_variants=False,
        compiles=[dict(compile_id="0/0", status="success")],
        note="the GPT-like model (2 blocks), three steps under "
        "torch.profiler (work/profile.json, work/key_averages.json)")

# A profiled training run: the MLP compiled (its forward and its backward,
# compiled at the first backward()), trained with SGD (momentum; the
# optimizer's step eager) on fixed data, the caches on so that each graph
# call names its FX graph cache key (`## Call CompiledFxGraph KEY ##`).
# Two steps warm up, three run under the profiler. The backward's graph
# calls run outside any compiled region: tlp tells them by that key.
program("profile-train", [(None, "0/0", "forward"), (None, "0/0", "backward")],
        MLP + PROFILE + r'''
model = MLP()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
f = torch.compile(model)
x, y = torch.randn(4, 16), torch.randn(4, 8)

def step():
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.mse_loss(f(x), y)
    loss.backward()
    opt.step()
    return loss

for _ in range(2):
    step()
with profile(activities=[ProfilerActivity.CPU], record_shapes=False) as prof:
    for _ in range(3):
        step()
save_profile(prof)
print("profiled", step().item())
''', prov_variants=False, caches=True,
        compiles=[dict(compile_id="0/0", status="success",
                       caches={"fx_graph": ["miss", "miss"],
                               "aotautograd": ["miss"]})],
        note="the MLP's training (forward, backward, SGD), caches on, three "
        "steps under torch.profiler after two of warm-up (work/profile.json, "
        "work/key_averages.json)")

# A small CNN's training step. PyTorch 2.13 logs an empty provenance
# mapping ({"version": 2.0}) for its backward: where a node went is not
# known there, which tlp must say (not "vanished").
program("cnn", [(None, "0/0", "forward"), (None, "0/0", "backward")], r"""
import torch.nn.functional as F

class CNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 4, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(4, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8 * 2 * 2, 10)

    def forward(self, x):
        x = F.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = F.max_pool2d(torch.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))

model = CNN()
f = torch.compile(model)
x, y = torch.randn(2, 1, 8, 8), torch.tensor([3, 7])
loss = F.cross_entropy(f(x), y)
loss.backward()
print(loss.item(), model.conv1.weight.grad.abs().sum().item())
""", prov_variants=False, compiles=[dict(compile_id="0/0", status="success")],
        note="a small CNN's training step (conv2d, max_pool2d, relu, linear; "
        "forward and backward)")

# A custom op with a fake (meta) implementation, compiled by torch.compile
# (0/0) and by torch.export + AOTInductor (its call goes through the proxy
# executor).
program("custom-op", [(None, "0/0", "inference"), (None, None, "inference")],
        r"""
@torch.library.custom_op("tlp::scale_rows", mutates_args=())
def scale_rows(x: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    return x * s[:, None]

@scale_rows.register_fake
def _(x, s):
    return torch.empty_like(x)

class M(torch.nn.Module):
    def forward(self, x, s):
        return torch.relu(scale_rows(x.sin(), s)) + 1.0

model = M()
x, s = torch.randn(4, 8), torch.randn(4)
with torch.no_grad():
    print(torch.compile(model)(x, s).sum().item())
    ep = torch.export.export(model, (x, s))
    pkg = torch._inductor.aoti_compile_and_package(
        ep, package_path=os.path.join(os.getcwd(), "custom_op.pt2"))
    print(torch._inductor.aoti_load_package(pkg)(x, s).sum().item())
""", prov_variants=False, compiles=[dict(compile_id="0/0", status="success")],
        note="a torch.library.custom_op with register_fake: torch.compile "
        "and torch.export + AOTInductor")

# torch._dynamo.mark_dynamic on an input: the first compile is symbolic in
# that dimension, so a call with another size does not recompile.
program("mark-dynamic", [(None, "0/0", "inference")], r"""
def f(x):
    return torch.nn.functional.gelu(x) * x.shape[0]

g = torch.compile(f)
x = torch.randn(4, 8)
torch._dynamo.mark_dynamic(x, 0)
print(g(x).sum().item())
print(g(torch.randn(9, 8)).sum().item())   # symbolic: no recompile
""", prov_variants=False, compiles=[dict(compile_id="0/0", status="success")],
        note="torch._dynamo.mark_dynamic on an input, then another size: "
        "no recompile")

# A training loop with a compiled Adam step (train-opt's is SGD).
program("train-adam", [(None, "0/0", "forward"), (None, "0/0", "backward"),
                      (None, "3/0", "inference")],
        train_loop("torch.optim.Adam(model.parameters(), lr=0.01)"), prov_variants=False, compiles=[
    dict(compile_id="0/0", status="success"),
    # As with SGD, two restarts before the update (3/0), whose pre-grad
    # graph holds `step_t += 1;  step_t_1 = step_t` (an operator.iadd
    # node); the second step runs 3/0 again (the log has no 3/1).
    dict(compile_id="1/0", status="restart"),
    dict(compile_id="1/0_1", status="success"),
    dict(compile_id="2/0", status="restart"),
    dict(compile_id="2/0_1", status="success"),
    dict(compile_id="3/0", status="success"),
    dict(compile_id="4/0", status="success")],
        note="a training loop (two steps) with a compiled Adam step")


# fullgraph=True with a graph break: the break is the compile's failure.
program("fullgraph-break", [], r"""
def f(x):
    y = torch.relu(x) * 2.0
    print("tracing f")   # a graph break, which fullgraph=True forbids
    return y.sum()

g = torch.compile(f, fullgraph=True)
try:
    g(torch.randn(4, 8))
except Exception as e:
    print("compile failed as intended:", type(e).__name__)
    sys.exit(0)
print("the compile did not fail")
sys.exit(1)
""", prov_variants=False, compiles=[
    dict(compile_id="0/0", status="failure", fail_type="Unsupported",
         graph_breaks=0)],
        note="fullgraph=True and a print(): the graph break fails the compile")

# A graph break inside a loop: Dynamo skips the frame ("graph break in
# loop ... not supported"), which runs eager; nothing is compiled.
program("loop-break", [], r"""
def f(x):
    for i in range(3):
        x = torch.sin(x) + i
        torch._dynamo.graph_break()
    return x * 2.0

g = torch.compile(f)
print(g(torch.randn(4, 8)).sum().item())
""", prov_variants=False, compiles=[
    dict(compile_id="0/0", status="failure", fail_type="Unsupported",
         graph_breaks=1)],
        note="a graph break in a for loop: the frame is skipped (eager)")

# A torch.library.custom_op with no fake implementation: Dynamo cannot
# trace it ("Please use `scale_rows.register_fake`"); PyTorch names the
# frame in custom_ops.py, the user's line is the call of scale_rows.
program("custom-op-nofake", [], r"""
@torch.library.custom_op("tlpdemo::scale_rows", mutates_args=())
def scale_rows(x: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    return x * s[:, None]

def f(x, s):
    return torch.relu(scale_rows(x, s)) + 1.0

g = torch.compile(f)
try:
    print(g(torch.randn(4, 8), torch.randn(4)).sum().item())
except Exception as e:
    print("compile failed as intended:", type(e).__name__)
    sys.exit(0)
print("the compile did not fail")
sys.exit(1)
""", prov_variants=False, compiles=[
    dict(compile_id="0/0", status="failure", fail_type="TorchRuntimeError",
         graph_breaks=0)],
        note="a custom op without register_fake under torch.compile")

# A graph break and a recompile: the second shape recompiles the broken
# frame (0/1: a restart for the break, then 0/1_1) and its resume
# function (1/1).
program("break-recompile", [(None, "0/0_1", "inference"),
                            (None, "1/0", "inference"),
                            (None, "0/1_1", "inference"),
                            (None, "1/1", "inference")], r"""
def f(x):
    y = torch.relu(x) * 2.0
    torch._dynamo.graph_break()
    return torch.tanh(y).sum(dim=0)

g = torch.compile(f)
print(g(torch.randn(4, 8)).sum().item())
print(g(torch.randn(6, 8)).sum().item())   # new shape: both frames recompile
""", prov_variants=False, compiles=[
    dict(compile_id="0/0", status="restart", recompile_reasons=0,
         graph_breaks=1),
    dict(compile_id="0/0_1", status="success", recompile_reasons=0,
         graph_breaks=0),
    dict(compile_id="1/0", status="success", recompile_reasons=0,
         graph_breaks=0),
    dict(compile_id="0/1", status="restart", recompile_reasons=1,
         graph_breaks=1),
    dict(compile_id="0/1_1", status="success", recompile_reasons=0,
         graph_breaks=0),
    dict(compile_id="1/1", status="success", recompile_reasons=1,
         graph_breaks=0)],
        note="a graph break, then a new shape: both frames recompile")


# The caches on, and the same program run a second time against the cache
# the first one filled: two logs in one directory, each with a 0/0.
program("cache-warm", [(None, "0/0", "forward"), (None, "0/0", "backward")] * 2,
        MLP + r"""
model = MLP()
f = torch.compile(model)
x = torch.randn(4, 16)
loss = f(x).pow(2).mean()
loss.backward()
print(loss.item(), model.fc1.weight.grad.abs().sum().item())
""", prov_variants=False, caches=True, repeat=2, compiles=[
    dict(run=1, compile_id="0/0", ordinal=1, status="success",
         caches={"fx_graph": ["miss", "miss"], "aotautograd": ["miss"]}),
    dict(run=2, compile_id="0/0", ordinal=1, status="success",
         caches={"fx_graph": ["hit", "hit"], "aotautograd": ["hit"]})],
        note="caches on; the training step run twice, the second time "
        "against the first run's warm FX graph and AOTAutograd caches")

# torch._dynamo.reset() between compiles of one function, as notebooks,
# benchmarks and tests do: the compile ids start again at 0/0.
program("reset", [(None, "0/0", "inference")] * 3, r"""
def f(x):
    return torch.sin(x) * 2.0 + x.cos()

g = torch.compile(f)
print(g(torch.randn(4, 8)).sum().item())   # 0/0 #1: the caches miss
torch._dynamo.reset()
print(g(torch.randn(4, 8)).sum().item())   # 0/0 #2: the same graph, a hit
torch._dynamo.reset()
print(g(torch.randn(6, 8)).sum().item())   # 0/0 #3: a new shape, a miss
""", prov_variants=False, caches=True, compiles=[
    dict(compile_id="0/0", ordinal=1, status="success",
         caches={"fx_graph": ["miss"], "aotautograd": ["miss"]}),
    dict(compile_id="0/0", ordinal=2, status="success",
         caches={"fx_graph": ["hit"], "aotautograd": ["hit"]}),
    dict(compile_id="0/0", ordinal=3, status="success",
         caches={"fx_graph": ["miss"], "aotautograd": ["miss"]})],
        note="torch._dynamo.reset() between three compiles of one function "
        "(caches on): three compiles named 0/0")

# torch.export and draft export (issue 21), with TORCH_DTRACE as the export
# docs say: an export with a dynamic batch and a data-dependent value
# (a symbol, a runtime assert from torch._check, the exported program),
# then a draft export of a custom op without a fake kernel (draft export
# logs to its own file: a second log). No compile ids, no units.
program("export", [], r"""
from torch.export import Dim, draft_export

class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x, n):
        y = self.fc(x).relu()
        k = n.item()
        torch._check(k >= 0)
        return y * 2, y[:k].sum()

batch = Dim("batch", min=2, max=64)
ep = torch.export.export(Head(), (torch.randn(6, 8), torch.tensor(3)),
                         dynamic_shapes={"x": {0: batch}, "n": None})
print(len(ep.graph.nodes), "nodes exported")

@torch.library.custom_op("tlpdemo::triple", mutates_args=())
def triple(x: torch.Tensor) -> torch.Tensor:
    return x * 3

class UsesOp(torch.nn.Module):
    def forward(self, x):
        return torch.ops.tlpdemo.triple(x) + 1

ep2 = draft_export(UsesOp(), (torch.randn(3, 4),))
print("draft export:", len(ep2._report.failures), "failure(s)")
""", prov_variants=False, env={"TORCH_DTRACE": "TRACE"}, compiles=[], logs=2,
        note="torch.export with a dynamic batch and a data-dependent value, "
        "then draft export of a custom op without a fake kernel")

# A configuration change between two compiles of one function (issue 21):
# the second compile's inductor_config differs in one setting, and its FX
# graph cache lookup misses although the graph is the same.
program("config-change", [(None, "0/0", "inference")] * 2, r"""
import torch._inductor.config as inductor_config

def f(x):
    return torch.sin(x) * 2.0 + x.cos()

g = torch.compile(f)
print(g(torch.randn(4, 8)).sum().item())   # 0/0 #1: the caches miss
torch._dynamo.reset()
inductor_config.fallback_random = True     # a setting in the cache key
print(g(torch.randn(4, 8)).sum().item())   # 0/0 #2: the FX cache misses
""", prov_variants=False, caches=True, compiles=[
    dict(compile_id="0/0", ordinal=1, status="success",
         caches={"fx_graph": ["miss"], "aotautograd": ["miss"]}),
    dict(compile_id="0/0", ordinal=2, status="success",
         caches={"fx_graph": ["miss"], "aotautograd": ["miss"]})],
        note="inductor_config.fallback_random set between two compiles of "
        "one function (caches on): the config change and the cache miss")

# A training loop with a compiled optimizer step.
program("train-opt", [(None, "0/0", "forward"), (None, "0/0", "backward"),
                     (None, "3/0", "inference"), (None, "3/1", "inference")],
        train_loop("torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)"), prov_variants=False, compiles=[
    # The model's forward, its backward compiled at the first backward().
    dict(compile_id="0/0", status="success"),
    # The optimizer's step breaks its graph twice (restarts) before the
    # update (3/0) compiles; 4/0 is the rest of the step; the second step
    # recompiles the update (3/1: the momentum buffers exist now).
    dict(compile_id="1/0", status="restart"),
    dict(compile_id="1/0_1", status="success"),
    dict(compile_id="2/0", status="restart"),
    dict(compile_id="2/0_1", status="success"),
    dict(compile_id="3/0", status="success"),
    dict(compile_id="4/0", status="success"),
    dict(compile_id="3/1", status="success", recompile_reasons=1)],
        note="a training loop (two steps) with a compiled SGD step")

# Caches on: activation checkpointing, torch.cond and nn.MultiheadAttention
# in a training step, then inference under no_grad (a recompile: grad
# mode). torch.cond makes PyTorch bypass both caches, and it logs why.
program("cond-checkpoint",
        [(None, "0/0", "forward"), (None, "0/0", "backward"),
         (None, "0/1", "inference")], r"""
from torch.utils.checkpoint import checkpoint

class Layer(torch.nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.attn = torch.nn.MultiheadAttention(d, 4, batch_first=True)
        self.ff = torch.nn.Sequential(torch.nn.Linear(d, 64), torch.nn.SiLU(),
                                      torch.nn.Linear(64, d))
        self.norm = torch.nn.RMSNorm(d)

    def block(self, x):
        a, _ = self.attn(x, x, x, need_weights=False)
        return x + self.ff(self.norm(x + a))

    def forward(self, x):
        return checkpoint(self.block, x, use_reentrant=False)

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = Layer()
        self.l2 = Layer()
        self.head = torch.nn.Linear(32, 4)

    def forward(self, x, flag):
        x = self.l1(x)
        x = torch.cond(flag, lambda t: self.l2(t), lambda t: t * 2.0, (x,))
        return self.head(x.mean(1))

model = Net()
f = torch.compile(model)
x = torch.randn(3, 5, 32)
loss = torch.nn.functional.cross_entropy(f(x, torch.tensor(True)),
                                         torch.tensor([0, 1, 2]))
loss.backward()
with torch.no_grad():
    print(f(x, torch.tensor(False)).shape)
""", prov_variants=False, caches=True, compiles=[
    dict(compile_id="0/0", status="success",
         caches={"fx_graph": ["bypass", "bypass"], "aotautograd": ["bypass"]}),
    dict(compile_id="0/1", status="success", recompile_reasons=1,
         caches={"fx_graph": ["bypass"], "aotautograd": ["bypass"]})],
        note="caches on: checkpointing, torch.cond and MultiheadAttention in a "
        "training step, then no_grad inference (recompile); torch.cond "
        "bypasses both caches")

# Two transformer blocks with a graph break between them, trained with
# AdamW for three steps; the third has a new length, so both frames
# recompile. PyTorch 2.13 numbers debug handles from one table that it does
# not always clear, and logs the whole table with a unit: the backward of
# 0/0_1, compiled after that of 1/0, logs 1/0's entries before its own, and
# the backwards of the recompiles (0/1_1, 1/1) log their forwards'
# (docs/passes/drop-carried-provenance.md).
program("block-train",
        [(None, c, g) for c in ("0/0_1", "0/1_1", "1/0", "1/1")
         for g in ("forward", "backward")], BLOCK + r"""
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Block()
        self.b = Block()

    def forward(self, x):
        x = self.a(x)
        torch._dynamo.graph_break()
        return self.b(x)

model = Net()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
f = torch.compile(model)
for t in (8, 8, 12):   # the third step has a new length: both frames recompile
    opt.zero_grad(set_to_none=True)
    loss = f(torch.randn(2, t, 32)).pow(2).mean()
    loss.backward()
    opt.step()
    print(t, loss.item())
""", prov_variants=False, compiles=[
    dict(compile_id="0/0", status="restart"),
    dict(compile_id="0/0_1", status="success"),
    dict(compile_id="1/0", status="success"),
    dict(compile_id="0/1", status="restart", recompile_reasons=1),
    dict(compile_id="0/1_1", status="success"),
    dict(compile_id="1/1", status="success", recompile_reasons=1)],
        note="two transformer blocks with a graph break, trained with AdamW; "
        "a new length recompiles both frames (provenance entries carried "
        "into later backwards)")

# Regional inductor: only the annotated regions of the graph are compiled
# by Inductor, each on its own (an inference graph, in the forward and in
# the backward), its events named by the envelope's subgraph_name.
REGIONS = ["__marked_inductor_submod0", "__marked_inductor_submod1"]
program("regional",
        [(None, "0/0", "inference", r) for r in REGIONS] * 2, MLP + r"""
from torch._dynamo.backends.common import aot_autograd
from torch.fx.passes.regional_inductor import regional_inductor
from torch.fx.traceback import annotate

class Regions(MLP):
    def forward(self, x):
        with annotate({"compile_with_inductor": 0}):
            x = torch.relu(self.fc1(x)) * 2.0
        x = self.fc2(x)
        with annotate({"compile_with_inductor": 1}):
            return torch.sigmoid(x) + 1.0

model = Regions()
backend = aot_autograd(fw_compiler=regional_inductor,
                       bw_compiler=regional_inductor)
f = torch.compile(model, backend=backend)
loss = f(torch.randn(4, 16)).pow(2).mean()
loss.backward()
print(loss.item(), model.fc1.weight.grad.abs().sum().item())
""", prov_variants=False, caches=True, compiles=[
    # Each region looks the AOTAutograd cache up on its own (PyTorch 2.13
    # logs no key components for it); the FX graph cache is not used.
    dict(compile_id="0/0", status="success",
         caches={"aotautograd": ["miss"] * 4})],
        note="regional inductor (caches on): two annotated regions compiled "
        "by Inductor in the forward and two in the backward, the rest by "
        "AOTAutograd alone")

# Two calls of one layer on one source line, and two layers in one line:
# each call is its own kernel, and only the column its stack trace
# underlines (`^^^^` from the call on) tells them apart.
program("two-calls", [(None, "0/0", "inference")], r'''
class TwoCalls(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 16)
        self.b = torch.nn.Linear(16, 16)

    def forward(self, x, y):
        h = self.a(x) + self.a(y)
        return torch.relu(self.a(h)) * torch.sigmoid(self.b(h))

model = TwoCalls().eval()
f = torch.compile(model)
with torch.no_grad():
    print(f(torch.randn(4, 16), torch.randn(4, 16)).sum().item())
''', compiles=[dict(compile_id="0/0", status="success")],
        note="two calls on one source line (self.a(x) + self.a(y)), told "
        "apart by the columns of the kernel stack traces")


def runs():
    """(run name, program name, extra env) for every run."""
    out = []
    for name, p in PROGRAMS.items():
        out.append((name, name, {"INDUCTOR_PROVENANCE": "1"}))
        if p["prov"]:
            out.append((name + "-noprov", name, {}))
    return out


def script_hash():
    with open(os.path.abspath(__file__), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def logged_units(trace):
    """(rank, compile id, graph, subgraph name) of the wrapper code in the
    logs, read with a plain text scan (independent of tlp): the `# AOT ID:`
    line of each inductor_output_code payload (the first line, or after a
    compile-time auto-tuning block), its envelope's subgraph_name, the
    graph_dump wrapper of AOTI."""
    import re
    units = []
    for fn in sorted(os.listdir(trace)):
        m = re.search(r"rank_(\d+)", fn)
        rank = int(m.group(1)) if m else None
        lines = tlplog.log.lines(os.path.join(trace, fn))
        # i: the envelope's 1-based line, so lines[i] is the line after it.
        for i, ev in tlplog.log.envelopes(lines):
            if "inductor_output_code" in ev:
                g = None
                for line in lines[i:i + 64]:
                    if not line.startswith("\t"):
                        break
                    if line[1:].startswith("# AOT ID:"):
                        g = re.search(r"\d+_(forward|backward|inference)",
                                      line)
                        break
                cid = tlplog.log.compile_id(ev)
                units.append((rank, cid, g.group(1) if g else "unknown",
                              ev.get("subgraph_name")))
            elif ev.get("graph_dump", {}).get("name") == "inductor_aot_wrapper_code":
                units.append((rank, None, "inference", None))
    return units


def logged_compiles(trace, run_logs):
    """What each compile's records say, read from the logs with a plain
    text scan (independent of tlp), in log order (the logs in the order
    the runs wrote them): a dynamo_start begins a new compile of its id,
    so compiles that share an id (torch._dynamo.reset(), two runs) stay
    apart; the other events of an id go to its latest compile. For each:
    run (1-based), log, compile_id, ordinal (1-based, per log and id),
    status, the forward's and the backward's time (compilation_metrics
    entire_frame_compile_time_s; bwd_compilation_metrics
    backward_cumulative_compile_time_us, else duration_us, in seconds,
    else inductor_compile_time_s), the cache results (fx_graph, aotautograd:
    a list of hit/miss/bypass in log order), fail_type,
    recompile_reasons (how many events), restart_reasons and graph_breaks
    (how many dynamo_graph_break_reason events)."""
    import re
    out = []
    for run, fn in enumerate(run_logs, 1):
        latest = {}
        count = {}
        for _, ev in tlplog.log.envelopes(os.path.join(trace, fn)):
            cid = tlplog.log.compile_id(ev)
            if cid is None:
                continue
            kind = next(iter(ev))
            base = cid.split("_")[0]
            # Dynamo opens its first spans ("dynamo",
            # "entire_frame_compile") and logs the recompile reasons
            # just before the dynamo_start.
            prelude = kind == "chromium_event" or (
                kind == "artifact" and
                ev[kind].get("name") == "recompile_reasons")
            if cid in latest and latest[cid]["_prelude_only"] and \
                    kind == "dynamo_start":
                latest[cid]["_prelude_only"] = False
            elif kind == "dynamo_start" or cid not in latest:
                # Attempts after the first have no dynamo_start: an
                # attempt is new when its attempt-0 compile is.
                count[cid] = count.get(cid, 0) + 1
                c = {"run": run, "log": fn, "compile_id": cid,
                     "ordinal": count[cid], "status": "unknown",
                     "seconds": None, "backward_seconds": None,
                     "caches": {}, "fail_type": None,
                     "recompile_reasons": [], "restart_reasons": [],
                     "graph_breaks": 0, "_prelude_only": True}
                out.append(c)
                latest[cid] = c
                if kind == "dynamo_start":
                    for k in list(latest):
                        if k != cid and k.split("_")[0] == base:
                            del latest[k]
            c = latest[cid]
            if not prelude:
                c["_prelude_only"] = False
            meta = ev[kind]
            if kind == "compilation_metrics":
                c["seconds"] = meta.get("entire_frame_compile_time_s")
                c["fail_type"] = meta.get("fail_type")
                c["status"] = "failure" if meta.get("fail_type") else "success"
                c["restart_reasons"] = list(meta.get("restart_reasons") or [])
            elif kind == "bwd_compilation_metrics":
                us = meta.get("backward_cumulative_compile_time_us")
                if us is None:
                    us = meta.get("duration_us")
                c["backward_seconds"] = us / 1e6 if us is not None \
                    else meta.get("inductor_compile_time_s")
            elif kind == "artifact":
                name = meta.get("name", "")
                r = re.match(r"(fx_graph|aotautograd)_cache_(hit|miss|bypass)$", name)
                if r:
                    c["caches"].setdefault(r.group(1), []).append(r.group(2))
                elif name == "recompile_reasons":
                    c["recompile_reasons"].append(True)
                elif name == "dynamo_graph_break_reason":
                    c["graph_breaks"] += 1
    for i, c in enumerate(out):
        # An attempt with no metrics that a later attempt of the same
        # compile follows was restarted.
        base = c["compile_id"].split("_")[0]
        if c["status"] == "unknown" and any(
                d["run"] == c["run"] and d["compile_id"] != c["compile_id"]
                and d["compile_id"].split("_")[0] == base
                for d in out[i + 1:]):
            c["status"] = "restart"
    for c in out:
        del c["_prelude_only"]
        # The reasons' text is in the payload; the scan only counts them.
        c["recompile_reasons"] = len(c["recompile_reasons"])
    return out


def run_one(out, py, timeout, run, port):
    name, prog, extra = run
    p = PROGRAMS[prog]
    d = os.path.join(out, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "work"))
    # Not NAME.py: the program `depyf` imports the module depyf.
    src = os.path.join(d, "work", "prog_" + prog.replace("-", "_") + ".py")
    with open(src, "w") as f:
        f.write(PRELUDE + p["source"])
    env = dict(os.environ)
    for k in ("TORCH_TRACE", "TORCH_DTRACE", "INDUCTOR_PROVENANCE",
              "TORCH_COMPILE_DEBUG", "TORCH_LOGS"):
        env.pop(k, None)
    env.update({
        "TORCH_TRACE": os.path.join(d, "trace"),
        "TORCHINDUCTOR_COMPILE_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        # Kernels compiled once for all runs; the FX graph and AOTAutograd
        # caches off so that every run logs a full compile.
        "TORCHINDUCTOR_CACHE_DIR": os.path.join(out, ".inductor-cache"),
        "TORCHINDUCTOR_FX_GRAPH_CACHE": "0",
        "TORCHINDUCTOR_AUTOGRAD_CACHE": "0",
        "TLP_GEN_PORT": str(port),
        "PYTHONHASHSEED": "0",
    })
    if p["caches"]:
        # A cache of the run's own, new each time: the first compile
        # misses whatever ran before.
        env.update({
            "TORCHINDUCTOR_CACHE_DIR": os.path.join(d, "cache"),
            "TORCHINDUCTOR_FX_GRAPH_CACHE": "1",
            "TORCHINDUCTOR_AUTOGRAD_CACHE": "1",
        })
    env.update(p["env"])
    env.update(extra)
    # TORCH_DTRACE (torch.export's detailed events) names the same folder.
    if env.get("TORCH_DTRACE") == "TRACE":
        env["TORCH_DTRACE"] = env["TORCH_TRACE"]
    t0 = time.monotonic()
    status = "ok"
    trace = os.path.join(d, "trace")
    cpu = 0.0
    run_logs = []
    with open(os.path.join(d, "output.txt"), "w") as log:
        for _ in range(p["repeat"]):
            if status != "ok":
                break
            before = set(os.listdir(trace)) if os.path.isdir(trace) else set()
            log.flush()
            proc = subprocess.Popen([py, src], cwd=os.path.join(d, "work"),
                                    env=env, stdout=log,
                                    stderr=subprocess.STDOUT,
                                    start_new_session=True)
            # wait4: the CPU time of the program and the processes it
            # reaped (the gloo ranks), a figure the machine's load does
            # not change.
            while True:
                pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() - t0 > timeout:
                    os.killpg(proc.pid, 9)
                    pid, st, ru = os.wait4(proc.pid, 0)
                    status = "failed: timed out after %d s" % timeout
                    break
                time.sleep(0.2)
            cpu += ru.ru_utime + ru.ru_stime
            proc.returncode = os.waitstatus_to_exitcode(st)
            if status == "ok" and proc.returncode != 0:
                status = "failed: exit status %d" % proc.returncode
            after = set(os.listdir(trace)) if os.path.isdir(trace) else set()
            run_logs += sorted(after - before)
    seconds = round(time.monotonic() - t0, 1)
    cpu = round(cpu, 1)
    logs = sorted(os.listdir(trace)) if os.path.isdir(trace) else []
    want_logs = p["logs"] or p["ranks"] * p["repeat"]
    if status == "ok" and len(logs) != want_logs:
        status = "failed: %d logs, expected %d" % (len(logs), want_logs)
    found = logged_units(trace) if logs else []
    expected = p["units"]
    if expected is None:
        # Compiled autograd: which graphs run depends on the version; the
        # program's own logs are the record (checked non-empty).
        expected = found
        if status == "ok" and not found:
            status = "failed: no compiled unit logged"
    elif status == "ok" and sorted(map(repr, found)) != sorted(map(repr, expected)):
        status = "failed: units %s logged, %s expected" % (found, expected)
    compiles = []
    if p["ranks"] == 1 and run_logs:
        compiles = logged_compiles(trace, run_logs)
        want = p["compiles"]
        if status == "ok" and want is not None:
            got = [{k: c.get(k) for k in w} for c, w in zip(compiles, want)]
            if len(compiles) != len(want) or got != want:
                status = "failed: compiles %s logged, %s expected" % (
                    [{k: c.get(k) for k in (want[0] if want else {})}
                     for c in compiles], want)
    manifest = {
        "name": name, "program": prog, "note": p["note"],
        "provenance": "INDUCTOR_PROVENANCE" in extra,
        "env": {k: v for k, v in list(p["env"].items()) + list(extra.items())},
        "trace": "trace", "logs": logs, "ranks": p["ranks"],
        "units": [{"rank": r, "compile_id": c, "graph": g, "subgraph": sg}
                  for r, c, g, sg in expected],
        "expect_error": p["expect_error"],
        "caches": p["caches"], "run_logs": run_logs, "compiles": compiles,
        "status": status, "seconds": seconds, "cpu_seconds": cpu,
        "torch": torch_version(py),
    }
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


_TORCH = {}


def torch_version(py):
    if py not in _TORCH:
        _TORCH[py] = subprocess.run(
            [py, "-c", "import importlib.metadata as m; print(m.version('torch'))"],
            capture_output=True, text=True).stdout.strip()
    return _TORCH[py]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "torch-logs"))
    ap.add_argument("--python", default=os.environ.get(
        "TLP_TORCH_PYTHON", os.path.join(ROOT, "build", "torch-venv", "bin", "python")))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", default="", help="comma-separated run names")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        for name, prog, _ in runs():
            print(name, "-", PROGRAMS[prog]["note"])
        return 0
    out = os.path.abspath(a.out)
    top = os.path.join(out, "manifest.json")
    h = script_hash()
    if not a.force and not a.only and os.path.exists(top):
        with open(top) as f:
            old = json.load(f)
        if old.get("script_sha256") == h and old.get("failed") == []:
            print("gen-torch-logs: %s is up to date" % out)
            return 0
    if not os.path.exists(a.python):
        print("gen-torch-logs: no Python at %s (run utils/install-deps.sh --torch)"
              % a.python, file=sys.stderr)
        return 1
    todo = runs()
    if a.only:
        want = set(a.only.split(","))
        todo = [r for r in todo if r[0] in want]
        unknown = want - {r[0] for r in todo}
        if unknown:
            print("gen-torch-logs: no run named %s" % ", ".join(sorted(unknown)),
                  file=sys.stderr)
            return 2
    os.makedirs(out, exist_ok=True)
    if os.path.exists(top) and not a.only:
        os.remove(top)
    # The longest first, so that two jobs end together.
    order = {"gpt": 0, "gloo": 1, "gloo-noprov": 2, "train": 3, "autotune": 4}
    todo.sort(key=lambda r: order.get(r[0], 9))
    t0 = time.monotonic()
    base = 29500 + os.getpid() % 1000 * 20
    with ThreadPoolExecutor(max(1, a.jobs)) as pool:
        futs = [pool.submit(run_one, out, a.python, a.timeout, r, base + i)
                for i, r in enumerate(todo)]
        results = []
        for fut in futs:
            m = fut.result()
            results.append(m)
            print("gen-torch-logs: %-24s %6.1f s (CPU %6.1f s)  %s" % (
                m["name"], m["seconds"], m["cpu_seconds"], m["status"]),
                flush=True)
    total = round(time.monotonic() - t0, 1)
    cpu = round(sum(m["cpu_seconds"] for m in results), 1)
    load = os.getloadavg()
    failed = [m["name"] for m in results if m["status"] != "ok"]
    for m in results:
        if m["status"] != "ok":
            print("gen-torch-logs: error: %s: %s (see %s)" % (
                m["name"], m["status"], os.path.join(out, m["name"], "output.txt")),
                file=sys.stderr)
    print("gen-torch-logs: %d runs in %.1f s with %d jobs (CPU %.1f s; load "
          "average at the end %.1f), %d failed"
          % (len(results), total, a.jobs, cpu, load[1], len(failed)))
    if not a.only:
        with open(top, "w") as f:
            json.dump({"script_sha256": h, "torch": torch_version(a.python),
                       "jobs": a.jobs, "seconds": total, "cpu_seconds": cpu,
                       "loadavg_5min_at_end": round(load[1], 2),
                       "runs": [m["name"] for m in results],
                       "failed": failed}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
