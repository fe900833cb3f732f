#!/usr/bin/env python3
"""Look into and damage compact IR (tlp-opt --compact; docs/IR.md).

    compact-ir.py frames IR              the preamble, then one line per
                                         frame: offset, body length, tag
    compact-ir.py damage IR OUT HOW      write IR damaged as HOW says:
        version=V          the preamble's IR version set to V
        revision=R         the encoding revision set to R
        magic=HEX          the first bytes replaced by HEX
        frame-length=K:N   frame K's length field set to N
        root-length=K:N    the length of frame K's root mapping set to N
        key=K:N            the first key number of frame K's root set to N
        byte=K:I:V         byte I of frame K's body set to V
        cut-frame=K        cut in the middle of frame K's body
        not-utf8=TEXT      the first byte of the first TEXT set to 0xff
    compact-ir.py cuts TLP-OPT TLP-EMIT IR WORKDIR
        cut IR at every frame boundary and inside every frame; each cut
        given to `tlp-opt FILE` and on stdin to `tlp-emit --json -` must
        exit 1 with an error that names the input and a byte offset, and
        the whole IR must pass. One summary line; exits 1 on a cut that
        read as complete or that crashed a tool.
"""
import os
import struct
import subprocess
import sys

MAGIC = b"\x89tlpIR\r\n"
PREAMBLE = 16


def varint(data, pos):
    v = shift = 0
    while True:
        b = data[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, pos


def frames(data):
    """(offset of the length field, body offset, body length, tag)."""
    out = []
    pos = PREAMBLE
    while pos + 8 <= len(data):
        (n,) = struct.unpack_from("<Q", data, pos)
        body = pos + 8
        tlen, p = varint(data, body)
        out.append((pos, body, n, data[p:p + tlen].decode("ascii", "replace")))
        pos = body + n
    return out


def root(data, body):
    """Offsets in the data of frame body `body`'s root value: (tag byte,
    length field, first entry)."""
    tlen, p = varint(data, body)
    p += tlen
    nkeys, p = varint(data, p)
    for _ in range(nkeys):
        klen, p = varint(data, p)
        p += klen
    at = p
    assert data[at] in (3, 4), "root is not a mapping"
    p = at + 1
    if data[at] == 4:
        tlen, p = varint(data, p)
        p += tlen
    return at, p, p + 8


def damage(data, how):
    data = bytearray(data)
    what, _, arg = how.partition("=")
    fr = frames(bytes(data))
    if what == "version":
        struct.pack_into("<I", data, 8, int(arg))
    elif what == "revision":
        struct.pack_into("<I", data, 12, int(arg))
    elif what == "magic":
        b = bytes.fromhex(arg)
        data[:len(b)] = b
    elif what == "frame-length":
        k, n = (int(x) for x in arg.split(":"))
        struct.pack_into("<Q", data, fr[k][0], n)
    elif what == "root-length":
        k, n = (int(x) for x in arg.split(":"))
        _, length, _ = root(data, fr[k][1])
        struct.pack_into("<Q", data, length, n)
    elif what == "key":
        k, n = (int(x) for x in arg.split(":"))
        _, _, first = root(data, fr[k][1])
        assert data[first] < 0x80
        data[first] = n
    elif what == "byte":
        k, i, v = (int(x, 0) for x in arg.split(":"))
        data[fr[k][1] + i] = v
    elif what == "not-utf8":
        at = bytes(data).index(arg.encode())
        data[at] = 0xFF
    elif what == "keys":
        # Frame k's key table says n keys and holds n empty ones (before
        # its own): a table larger than any the IR has.
        k, n = (int(x) for x in arg.split(":"))
        start, body, length = fr[k][0], fr[k][1], fr[k][2]
        tlen, p = varint(data, body)
        p += tlen
        _, q = varint(data, p)
        count = bytearray()
        v = n
        while True:
            count.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
            v >>= 7
            if not v:
                break
        new = bytes(data[body:p]) + bytes(count) + b"\0" * n + \
            bytes(data[q:body + length])
        data[body:body + length] = new
        struct.pack_into("<Q", data, start, len(new))
    elif what == "cut-frame":
        k = int(arg)
        del data[fr[k][1] + fr[k][2] // 2:]
    else:
        sys.exit("compact-ir: unknown damage '%s'" % how)
    return bytes(data)


def cuts(opt, emit, ir, work):
    os.makedirs(work, exist_ok=True)
    data = open(ir, "rb").read()
    fr = frames(data)
    at = [0, 4, PREAMBLE // 2, PREAMBLE]
    for pos, body, n, _ in fr:
        at += [pos + 3, body, body + 1, body + n // 2]
        if pos + 8 + n < len(data):
            at.append(pos + 8 + n)
    at = sorted(set(a for a in at if a < len(data))) + [len(data)]
    cut = os.path.join(work, "cut.tlpc")
    bad = []
    for a in at:
        whole = a == len(data)
        with open(cut, "wb") as f:
            f.write(data[:a])
        runs = [
            ("tlp-opt", subprocess.run(
                [opt, "--verify-each", cut, "-o", os.path.join(work, "out.yaml")],
                capture_output=True)),
            ("tlp-emit", subprocess.run(
                [emit, "--verify-each", "--json", "-", "-o",
                 os.path.join(work, "out.json")],
                input=data[:a], capture_output=True)),
        ]
        for tool, p in runs:
            err = p.stderr.decode("utf-8", "replace")
            if whole:
                if p.returncode != 0:
                    bad.append("whole IR: %s exit %d\n%s" % (tool, p.returncode, err))
            elif a < 4:
                # Too short to be told from a log: read as one, never a crash.
                if p.returncode not in (0, 1):
                    bad.append("cut at byte %d: %s exit %d\n%s" % (
                        a, tool, p.returncode, err[-600:]))
            elif p.returncode != 1 or "error: at byte " not in err:
                bad.append("cut at byte %d: %s exit %d, stderr:\n%s" % (
                    a, tool, p.returncode, err[-600:]))
    print("compact-ir: %d cuts in %d frames, %d not told" % (
        len(at) - 1, len(fr), len(bad)))
    for b in bad:
        print(b)
    return 1 if bad else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "frames":
        data = open(sys.argv[2], "rb").read()
        assert data.startswith(MAGIC), "not compact IR"
        v, r = struct.unpack_from("<II", data, 8)
        print("preamble: IR version %d, revision %d" % (v, r))
        for pos, body, n, tag in frames(data):
            print("frame at %d: %d bytes, %s" % (pos, n, tag))
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "damage":
        data = open(sys.argv[2], "rb").read()
        with open(sys.argv[3], "wb") as f:
            f.write(damage(data, sys.argv[4]))
        return 0
    if len(sys.argv) == 6 and sys.argv[1] == "cuts":
        return cuts(*sys.argv[2:6])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
