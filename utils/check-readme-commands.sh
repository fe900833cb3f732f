#!/usr/bin/env bash
# The README's two commands as a new user runs them: clone this checkout
# into DIR (a fresh clone; DIR must not exist), run utils/run-example.sh
# then utils/run-tests.sh there, then each once more (a second run must
# cost little), timing each. Too slow for the test suite: a check to run
# by hand (docs/testing.md records its last result).
#   utils/check-readme-commands.sh DIR
# DIR next to this checkout (/work/fresh-x beside /work/x) lets the corpus
# tests find ../shared/corpus. TLP_TORCH=0 and TLP_SANITIZE=0 pass through
# to utils/run-tests.sh. Exits non-zero if a command fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:?usage: check-readme-commands.sh DIR}"
if [[ -e "$dir" ]]; then
  echo "check-readme-commands: $dir exists; give a new directory" >&2
  exit 2
fi
git clone -q "$root" "$dir"
cd "$dir"
step() {
  local name="$1"
  shift
  local start=$SECONDS
  if "$@" >"$dir/$name.log" 2>&1; then
    echo "check-readme-commands: $name passed in $((SECONDS - start)) s"
  else
    echo "check-readme-commands: $name FAILED after $((SECONDS - start)) s" \
         "(log: $dir/$name.log):" >&2
    tail -20 "$dir/$name.log" >&2
    exit 1
  fi
}
step run-example utils/run-example.sh
step run-tests utils/run-tests.sh
grep -E "tests passed|Not Run" "$dir/run-tests.log" || true
step run-example-again utils/run-example.sh
step run-tests-again utils/run-tests.sh
