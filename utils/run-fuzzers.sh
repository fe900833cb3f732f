#!/usr/bin/env bash
# Build the libFuzzer targets with clang (ASan + UBSan) and run each for a
# bounded time, starting from seeds made from the test fixtures.
#   utils/run-fuzzers.sh [SECONDS-PER-TARGET]     (default: $TLP_FUZZ_SECONDS or 30)
# TLP_FUZZ_SEED=N fixes libFuzzer's random seed (utils/run-tests.sh, and so
# CI, uses 1, so that runs start alike; a time-bounded run still gets
# further on a faster machine); unset, each run explores new ones.
# A target that breaks a property or crashes leaves its input in
# $build/fuzz-out/<target>/crash-*; copy it to fuzz/regressions/<target>/
# once fixed, so that the test suite replays it. Exits non-zero on a find.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-${TLP_FUZZ_SECONDS:-30}}"
build="${TLP_FUZZ_BUILD_DIR:-$root/build-san}"

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DTLP_ENABLE_FUZZERS=ON -DTLP_ENABLE_BROWSER_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target tlp-fuzzers tlp-opt

out="$build/fuzz-out"
rm -rf "$out/seeds"
python3 "$root/fuzz/make-seeds.py" --inputs "$root/test/Inputs" \
  --tlp-opt "$build/bin/tlp-opt" -o "$out/seeds"

targets=(log ir fx-graph python-wrapper cpp-code node-mappings stack-traces
         kernel-info node-tree kernel-nodes)
failed=()
for t in "${targets[@]}"; do
  corpus="$out/$t/corpus"
  mkdir -p "$corpus" "$out/$t"
  rm -f "$out/$t"/crash-* "$out/$t"/timeout-* "$out/$t"/oom-* "$out/$t"/leak-*
  dict=()
  [[ -f "$root/fuzz/dicts/$t.dict" ]] && dict=(-dict="$root/fuzz/dicts/$t.dict")
  regress=()
  [[ -d "$root/fuzz/regressions/$t" ]] && regress=("$root/fuzz/regressions/$t")
  echo "run-fuzzers: $t for ${secs}s"
  # -timeout: an input that takes 10 s counts as a hang.
  # -entropic=0: entropic scheduling cost two thirds of the time here.
  seed=()
  [[ -n "${TLP_FUZZ_SEED:-}" ]] && seed=(-seed="$TLP_FUZZ_SEED")
  if ! "$build/bin/tlp-fuzz-$t" -max_total_time="$secs" -timeout=10 -entropic=0 \
      "${seed[@]}" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$out/$t/" "${dict[@]}" \
      "$corpus" "$out/seeds/$t" "${regress[@]}" >"$out/$t/log.txt" 2>&1; then
    failed+=("$t")
    echo "run-fuzzers: $t FOUND A PROBLEM:"
    grep -E "property broken|ERROR|SUMMARY|Test unit written" "$out/$t/log.txt" | head -5
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$t/log.txt" |
      tr '\n' ' '; echo
  fi
done
if ((${#failed[@]})); then
  echo "run-fuzzers: problems found by: ${failed[*]} (inputs under $out)" >&2
  exit 1
fi
echo "run-fuzzers: no problems in ${#targets[@]} targets x ${secs}s"
