#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run unit and lit
# tests through CTest. Exits non-zero on any failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/utils/install-deps.sh" --test
"$root/utils/build.sh"
build="${TLP_BUILD_DIR:-$root/build}"
# Configure again so that test tools installed since the first configure
# (chromium, node: lit features) are found.
cmake "$build" >/dev/null
ctest --test-dir "$build" --output-on-failure
