#!/usr/bin/env bash
# Installs what is missing, builds the playground and serves it on http://127.0.0.1:8080/ (Ctrl-C stops it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/install.sh"
cd "$ROOT"
echo
echo "Friction Lab: building, then serving at http://127.0.0.1:8080/"
exec trunk serve --release
