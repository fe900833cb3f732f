#!/usr/bin/env bash
# The whole test suite: install what is missing, then
#   0. make real PyTorch logs with utils/gen-torch-logs.py in
#      build/torch-logs (kept while the script is unchanged and every run
#      of it passed), with the PyTorch venv of install-deps.sh --torch;
#   1. build (Release, GCC) and run the unit and lit tests through CTest
#      (test/Integration/Torch checks tlp on those logs);
#   2. build again with clang, AddressSanitizer, UBSan and libFuzzer
#      instrumentation (build-san/; beside the tests of 1, at a lower
#      priority: alone, those keep the two cores only about half busy,
#      waiting on browsers) and run the same tests there (the browser
#      tests excepted: they test the page script, not our C++; and the
#      torch tests, whose logs are in build/);
#   3. (a CTest test of that build) run every fuzz target on its seeds
#      and regressions, then for a fixed number of inputs from a fixed seed
#      (utils/run-fuzzers.sh --ci; TLP_FUZZ_SEED, default 1): the same
#      verdict on every machine; utils/run-fuzzers.sh SECONDS explores.
# The output ends with CTest's summary line.
# Exits non-zero on any failure. TLP_SANITIZE=0 skips 2 and 3 (a quick run);
# TLP_TORCH=0 skips 0 (and so the torch tests, unless logs are there).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TLP_BUILD_DIR:-$root/build}"
export TLP_TORCH_VENV="${TLP_TORCH_VENV:-$build/torch-venv}"
export TLP_PY_VENV="${TLP_PY_VENV:-$build/py-venv}"
if [[ "${TLP_TORCH:-1}" == 0 ]]; then
  "$root/utils/install-deps.sh" --test
else
  "$root/utils/install-deps.sh" --test --torch
fi
"$root/utils/build.sh"
if [[ "${TLP_TORCH:-1}" != 0 ]]; then
  echo "run-tests: real PyTorch logs ($build/torch-logs)"
  # A run that fails is reported here and again, as an error, by the
  # torch tests (its status is in the manifest), so the suite fails.
  python3 "$root/utils/gen-torch-logs.py" --out "$build/torch-logs" \
    --python "$TLP_TORCH_VENV/bin/python" ||
    echo "run-tests: gen-torch-logs.py failed; test/Integration/Torch reports which runs"
  if [[ ! -f "$build/torch-logs/manifest.json" ]]; then
    echo "run-tests: no $build/torch-logs/manifest.json: the torch tests cannot run" >&2
    exit 1
  fi
fi
# Configure again so that test tools installed since the first configure
# (chromium, node: lit features) are found.
cmake "$build" >/dev/null
# CTest runs its tests side by side (-j): lit keeps both cores busy only
# in part (browser tests wait on frames), the Python tests, the mutation
# campaign and the fuzz targets use one each.
jobs="${TLP_JOBS:-$(nproc)}"
san="${TLP_SAN_BUILD_DIR:-$root/build-san}"
san_log="$build/sanitizer-build.log"
san_pid=
if [[ "${TLP_SANITIZE:-1}" != 0 ]]; then
  echo "run-tests: sanitizer build ($san): clang, ASan, UBSan, libFuzzer;" \
    "beside the release tests, at a lower priority (its output: $san_log)"
  # Its own process group (setsid), so that a failure below stops it whole.
  setsid nice -n 10 bash -c '
    set -e
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
      -DTLP_ENABLE_FUZZERS=ON -DTLP_ENABLE_BROWSER_TESTS=OFF >/dev/null
    cmake --build "$2" -j "$3"' bash "$root" "$san" "$jobs" \
    >"$san_log" 2>&1 &
  san_pid=$!
  trap '[[ -n "$san_pid" ]] && kill -- -"$san_pid" 2>/dev/null; true' EXIT
fi
echo "run-tests: tests of the release build ($build)"
ctest --test-dir "$build" --output-on-failure -j "$jobs"

if [[ -z "$san_pid" ]]; then
  exit 0
fi
if ! wait "$san_pid"; then
  san_pid=
  cat "$san_log"
  echo "run-tests: the sanitizer build failed" >&2
  exit 1
fi
san_pid=
echo "run-tests: sanitizer build done ($(tail -n 1 "$san_log"))"
echo "run-tests: tests of the sanitizer build, then fuzzing"
# Any report aborts the tool and fails its test (test/lit.cfg.py sets
# ASAN_OPTIONS, UBSAN_OPTIONS and LSAN_OPTIONS).
export TLP_FUZZ_SEED="${TLP_FUZZ_SEED:-1}"
# One test more than cores: the lit run, the fuzz targets and the mutation
# campaign all start at once, so that none is left alone on one core at
# the end while the other core idles.
ctest --test-dir "$san" --output-on-failure -j "$((jobs + 1))"
