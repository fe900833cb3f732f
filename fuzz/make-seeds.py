#!/usr/bin/env python3
"""Write seed inputs for the tlp fuzz targets, from the test fixtures.

    make-seeds.py --inputs test/Inputs [--tlp-opt build/bin/tlp-opt]
                  [--tlp-yaml2log build/bin/tlp-yaml2log] -o DIR

DIR/log gets every fixture log (a fixture described in YAML is made into
its log with --tlp-yaml2log; without it, YAML is skipped); DIR/<payload>
(fx-graph, python-wrapper, ...) every payload of that kind, decoded as the reader decodes it (leading tab
dropped); DIR/ir the IR tlp-opt prints for the logs and DIR/ir-compact the
same IR in the compact form (tlp-opt --compact), if --tlp-opt is given.
Files are named by the SHA-1 of their bytes, so reruns are stable.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "utils"))
from tlplog.log import events  # noqa: E402

# Payload kinds by artifact or event name (see docs/inputs.md).
TARGETS = {
    "before_pre_grad_graph": "fx-graph",
    "inductor_pre_grad_graph": "fx-graph",
    "before_recompile_pre_grad": "fx-graph",
    "after_post_grad_graph": "fx-graph",
    "inductor_post_grad_graph": "fx-graph",
    "after_recompile_post_grad": "fx-graph",
    "aot_forward_graph": "fx-graph",
    "aot_backward_graph": "fx-graph",
    "aot_inference_graph": "fx-graph",
    "inductor_output_code": "python-wrapper",
    "inductor_aot_wrapper_code": "cpp-code",
    "inductor_aot_kernel_code": "cpp-code",
    "inductor_provenance_tracking_node_mappings": "node-mappings",
    "inductor_provenance_tracking_kernel_stack_traces": "stack-traces",
    "triton_kernel_info": "kernel-info",
    "inductor_post_to_pre_grad_nodes": "node-tree",
    "inductor_triton_kernel_to_post_grad_nodes": "kernel-nodes",
    "inductor_generated_kernel_to_post_grad_nodes": "kernel-nodes",
    "dynamo_cpp_guards_str": "guards",
}
ALL = sorted(set(TARGETS.values())) + ["log", "ir", "ir-compact",
                                       "scheduler-ir"]
META = {"frame_id", "frame_compile_id", "attempt", "compiled_autograd_id",
        "rank", "has_payload", "stack"}


def write(out, target, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def payload_name(env):
    for k, v in env.items():
        if k in META:
            continue
        if k in ("artifact", "graph_dump") and isinstance(v, dict):
            return v.get("name")
        return k
    return None


def split_payloads(text):
    """(payload name, payload bytes) of each event of the log \p text
    with a payload (tlplog.log.events), CR LF read as LF."""
    lines = text.split(b"\n")
    for b, e in events(lines):
        line = lines[b]
        if b"has_payload" not in line:
            continue
        try:
            env = json.loads(line[line.find(b"] {") + 2:].rstrip(b"\r"))
        except ValueError:
            continue
        yield payload_name(env), b"\n".join(
            l[1:].rstrip(b"\r") for l in lines[b + 1:e])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--tlp-opt")
    ap.add_argument("--tlp-yaml2log")
    ap.add_argument("-o", required=True)
    a = ap.parse_args()
    logs = []
    # The scheduler IR of the TORCH_COMPILE_DEBUG fixtures (no log has it).
    fusion = []
    for dirpath, _, files in os.walk(a.inputs):
        for f in sorted(files):
            if f.endswith(".log") or (f.endswith(".yaml") and a.tlp_yaml2log):
                logs.append(os.path.join(dirpath, f))
            if f in ("ir_pre_fusion.txt", "ir_post_fusion.txt"):
                fusion.append(os.path.join(dirpath, f))
    for t in ALL:
        os.makedirs(os.path.join(a.o, t), exist_ok=True)
    for path in sorted(fusion):
        write(a.o, "scheduler-ir", open(path, "rb").read())
    made = os.path.join(a.o, "fixtures")
    for path in sorted(logs):
        if path.endswith(".yaml"):
            # The log the YAML describes, where tlp-opt can read it.
            rel = os.path.relpath(path, a.inputs)[:-len(".yaml")] + ".log"
            log = os.path.join(made, rel)
            os.makedirs(os.path.dirname(log), exist_ok=True)
            subprocess.run([a.tlp_yaml2log, path, "-o", log], check=True)
            path = log
        data = open(path, "rb").read()
        write(a.o, "log", data)
        guards = []
        for name, body in split_payloads(data):
            if name in TARGETS:
                write(a.o, TARGETS[name], body)
            if name == "dynamo_cpp_guards_str":
                guards.append(body)
        # The guards of a compile and of the next: a pair to diff.
        for before, after in zip(guards, guards[1:]):
            write(a.o, "guards", before + b"\n---\n" + after)
        if a.tlp_opt:
            # Read from the log's folder by its name, so that the IR names
            # no folder of this machine: the seeds, and so what a fixed-seed
            # run explores, are the same in every checkout (CI's included).
            ir = subprocess.run([os.path.abspath(a.tlp_opt), "--verify-each",
                                 "--link-provenance", os.path.basename(path)],
                                cwd=os.path.dirname(os.path.abspath(path)),
                                stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL).stdout
            if ir:
                write(a.o, "ir", ir)
                compact = subprocess.run(
                    [a.tlp_opt, "--verify-each", "--compact", "-"],
                    input=ir, stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL).stdout
                if compact:
                    write(a.o, "ir-compact", compact)
    if os.path.isdir(made):
        shutil.rmtree(made)
    empty = [t for t in ALL if not os.listdir(os.path.join(a.o, t))
             and (t not in ("ir", "ir-compact") or a.tlp_opt)]
    if empty:
        print("make-seeds: error: no seeds for %s" % ", ".join(empty),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
