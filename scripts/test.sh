#!/usr/bin/env bash
# Installs what is missing, then runs every test: formatting, clippy and rustdoc with warnings denied,
# native cargo tests, the CLI behaviour corpus, wasm-bindgen-test in headless Chromium, the release
# build with Trunk, and the end-to-end browser suite against that build.
# Exits non-zero if any layer fails. The last lines are the e2e runner's own summary.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/install.sh"
cd "$ROOT"
T0=$SECONDS

step "cargo fmt --check, clippy and rustdoc (warnings denied)"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked --quiet -- -D warnings 2>&1
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet 2>&1

step "native tests (cargo test)"
cargo test --locked --quiet 2>&1

step "CLI behaviour corpus (scripts/corpus.sh)"
bash scripts/corpus.sh check | tail -n 3

step "wasm-bindgen-test in headless Chromium"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
  cargo test --locked --target wasm32-unknown-unknown -p friction-web --tests 2>&1
# the tests of views only the page's second module has (the robot run)
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
  cargo test --locked --target wasm32-unknown-unknown -p friction-web --features full \
  --test browser whole_runs 2>&1

step "trunk build --release"
trunk build --release 2>&1 | grep -vE '^\s*$' | tail -n 5
# the page's two modules (the first for the default view, the second when a view needs it) and the
# Fit panel's worker wasm (loaded only when the panel opens)
for WASM in dist/*.wasm; do
  echo "   $(basename "$WASM"): $(stat -c %s "$WASM") bytes raw, $(gzip -9c "$WASM" | wc -c) bytes gzip"
done

step "end-to-end tests in headless Chromium (tests/e2e)"
echo "   (wall time so far: $((SECONDS - T0)) s)"
cd tests
DIST_DIR="$ROOT/dist" node --test --test-concurrency=1 e2e/
