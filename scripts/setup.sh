#!/usr/bin/env bash
# Installs what building and testing need, skipping what is already there at the
# right version (a second run takes seconds). Only package registries are used:
# crates.io, npm and Debian's; nothing is downloaded from anywhere else.
# Pins and the reasons for them: ../shared/TOOLCHAIN.md (copied into README).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130   # must equal the wasm-bindgen crate pin in components/Cargo.toml
NEED_BROWSER=${NEED_BROWSER:-1}

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (8-15 min on 2 cores; 0.22 needs a newer rustc)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (~7 min; --locked fails for this version)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# wasm-opt from npm's binaryen 132 (Debian's 108 breaks the module), terser and playwright-core.
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.lock-sum 2>/dev/null)" != "$lock_sum" ]; then
  say "installing npm packages (binaryen, terser, playwright-core)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.lock-sum
fi

# Chromium for the browser tests; a CJK font so Korean screenshots show Hangul, not boxes.
if [ "$NEED_BROWSER" = 1 ]; then
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  fc-list 2>/dev/null | grep -i "cjk" >/dev/null || missing+=(fonts-noto-cjk)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

# Offline builds need every crate fetched beforehand. The size-optimised wasm
# needs the pinned nightly with rust-src (added here if missing) and, for
# -Zbuild-std, the standard library's own crates (from its lockfile); without
# them the site builds with stable, larger (scripts/size-toolchain.sh says why).
cargo fetch --quiet
if tc=$(bash scripts/size-toolchain.sh --install); then
  library="$(rustup run "$tc" rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml"
  rustup run "$tc" cargo fetch --quiet --manifest-path "$library" \
    || say "could not fetch the standard library's crates: the wasm builds with stable"
else
  say "no size-optimised toolchain (TMATH_STABLE=1, or not available): the wasm builds with stable (larger)"
fi
