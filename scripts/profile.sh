#!/usr/bin/env bash
# Where a slider step's time goes, with wasm function names (a diagnosis aid,
# not a benchmark): builds the release site, rebuilds its wasm with names kept
# (same optimisation, -g), and runs tests/bench/profile.mjs on that copy.
#   ./scripts/profile.sh [steps]      CALLERS=name / DETAIL=1 / CSS='…' for more
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/build.sh >/dev/null
out=target/prof-dist
rm -rf "$out" target/prof-bindgen
cp -r dist "$out"
wasm-bindgen target/wasm32-unknown-unknown/release/tmath-web.wasm --out-dir target/prof-bindgen --target web --keep-debug
features=$(node --input-type=module -e 'import { FEATURE_FLAGS } from "./scripts/wasm-interface.mjs"; console.log(FEATURE_FLAGS.join(" "))')
# shellcheck disable=SC2086 # one flag per word
wasm-opt -Oz -g $features target/prof-bindgen/tmath-web_bg.wasm -o "$(ls "$out"/*_bg.wasm)"
cp target/prof-bindgen/tmath-web.js "$(ls "$out"/tmath-web-*.js)"
# The glue imports its inline snippets (post-build folds them in for the site).
[ -d target/prof-bindgen/snippets ] && cp -r target/prof-bindgen/snippets "$out"/
# The copies no longer match trunk's integrity hashes.
sed -i 's/ integrity="[^"]*"//g' "$out/index.html"
node tests/bench/profile.mjs "$out" "${1:-100}"
