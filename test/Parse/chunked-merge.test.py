# Each compile of a `tlp-emit --json` file: id, ordinal, first line, status
# and spans (name, phase, start+duration in microseconds).
import json
import sys

for c in json.load(open(sys.argv[1]))["compiles"]:
    spans = ", ".join("%s %s %d+%d" % (s["name"], s["ph"], s["start_us"],
                                       s["dur_us"]) for s in c["spans"])
    print("%s #%s line %d %s: %s" % (c["compile_id"], c["ordinal"], c["line"],
                                     c["status"], spans))
