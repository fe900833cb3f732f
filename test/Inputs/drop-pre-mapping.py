"""Write LOG with the pre-grad halves of every provenance mapping emptied
(`preToPost` and `postToPre` as `{}`, the kernel halves kept, or set to
KERNELS, a JSON object of `cppCodeToPost`, when given), the `has_payload`
md5 made to match: how PyTorch logs the mapping of some backward graphs.

    drop-pre-mapping.py IN OUT [KERNELS]
"""
import hashlib
import json
import sys

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
for i, line in enumerate(lines):
    if "inductor_provenance_tracking_node_mappings" not in line:
        continue
    m = json.loads(lines[i + 1][1:])
    m["preToPost"] = {}
    m["postToPre"] = {}
    if len(sys.argv) > 3:
        m["cppCodeToPost"] = json.loads(sys.argv[3])
        post = {}
        for k, names in m["cppCodeToPost"].items():
            for n in names:
                post.setdefault(n, []).append(k)
        m["postToCppCode"] = post
    text = json.dumps(m)
    md5 = json.loads(line[line.index("{"):])["has_payload"]
    lines[i] = line.replace(md5, hashlib.md5(text.encode()).hexdigest())
    lines[i + 1] = "\t" + text
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines))
