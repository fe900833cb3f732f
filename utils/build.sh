#!/usr/bin/env bash
# Configure and build tlp in build/ (Release, Ninja).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TLP_BUILD_DIR:-$root/build}"
jobs="${TLP_JOBS:-$(nproc)}"
# With ccache (utils/install-deps.sh installs it) the objects are kept:
# the wheel's build (python/tests/test_wheel.py), configured alike one
# level below the clone, compiles nothing again. Paths under the clone are
# hashed relative to the build directory (CCACHE_BASEDIR), so that a build
# directory at the same depth hits.
launcher=()
if command -v ccache >/dev/null; then
  l="env;CCACHE_BASEDIR=$root;ccache"
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=$l" "-DCMAKE_C_COMPILER_LAUNCHER=$l")
fi
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j "$jobs"
