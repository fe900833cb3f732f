"""Damaging logs: the mutants of the mutation campaign and the damaged
and hostile inputs of the robustness campaign. Every draw comes from the
caller's random.Random, so a seed gives the same logs on every run.

Mutants (utils/mutate-logs.py):
  KINDS                  the kinds of mutant
  find_logs(paths)       the log files of files and directories
  mutate(data, kind, rng)  one mutant of the bytes of a log
  clean_cut(data, mutant, kind)  a truncation right after an event, or
                         before the break of its last payload line: a
                         whole, shorter log (nothing in it can tell)
Damaged inputs (test/utils/robustness.py):
  make_inputs(inputs, work, rng)  (kind, path) of each damaged input made
                         from the fixtures in INPUTS, written under WORK
  INJECTIONS, injected(data, rng)  hostile strings in envelopes and payloads
Damage in place (the fixture damagers make-drops.py, make-losses.py) uses
tlplog.log's events(), find() and clear_md5().
"""
import json
import os
import re
import shutil

from .log import events

KINDS = ["drop-line", "dup-line", "cut-line", "drop-envelope", "dup-event",
         "event-first", "swap-events", "id-field", "flip-byte", "truncate",
         "garbage"]
ID_VALUES = ['"3"', "3.0", "-1", "9223372036854775807", "9223372036854775808",
             "null", "true", '"x"', "1e3"]
ID_KEYS = ["frame_id", "frame_compile_id", "attempt", "rank",
           "compiled_autograd_id"]


def find_logs(paths):
    logs = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith((".log", ".txt")) and "README" not in f:
                        logs.append(os.path.join(root, f))
        elif os.path.isfile(p):
            logs.append(p)
    return sorted(set(logs))


def mutate(data, kind, rng):
    lines = data.split(b"\n")
    ev = events(lines)
    if kind == "drop-line" and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    elif kind == "dup-line":
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == "cut-line":
        i = rng.randrange(len(lines))
        lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    elif kind == "drop-envelope" and ev:
        b, _ = rng.choice(ev)
        del lines[b]
    elif kind == "dup-event" and ev:
        b, e = rng.choice(ev)
        lines[e:e] = lines[b:e]
    elif kind == "event-first" and ev:
        b, e = rng.choice(ev)
        lines = lines[b:e] + lines[:b] + lines[e:]
    elif kind == "swap-events" and len(ev) > 1:
        k = rng.randrange(len(ev) - 1)
        (b1, e1), (b2, e2) = ev[k], ev[k + 1]
        lines = lines[:b1] + lines[b2:e2] + lines[b1:e1] + lines[e2:]
    elif kind == "id-field" and ev:
        b, _ = rng.choice(ev)
        key = rng.choice(ID_KEYS).encode()
        val = rng.choice(ID_VALUES).encode()
        l = lines[b]
        p = l.find(b'"' + key + b'": ')
        if p >= 0:
            q = p + len(key) + 4
            r = q
            while r < len(l) and l[r:r + 1] not in (b",", b"}"):
                r += 1
            lines[b] = l[:q] + val + l[r:]
        else:
            lines[b] = l[:-1] + b', "' + key + b'": ' + val + b"}"
    elif kind == "flip-byte" and data:
        d = bytearray(data)
        i = rng.randrange(len(d))
        d[i] ^= 1 << rng.randrange(8)
        return bytes(d)
    elif kind == "truncate" and data:
        return data[:rng.randrange(len(data))]
    elif kind == "garbage":
        i = rng.randrange(len(lines) + 1)
        lines.insert(i, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))))
    return b"\n".join(lines)


def clean_cut(data, mutated, kind):
    """A log cut right after the line break that ends an event is a whole,
    shorter log: what it lacks cannot be told from a run that logged less.
    So is one cut right before that break when the event ends in a payload
    line: the payload is whole (its md5 covers its lines, not the last
    break), and whole logs end so (the corpus's simple.log and rank 2 log
    end on a chromium event's payload with no line break). (A cut inside a
    payload is not one: the md5 tells; nor is a cut envelope line with no
    payload, which tlp questions.)"""
    if kind != "truncate":
        return False
    if (mutated and not mutated.endswith(b"\n")
            and data[len(mutated):len(mutated) + 1] == b"\n"
            and mutated.rsplit(b"\n", 1)[-1].startswith(b"\t")):
        mutated += b"\n"
    rest = data[len(mutated):].split(b"\n", 1)[0]
    return ((not mutated or mutated.endswith(b"\n")) and
            (not rest.startswith(b"\t") and rest.strip() != b""
             or len(mutated) == len(data)))


def fixtures(inputs):
    names = ["jit_cuda_train.log", "jit_cpu_v1.log", "aot_cuda_v2.log",
             "handles.log"]
    return [(n, open(os.path.join(inputs, n), "rb").read()) for n in names]


def make_inputs(inputs, work, rng):
    """Yield (kind, path) for every damaged input, writing them to work."""
    def put(kind, name, data):
        d = os.path.join(work, kind)
        os.makedirs(d, exist_ok=True)
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(data)
        return kind, p

    for name, data in fixtures(inputs):
        stem = name[:-4]
        for k in range(10):
            cut = rng.randrange(1, len(data))
            yield put("truncated", "%s.cut%d.log" % (stem, cut), data[:cut])
        for k in range(10):
            d = bytearray(data)
            for _ in range(rng.choice([1, 3, 20, 200])):
                d[rng.randrange(len(d))] = rng.randrange(256)
            yield put("flipped", "%s.flip%d.log" % (stem, k), bytes(d))
        yield put("crlf", stem + ".crlf.log", data.replace(b"\n", b"\r\n"))
        yield put("crlf", stem + ".cr.log", data.replace(b"\n", b"\r"))
        # Lines dropped or repeated: events out of their usual order.
        lines = data.split(b"\n")
        for k in range(3):
            ls = list(lines)
            i = rng.randrange(len(ls))
            del ls[i:i + rng.randrange(1, 30)]
            yield put("lines", "%s.del%d.log" % (stem, k), b"\n".join(ls))
            ls = list(lines)
            i = rng.randrange(len(ls))
            ls[i:i] = ls[i:i + rng.randrange(1, 30)]
            yield put("lines", "%s.dup%d.log" % (stem, k), b"\n".join(ls))

    big = b"a" * (16 << 20)
    env = b"V1203 10:00:00.000000 1 torch/x.py:1] "
    yield put("huge", "envelope.log", env + b'{"str": ["' + big + b'", 0]}\n')
    yield put("huge", "unterminated.log", env + b'{"str": ["' + big)
    yield put("huge", "payload.log",
              env + b'{"artifact": {"name": "before_pre_grad_graph", '
              b'"encoding": "string"}, "frame_id": 0, "frame_compile_id": 0, '
              b'"attempt": 0, "has_payload": "00000000000000000000000000000000"}\n'
              b"\t" + big + b"\n")
    yield put("huge", "noline.log", big)
    yield put("huge", "manylines.log", b"\n" * (4 << 20))
    yield put("huge", "deep.log",
              env + b'{"str": ' + b"[" * 200000 + b"]" * 200000 + b"}\n")

    yield put("garbage", "random.bin",
              bytes(rng.randrange(256) for _ in range(200000)))
    yield put("garbage", "nul.bin", b"\0" * 100000)
    yield put("garbage", "high.bin", bytes(rng.randrange(128, 256)
                                           for _ in range(100000)))
    yield put("garbage", "text.log", b"hello\nworld\n" * 1000)
    yield put("garbage", "gzip.log.gz", b"\x1f\x8b\x08\x00" + bytes(100))
    yield put("garbage", "json.log", b'{"not": "a log"}\n' * 100)

    # Hostile strings (see INJECTIONS), in logs with compile failures,
    # graph breaks and recompiles (health.log), markup (markup.log) and
    # a full unit (jit_cpu_v1.log).
    for name in ["health.log", "markup.log", "jit_cpu_v1.log", "restart.log"]:
        data = open(os.path.join(inputs, name), "rb").read()
        for k in range(6):
            yield put("injection", "%s.inj%d.log" % (name[:-4], k),
                      injected(data, rng))

    yield put("empty", "empty.log", b"")
    yield put("empty", "newlines.log", b"\n\n\n")
    yield put("empty", "tabs.log", b"\t\n\t\t\n")
    yield put("empty", "spaces.log", b"   \r\n  ")

    # A directory: rank logs, a log that is damaged, and things that are
    # not logs at all.
    d = os.path.join(work, "dirs", "mixed")
    os.makedirs(os.path.join(d, "subdir"), exist_ok=True)
    for n in os.listdir(os.path.join(inputs, "ranks")):
        shutil.copy(os.path.join(inputs, "ranks", n), d)
    with open(os.path.join(d, "core.bin"), "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(5000)))
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a log\n")
    with open(os.path.join(d, "dedicated_log_torch_trace_rank_7.log"),
              "wb") as f:
        f.write(fixtures(inputs)[0][1][:5000])
    open(os.path.join(d, "empty.log"), "wb").close()
    yield "dirs", d
    d = os.path.join(work, "dirs", "nologs")
    os.makedirs(os.path.join(d, "run0"), exist_ok=True)
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a log\n")
    yield "dirs", d


# Strings a log may hold to attack whoever reads its report (issue 19).
INJECTIONS = [
    "[Click here for the fix](javascript:alert(1))",
    "![](http://host.invalid/x.png)",
    "[![i](http://host.invalid/y.png)](https://host.invalid/)",
    "<img src=x onerror=alert(2)>",
    "<script>alert(3)</script>",
    "<http://host.invalid/auto>",
    "[ref]\n\n[ref]: javascript:alert(4)",
    "`code` *em* _u_ | pipe &amp; &#x6a;avascript:",
    "\u001b]0;pwned\u0007",
    "\u001b[2J\u001b[H",
    "\u001b]52;c;ZXZpbA==\u0007",
    "\u009b2J\u0085",
    "\r\u0008\u007f",
]
BAD_BYTES = [b"\xff\xfe", b"\xc3", b"\xed\xa0\x80"]
ENVELOPE_BYTES = re.compile(rb"^(V\d{4} [0-9:.]+ +\d+ [^\]]*\] )(\{.*\})$")


def inject_json(value, rng, targets):
    """\p value with injections appended to some strings, keys included."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if rng.random() < 0.1:
                k = k + rng.choice(INJECTIONS)
            if k in targets and isinstance(v, str):
                v = v + rng.choice(INJECTIONS)
            out[k] = inject_json(v, rng, targets)
        return out
    if isinstance(value, list):
        return [inject_json(v, rng, targets) for v in value]
    if isinstance(value, str) and rng.random() < 0.5:
        return value + rng.choice(INJECTIONS)
    return value


def injected(data, rng):
    """\p data (a log) with hostile strings in envelopes and payloads."""
    out = []
    targets = {"name", "fail_type", "fail_reason", "co_name", "co_filename",
               "filename", "loc"}
    for line in data.split(b"\n"):
        m = ENVELOPE_BYTES.match(line)
        r = rng.random()
        if m and r < 0.6:
            try:
                env = json.loads(m.group(2))
            except ValueError:
                out.append(line)
                continue
            if rng.random() < 0.3:
                k = next(iter(env))
                env = {k + rng.choice(INJECTIONS): v for k, v in env.items()} \
                    if rng.random() < 0.3 else env
            env = inject_json(env, rng, targets)
            text = json.dumps(env).encode()
            if rng.random() < 0.2:
                # Invalid UTF-8 inside a string of the envelope.
                i = text.find(b'"name": "')
                if i >= 0:
                    i += 9
                    text = text[:i] + rng.choice(BAD_BYTES) + text[i:]
            out.append(m.group(1) + text)
        elif line.startswith(b"\t") and r < 0.2:
            body = line[1:]
            if body.startswith((b"{", b"[")):
                try:
                    body = json.dumps(inject_json(json.loads(body), rng,
                                                  targets)).encode()
                except ValueError:
                    pass
            else:
                # Raw terminal escapes and markup in graph and code text.
                body += (b"  # " + rng.choice(INJECTIONS).encode()
                         .decode("unicode_escape").encode("utf-8"))
            out.append(b"\t" + body)
        else:
            out.append(line)
    return b"\n".join(out)
