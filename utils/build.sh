#!/usr/bin/env bash
# Configure and build tlp in build/ (Release, Ninja).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TLP_BUILD_DIR:-$root/build}"
jobs="${TLP_JOBS:-$(nproc)}"
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j "$jobs"
