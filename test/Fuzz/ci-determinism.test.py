# The progress lines of a libFuzzer log, less speed and memory.
import re
import sys
for line in open(sys.argv[1]):
    if re.match(r"#[0-9]+\t(NEW|REDUCE|INITED|DONE)", line):
        print(re.sub(r" (exec/s|rss|lim): [0-9]+(Mb)?", "", line), end="")
