#!/usr/bin/env bash
# The main job on the bundled example: install what is missing, build, then
# link the provenance of examples/two_compiles.log and write the results.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/utils/install-deps.sh"
"$root/utils/build.sh"
bin="${TLP_BUILD_DIR:-$root/build}/bin"
out="$root/out/example"
mkdir -p "$out"
log="$root/examples/two_compiles.log"

"$bin/tlp-opt" --link-provenance "$log" -o "$out/provenance.yaml"
"$bin/tlp-emit" --json --pretty "$out/provenance.yaml" -o "$out/provenance.json"
rm -rf "$out/html"
"$bin/tlp-emit" --html "$out/provenance.yaml" -o "$out/html/"

echo
echo "tlp: linked $(basename "$log")"
echo "  IR:   $out/provenance.yaml"
echo "  JSON: $out/provenance.json"
echo "  HTML: $out/html/index.html (the highlighter: open it in a browser)"
