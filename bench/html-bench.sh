#!/usr/bin/env bash
# The HTML benchmark (docs/html.md, "Performance"): a synthetic log with a
# post-grad graph of 20,000 nodes and a wrapper of 50,000 lines, emitted as
# a directory and as one page, opened in headless Chromium.
#   bench/html-bench.sh [WORKDIR]     (default: a new temporary directory)
# Needs a build (utils/build.sh) and the browser test set-up
# (utils/install-deps.sh --test).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${TLP_BUILD_DIR:-$root/build}/bin"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
python3 "$root/bench/gen-large-log.py" --post 20000 --lines 50000 -o "$work/big.log"
rm -rf "$work/big"
t0=$(date +%s.%N)
"$bin/tlp-emit" --html "$work/big.log" -o "$work/big/"
t1=$(date +%s.%N)
"$bin/tlp-emit" --html "$work/big.log" -o "$work/big.html"
t2=$(date +%s.%N)
echo "tlp-emit --html -o DIR:  $(echo "$t1 - $t0" | bc) s, page $(du -h "$work/big/0-0-inference.html" | cut -f1)"
echo "tlp-emit --html -o FILE: $(echo "$t2 - $t1" | bc) s, page $(du -h "$work/big.html" | cut -f1)"
node "$root/bench/html-load.js" --runs "${RUNS:-5}" "$work/big/0-0-inference.html" "$work/big.html"
