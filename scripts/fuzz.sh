#!/usr/bin/env bash
# Fuzzes the query/flag parser and the whole evaluation for a fixed budget
# (default 120 s): FUZZ_SECONDS=600 ./scripts/fuzz.sh. A crash leaves its input in
# fuzz/artifacts/query/; add it to tests/regressions.rs before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
rustup toolchain list | grep -q nightly || { echo "cargo-fuzz needs the nightly toolchain"; exit 1; }
mkdir -p fuzz/corpus/query
for q in "params=7B" "model=llama-3-405b&tp=8&pp=16&dp=128&zero=1" "params=7.5B&gpus=64&zero=3" "tp=3&gpus=7"; do
  printf '%s' "$q" > "fuzz/corpus/query/$(printf '%s' "$q" | sha1sum | cut -c1-16)"
done
cargo +nightly fuzz run query fuzz/corpus/query -- -max_total_time="${FUZZ_SECONDS:-120}" -max_len=512
