#!/usr/bin/env bash
# Install the Debian 12 packages tlp needs to build and test, if missing.
#   utils/install-deps.sh [--test] [--torch]
#     --test:  also what the test suite uses
#              and a Python venv for the Python tests in build/py-venv
#              (TLP_PY_VENV: pytest, scikit-build-core, auditwheel)
#     --torch: also a Python venv with PyTorch 2.13 (CPU), tlparse 0.4.3 and
#              depyf in build/torch-venv (TLP_TORCH_VENV), for the logs of
#              utils/gen-torch-logs.py; kept while its pins are unchanged
set -euo pipefail

# ccache: utils/build.sh keeps the objects, so that the wheel's build (the
# Python tests) reuses them, whichever README command ran first.
pkgs=(cmake ninja-build g++ pkg-config python3 llvm-14-dev llvm-14-tools
      nlohmann-json3-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
      libmimalloc-dev ccache)
test=0
torch=0
for arg in "$@"; do
  case "$arg" in
    --test) test=1 ;;
    --torch) torch=1 ;;
    *) echo "install-deps: unknown option '$arg'" >&2; exit 2 ;;
  esac
done
if ((torch)); then
  pkgs+=(python3-venv)
fi
if ((test)); then
  # Graphviz checks the DOT output; the browser tests
  # (test/Integration/Browser) use Debian's Chromium through playwright-core
  # (the Node project there, installed
  # below with npm ci); clang and its runtimes build the sanitizer and
  # libFuzzer builds (utils/run-tests.sh, utils/run-fuzzers.sh).
  pkgs+=(libgtest-dev graphviz chromium clang-14 libclang-rt-14-dev
        python3-venv)
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
  local dir="$root/test/Integration/Browser"
  ((test)) || return 0
  if [[ ! -f "$dir/node_modules/.package-lock.json" ||
        "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
    echo "install-deps: npm ci in test/Integration/Browser"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
}
root="$(cd "$(dirname "$0")/.." && pwd)"

# pinned_venv DIR PINS...: a venv in DIR with PINS, made unless DIR holds
# one made with the same pins (its stamp).
pinned_venv() {
  local venv="$1"
  shift
  local want="$*"
  if [[ -x "$venv/bin/python" && -f "$venv/.tlp-pins" &&
        "$(cat "$venv/.tlp-pins")" == "$want" ]]; then
    return 0
  fi
  echo "install-deps: creating $venv ($*)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$@"
  echo "$want" >"$venv/.tlp-pins"
}

# The torch venv. Pinned: a plain `torch` would pull a multi-GB CUDA build.
# The pins are written to a stamp; a venv with the same stamp is reused, so
# a second run costs nothing.
torch_pins=(torch==2.13.0 tlparse==0.4.3 depyf)
torch_venv() {
  ((torch)) || return 0
  pinned_venv "${TLP_TORCH_VENV:-$root/build/torch-venv}" "${torch_pins[@]}"
}

# The Python tests' venv (python/tests, docs/python.md): pinned, reused
# while the pins are unchanged, like the torch venv.
py_pins=(pytest==9.2.0 scikit-build-core==1.1.2 auditwheel==6.8.2)
py_venv() {
  ((test)) || return 0
  pinned_venv "${TLP_PY_VENV:-$root/build/py-venv}" "${py_pins[@]}"
}

if ((${#missing[@]} == 0)); then
  npm_ci
  torch_venv
  py_venv
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
torch_venv
py_venv
