#!/usr/bin/env bash
# Performance figures (not pass/fail): bundle sizes, first result vs a blank Leptos
# page, slider input-to-paint p50/p95 and long tasks, the planner in wasm, and the
# native evaluation speed. Writes docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
# The planner's timing export is only in a build of its own; the site is built
# last, as it ships.
bash scripts/build.sh --features bench --dist target/bench-dist
bash scripts/build.sh bench/blank/index.html --dist target/blank-dist
bash scripts/build.sh
NATIVE_BENCH=$(cargo run --quiet --profile bench-native --example bench) \
WASM_TOOLCHAIN="$(cat target/wasm-toolchain.txt)" \
MACHINE="$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)" \
  node tests/bench/bench.mjs
