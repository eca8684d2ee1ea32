#!/usr/bin/env bash
# Runs every check: format, lints, native tests, the release build, browser tests.
# Installs what is missing first (scripts/setup.sh). Ends with "tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "setup failed"; exit 1; }
source scripts/env.sh

log=$(mktemp -d)
failed_steps=()
step() {
  local name=$1; shift
  printf '\n\033[1m== %s\033[0m\n' "$name"
  if ! "$@" 2>&1 | tee "$log/$name.log"; then
    failed_steps+=("$name")
  fi
}

step fmt cargo fmt --all --check
step clippy cargo clippy --workspace --all-targets --quiet -- -D warnings
step cargo-test cargo test --workspace --quiet
step build bash scripts/build.sh
if [ -f dist/index.html ]; then
  step browser node --test --test-reporter=tap --test-concurrency=1 tests/e2e/
else
  failed_steps+=("browser (no dist/)")
fi

if [ -f dist/index.html ]; then
  step visit-size bash scripts/visit-size.sh
fi

passed=0; failed=0
if [ -f "$log/cargo-test.log" ]; then
  read -r p f < <(grep -E '^test result:' "$log/cargo-test.log" | sed -E 's/.* ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/' | awk '{p+=$1; f+=$2} END {print p+0, f+0}')
  passed=$((passed + p)); failed=$((failed + f))
fi
if [ -f "$log/browser.log" ]; then
  p=$(grep -E '^# pass ' "$log/browser.log" | awk '{print $3}'); f=$(grep -E '^# fail ' "$log/browser.log" | awk '{print $3}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
fi
# A failed check that is not a test (fmt, clippy, build) counts as one failure.
for s in "${failed_steps[@]}"; do
  case $s in cargo-test|browser) ;; *) failed=$((failed + 1)); echo "step failed: $s" ;; esac
done
[ ${#failed_steps[@]} -gt 0 ] && echo "failed steps: ${failed_steps[*]}"
[ -f target/build-warning.txt ] && printf '\033[1;33mWARNING: %s\033[0m\n' "$(cat target/build-warning.txt)"
echo
echo "tests: $passed passed, $failed failed"
[ ${#failed_steps[@]} -eq 0 ] && [ "$failed" -eq 0 ]
