#!/usr/bin/env bash
# Prints the Rust toolchain that builds the size-optimised wasm, or fails.
# That build recompiles the standard library (-Zbuild-std) so a panic aborts on
# the spot (no formatting or unwinding code; panic locations dropped): about
# 28 KiB less gzipped wasm. It needs one pinned nightly with rust-src. This
# machine image carries it as `nightly`; elsewhere it is `nightly-$NIGHTLY_DATE`.
# With --install, adds what is missing (rust-src, or the whole pinned toolchain).
set -uo pipefail
NIGHTLY_DATE=2026-05-20   # rustc 1.97.0-nightly (e50aa6fba 2026-05-19)
NIGHTLY_COMMIT=e50aa6fba

usable() {
  local tc=$1
  rustup run "$tc" rustc --version 2>/dev/null | grep -q "$NIGHTLY_COMMIT" || return 1
  local sysroot
  sysroot=$(rustup run "$tc" rustc --print sysroot) || return 1
  [ -d "$sysroot/lib/rustlib/src/rust/library/std" ] && return 0
  [ "$INSTALL" = 1 ] && rustup component add rust-src --toolchain "$tc" >&2 && return 0
  return 1
}

INSTALL=0
[ "${1:-}" = --install ] && INSTALL=1
[ "${TMATH_STABLE:-0}" = 1 ] && exit 1   # TMATH_STABLE=1: build with stable only
for tc in nightly "nightly-$NIGHTLY_DATE"; do
  if usable "$tc"; then echo "$tc"; exit 0; fi
done
if [ "$INSTALL" = 1 ] && rustup toolchain install "nightly-$NIGHTLY_DATE" --profile minimal --component rust-src >&2 \
  && usable "nightly-$NIGHTLY_DATE"; then
  echo "nightly-$NIGHTLY_DATE"; exit 0
fi
exit 1
