"""Writes the rank logs of shared-texts.test (with no argument but a
directory), or prints what a --json output says of their texts."""
import hashlib
import json
import os
import sys

PREFIX = "V1204 07:12:00.000000 2599 torch/_dynamo/utils.py:1] "

# Each rank's cache key components and inductor_config, as raw JSON string
# texts: rank 1 writes A and cfg1 with escapes of the same characters.
A = '"[aaaa] fx_kwargs[cpp_wrapper]: False"'
A_ESC = '"[aaaa] fx_kwargs[cpp_wrapper]: \\u0046alse"'
B = '"[bbbb] gm: def forward(self):\\n    return ()"'
C = '"[cccc] example_inputs[0]: caf\\u00e9"'
D = '"[dddd] deterministic: (False, False, True)"'
E = '"[eeee] torch_version: 2.13"'
CFG1 = '"{\\"max_autotune\\": false}"'
CFG1_ESC = '"{\\"max_autotune\\": \\u0066alse}"'
CFG2 = '"{\\"max_autotune\\": true}"'
RANKS = [([A, B], CFG1), ([C, A_ESC, B], CFG1_ESC), ([D], CFG2),
         ([C, E], CFG1)]


def line(envelope, payload=None):
    if payload is None:
        return PREFIX + envelope + "\n"
    md5 = hashlib.md5(payload.encode()).hexdigest()
    return (PREFIX + envelope[:-1] + ', "has_payload": "%s"}' % md5 + "\n" +
            "\t" + payload + "\n")


def write(d):
    os.makedirs(d, exist_ok=True)
    for rank, (comps, cfg) in enumerate(RANKS):
        ids = '"frame_id": 0, "frame_compile_id": 0, "attempt": 0'
        text = line('{"dynamo_start": {"stack": []}, "rank": %d, %s}' %
                    (rank, ids))
        text += line('{"artifact": {"name": "fx_graph_cache_miss", '
                     '"encoding": "json"}, "rank": %d, %s}' % (rank, ids),
                     '{"key": "k%d", "components": [%s]}' %
                     (rank, ", ".join(comps)))
        text += line('{"compilation_metrics": {"compile_id": "0/0", '
                     '"inductor_config": %s}, "rank": %d, %s}' %
                     (cfg, rank, ids))
        name = "dedicated_log_torch_trace_rank_%d.log" % rank
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


def show(path):
    d = json.load(open(path))
    for i, t in enumerate(d["key_components"]):
        print("component %d: %s" % (i, t))
    for i, t in enumerate(d["config_texts"]):
        print("config %d: %s" % (i, json.dumps(t)))
    for c in d["compiles"]:
        print("%s: components %s configs %s" % (
            c["name"], [k["components"] for k in c["caches"]], c["configs"]))


if __name__ == "__main__":
    if sys.argv[1] == "--write":
        write(sys.argv[2])
    else:
        show(sys.argv[1])
