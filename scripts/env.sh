# Sourced by the scripts: the pinned wasm-opt (npm binaryen 132) first on PATH.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
