#!/usr/bin/env bash
# Build the libFuzzer targets with clang (ASan + UBSan) and run each,
# starting from seeds made from the test fixtures and from the inputs that
# once broke a property (fuzz/regressions).
#   utils/run-fuzzers.sh [SECONDS-PER-TARGET]   explore: each target for a
#       time (default: $TLP_FUZZ_SECONDS or 30), from a new random seed
#       (TLP_FUZZ_SEED=N fixes it), keeping what it finds in
#       $build/fuzz-out/<target>/corpus for the next run.
#   utils/run-fuzzers.sh --ci [TARGET...]       the check of the test suite
#       (CTest's tlp-fuzz, so CI): each target replays the seeds and
#       regressions, then runs a fixed number of inputs (RUNS below) from
#       a fixed seed ($TLP_FUZZ_SEED or 1), with no corpus kept between
#       runs and the inputs given in a fixed order: the same inputs on
#       every machine and every rerun, so its verdict never depends on the
#       machine's speed. No time bound decides it (-timeout only flags an
#       input that hangs for 120 s). TLP_FUZZ_RUNS=N runs N inputs per
#       target instead; TARGETs (log, ir, fx-graph, ...) limit it to those.
# TLP_FUZZ_OUT: where seeds, logs and finds go ($build/fuzz-out);
# TLP_FUZZ_NO_BUILD=1: the targets are built already; TLP_FUZZ_JOBS=N:
# targets run N at a time (default: the number of cores; each target is
# one process, its inputs the same whatever runs beside it), reported in
# the order above.
# A target that breaks a property or crashes leaves its input in
# $build/fuzz-out/<target>/crash-*; copy it to fuzz/regressions/<target>/
# once fixed, so that the test suite replays it. Exits non-zero on a find.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ci=0
if [[ "${1:-}" == --ci ]]; then
  ci=1
  shift
fi
secs="${1:-${TLP_FUZZ_SECONDS:-30}}"
# Inputs per target in --ci mode (each about 10 s on one core of a 2-core
# machine under load; halved on 2026-12-08, a trade for CI's 30 minutes:
# finding new inputs is the job of utils/run-fuzzers.sh SECONDS;
# docs/testing.md).
declare -A RUNS=(
  [log]=400 [ir]=5000 [ir-compact]=5000 [fx-graph]=4000
  [python-wrapper]=4000 [cpp-code]=3000
  [node-mappings]=12500 [stack-traces]=20000 [kernel-info]=20000
  [node-tree]=20000 [kernel-nodes]=20000 [scheduler-ir]=10000 [guards]=10000
)
build="${TLP_FUZZ_BUILD_DIR:-$root/build-san}"

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DTLP_ENABLE_FUZZERS=ON -DTLP_ENABLE_BROWSER_TESTS=OFF >/dev/null
fi
if [[ "${TLP_FUZZ_NO_BUILD:-0}" != 1 ]]; then
  cmake --build "$build" --target tlp-fuzzers tlp-opt tlp-yaml2log
fi

out="${TLP_FUZZ_OUT:-$build/fuzz-out}"
rm -rf "$out/seeds"
python3 "$root/fuzz/make-seeds.py" --inputs "$root/test/Inputs" \
  --tlp-opt "$build/bin/tlp-opt" --tlp-yaml2log "$build/bin/tlp-yaml2log" \
  -o "$out/seeds"

# In --ci mode the targets run with address randomisation off: a pointer's
# hash then gives the same hash-table probes in every run, so the coverage,
# and with it what libFuzzer keeps and mutates next, is the same (with it
# on, two runs of one seed differed from the first input on).
# The environment is fixed as well (env -i): its size moves the stack, and
# what it holds (locale, options) what is allocated first, so that with the
# caller's environment two machines' runs differed (CI found an input a
# local run of the same seed never made). The clone's path, in the
# arguments, still counts: CI's is /check/work/main.
norandom=()
if ((ci)); then
  norandom=(env -i PATH=/usr/lib/llvm-14/bin:/usr/bin:/bin LC_ALL=C)
  if setarch "$(uname -m)" -R true 2>/dev/null; then
    norandom+=(setarch "$(uname -m)" -R)
  else
    echo "run-fuzzers: cannot turn address randomisation off (setarch -R);" \
         "runs may differ from machine to machine"
  fi
fi

targets=(log ir ir-compact fx-graph python-wrapper cpp-code node-mappings stack-traces
         kernel-info node-tree kernel-nodes scheduler-ir guards)
if ((ci && $# > 0)); then
  targets=("$@")
fi
# One target: its command's output in $out/$t/log.txt, the lines this
# script prints for it in $out/$t/report.txt, "ok" or "failed" in
# $out/$t/status.
run_target() {
  local t="$1"
  local corpus="$out/$t/corpus"
  mkdir -p "$corpus" "$out/$t"
  rm -f "$out/$t"/crash-* "$out/$t"/timeout-* "$out/$t"/oom-* "$out/$t"/leak-*
  local dict=() regress=() common=() cmd=() seed=()
  [[ -f "$root/fuzz/dicts/$t.dict" ]] && dict=(-dict="$root/fuzz/dicts/$t.dict")
  [[ -d "$root/fuzz/regressions/$t" ]] && regress=("$root/fuzz/regressions/$t")
  # -timeout: an input that hangs counts as a find.
  # -entropic=0: entropic scheduling cost two thirds of the time here.
  common=(-entropic=0 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
          -artifact_prefix="$out/$t/" "${dict[@]}")
  local report="$out/$t/report.txt"
  if ((ci)); then
    # No corpus directory: libFuzzer sorts the inputs it starts from by
    # size only, so inputs of one size would keep the order in which the
    # file system lists them; a list in name order keeps the runs alike.
    local list="$out/$t/inputs.txt"
    find "$out/seeds/$t" "${regress[@]}" -type f 2>/dev/null | LC_ALL=C sort |
      paste -sd, - >"$list"
    local runs="${TLP_FUZZ_RUNS:-${RUNS[$t]}}"
    echo "run-fuzzers: $t for $runs runs, seed ${TLP_FUZZ_SEED:-1}" >"$report"
    cmd=("${norandom[@]}" "$build/bin/tlp-fuzz-$t" -runs="$runs" -seed="${TLP_FUZZ_SEED:-1}"
         -timeout=120 "${common[@]}" -seed_inputs=@"$list")
  else
    echo "run-fuzzers: $t for ${secs}s" >"$report"
    [[ -n "${TLP_FUZZ_SEED:-}" ]] && seed=(-seed="$TLP_FUZZ_SEED")
    cmd=("$build/bin/tlp-fuzz-$t" -max_total_time="$secs" -timeout=10
         "${seed[@]}" "${common[@]}" "$corpus" "$out/seeds/$t" "${regress[@]}")
  fi
  if ! "${cmd[@]}" >"$out/$t/log.txt" 2>&1; then
    {
      echo "run-fuzzers: $t FOUND A PROBLEM:"
      grep -E "property broken|ERROR|SUMMARY|Test unit written" "$out/$t/log.txt" |
        head -5 || true
    } >>"$report"
    echo failed >"$out/$t/status"
  else
    {
      { grep -E "stat::number_of_executed_units|stat::peak_rss_mb" \
          "$out/$t/log.txt" || true; } | tr '\n' ' '; echo
    } >>"$report"
    echo ok >"$out/$t/status"
  fi
}

parallel="${TLP_FUZZ_JOBS:-$(nproc)}"
for t in "${targets[@]}"; do
  rm -f "$out/$t/status" "$out/$t/report.txt"
done
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= parallel)); do
    wait -n || true
  done
  run_target "$t" &
done
wait
failed=()
for t in "${targets[@]}"; do
  cat "$out/$t/report.txt" 2>/dev/null || true
  [[ "$(cat "$out/$t/status" 2>/dev/null)" == ok ]] || failed+=("$t")
done
if ((${#failed[@]})); then
  echo "run-fuzzers: problems found by: ${failed[*]} (inputs under $out)" >&2
  exit 1
fi
if ((ci)); then
  echo "run-fuzzers: no problems in ${#targets[@]} targets (fixed runs and seed)"
else
  echo "run-fuzzers: no problems in ${#targets[@]} targets x ${secs}s"
fi
