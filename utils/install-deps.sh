#!/usr/bin/env bash
# Install the Debian 12 packages tlp needs to build and test, if missing.
#   utils/install-deps.sh [--test]     (--test: also what the test suite uses)
set -euo pipefail

pkgs=(cmake ninja-build g++ pkg-config python3 llvm-14-dev llvm-14-tools
      nlohmann-json3-dev libcmark-gfm-dev libcmark-gfm-extensions-dev)
test=0
if [[ "${1:-}" == "--test" ]]; then
  test=1
  # Graphviz checks the DOT output; the browser tests (test/Chromium) use
  # Debian's Chromium through playwright-core (test/browser, installed
  # below with npm ci); clang and its runtimes build the sanitizer and
  # libFuzzer builds (utils/run-tests.sh, utils/run-fuzzers.sh).
  pkgs+=(libgtest-dev graphviz chromium clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
# Node.js and npm from Debian, unless a node and npm are there already (a
# nodejs from elsewhere may bundle npm and conflict with Debian's).
if ((test)); then
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
fi

# The pinned npm packages of the browser tests, when missing or stale.
npm_ci() {
  local dir="$root/test/browser"
  ((test)) || return 0
  if [[ ! -f "$dir/node_modules/.package-lock.json" ||
        "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
    echo "install-deps: npm ci in test/browser"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
}
root="$(cd "$(dirname "$0")/.." && pwd)"

if ((${#missing[@]} == 0)); then
  npm_ci
  exit 0
fi

sudo=""
if [[ "$(id -u)" != 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
npm_ci
