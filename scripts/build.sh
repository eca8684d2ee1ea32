#!/usr/bin/env bash
# The release build of the site into dist/ (or, with arguments, of another trunk
# target: `scripts/build.sh bench/blank/index.html --dist target/blank-dist`).
# Size-optimised with the pinned nightly when scripts/size-toolchain.sh finds it,
# otherwise with stable (a larger bundle; everything else the same).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# A fallback must be seen: a banner on stderr, and a note test.sh repeats at its end.
loud() {
  printf '\n\033[1;33m==== WARNING: %s ====\033[0m\n\n' "$*" >&2
  mkdir -p target && echo "$*" > target/build-warning.txt
}
rm -f target/build-warning.txt
# Leptos's erase_components: every component returns a type-erased view, so
# the view code is not monomorphised per component type. Measured 2026-12-01:
# the wasm 35 KiB smaller gzipped (291.6 → 256.2 KiB before the interface step).
erase="--cfg erase_components"
if tc=$(bash scripts/size-toolchain.sh); then
  echo "build: size-optimised wasm with $tc (-Zbuild-std, panic=immediate-abort)"
  if RUSTUP_TOOLCHAIN=$tc CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none $erase" \
    trunk build "$@" --release --offline=true; then
    echo "$tc (size-optimised)" > target/wasm-toolchain.txt
    exit 0
  fi
  # An optional optimisation must not cost the site: a failure here (say, the
  # standard library's crates not fetched) falls back to the stable build.
  loud "the size-optimised build with $tc FAILED; building with stable instead: the wasm is about 28 KiB larger gzipped"
else
  loud "no pinned nightly with rust-src (or TMATH_STABLE=1): building with STABLE; the wasm is about 28 KiB larger gzipped"
fi
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$erase" trunk build "$@" --release --offline=true
echo "stable" > target/wasm-toolchain.txt
