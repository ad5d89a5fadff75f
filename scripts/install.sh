#!/usr/bin/env bash
# Installs whatever is missing to build and test Friction Lab, and puts the tools on PATH.
# Idempotent: each step checks first and is skipped in seconds when already done.
# Everything comes from the package registries (crates.io, npm, Debian); nothing else is downloaded.
# Source it (`. scripts/install.sh`) so the PATH changes reach the caller.

set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

step() { printf '\n== %s\n' "$*"; }
timed() { local t0=$SECONDS; "$@"; echo "   (${1}: $((SECONDS - t0)) s)"; }

# The wasm-bindgen CLI must equal the wasm-bindgen crate in Cargo.lock exactly.
WB_VERSION="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' "$ROOT/Cargo.lock")"
TRUNK_VERSION="0.21.14"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  timed rustup target add wasm32-unknown-unknown
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WB_VERSION" ]; then
  step "cargo install wasm-bindgen-cli $WB_VERSION (~3 min)"
  # Not --locked: its lockfile pins a webpki-roots release that the registry mirror lacks.
  timed cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  step "cargo install trunk $TRUNK_VERSION (~9 min)"
  timed cargo install trunk --version "$TRUNK_VERSION" --locked --force
fi

# FL_SKIP_BROWSER=1 skips the browser (a build-only job such as the Pages workflow needs none).
if [ "${FL_SKIP_BROWSER:-0}" != 1 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  step "apt-get install chromium chromium-driver"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  timed $SUDO apt-get update -qq
  timed $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
fi

# npm packages: wasm-opt (binaryen 132, never Debian's 108) and the e2e driver (playwright-core, no browser download).
npm_ci() {
  local dir="$1" want have
  want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  have="$(cat "$dir/node_modules/.lock-sha256" 2>/dev/null || true)"
  if [ "$want" != "$have" ]; then
    step "npm ci in ${dir#"$ROOT"/}"
    (cd "$dir" && timed npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > "$dir/node_modules/.lock-sha256"
  fi
}
npm_ci "$ROOT/tools"
npm_ci "$ROOT/tests"

if [ "$(wasm-opt --version 2>/dev/null)" != "wasm-opt version 132 (version_132)" ]; then
  echo "wasm-opt on PATH is not binaryen 132: $(command -v wasm-opt)" >&2
  return 1 2>/dev/null || exit 1
fi

# Trunk runs cargo --offline: make sure every crate is in the local registry cache.
(cd "$ROOT" && cargo fetch --locked -q)
