#!/usr/bin/env bash
# Install the Debian 12 packages tlp needs to build and test, if missing.
#   utils/install-deps.sh [--test]     (--test: also what the test suite uses)
set -euo pipefail

pkgs=(cmake ninja-build g++ pkg-config python3 llvm-14-dev llvm-14-tools
      nlohmann-json3-dev libcmark-gfm-dev libcmark-gfm-extensions-dev)
if [[ "${1:-}" == "--test" ]]; then
  pkgs+=(libgtest-dev graphviz)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
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
