#!/usr/bin/env bash
# Instructions (callgrind) of the pipe `tlp-opt --link-provenance LOG |
# tlp-emit --html`, side by side, with the IR as text and as the compact
# form (tlp-opt --compact), against one process (`tlp-emit --html LOG`).
#   bench/pipe-instructions.sh [--build build] LOG...
# Each side runs alone under valgrind --tool=callgrind (IR through a file,
# so the sides are counted apart; the pipe runs the same code). Counts are
# the same for the same binary and input whatever else the machine does.
# Prints one Markdown table; docs/performance.md records it. Slow (about
# 50 times the run): for logs of tens of MB, not the 356 MB one.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
if [[ "${1:-}" == --build ]]; then
  build="$2"
  shift 2
fi
bin="$build/bin"
work="$(mktemp -d "$build/pipe-instructions.XXXXXX")"
trap 'rm -rf "$work"' EXIT
count() {
  local out="$work/cg.out"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" \
    >/dev/null 2>"$work/cg.err" || true
  sed -n 's/^summary: //p' "$out"
}
ratio() { python3 -c "print('%.2fx' % (($1) / ($2)))"; }
echo "| log | one process (\`tlp-emit --html\`) | text: tlp-opt + tlp-emit | pipe / one | compact: tlp-opt + tlp-emit | pipe / one | IR bytes (text; compact) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
for log in "$@"; do
  one=$(count "$bin/tlp-emit" --html "$log" -o "$work/one")
  rm -rf "$work/one" "$work/out"
  to=$(count "$bin/tlp-opt" --link-provenance "$log" -o "$work/ir.yaml")
  te=$(count "$bin/tlp-emit" --html "$work/ir.yaml" -o "$work/out")
  rm -rf "$work/out"
  co=$(count "$bin/tlp-opt" --link-provenance --compact "$log" -o "$work/ir.tlpc")
  ce=$(count "$bin/tlp-emit" --html "$work/ir.tlpc" -o "$work/out")
  rm -rf "$work/out"
  printf '| %s | %s | %s + %s | %s | %s + %s | %s | %s; %s |\n' \
    "$(basename "$log")" "$one" "$to" "$te" "$(ratio "$to + $te" "$one")" \
    "$co" "$ce" "$(ratio "$co + $ce" "$one")" \
    "$(wc -c <"$work/ir.yaml")" "$(wc -c <"$work/ir.tlpc")"
done
