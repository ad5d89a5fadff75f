#!/usr/bin/env bash
# Draws www/preview.png, the link-card picture (og:image, twitter:image, the oEmbed thumbnail):
# the default view's figure as the CLI writes it with --png (the page's PNG export at 2x).
# Run it again when the default figure changes; crates/friction-cli/tests/preview_png.rs fails
# while the committed picture differs from the CLI's.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
cargo run --quiet --release --locked -p friction-cli -- 'v=1' --png www/preview.png > /dev/null
echo "wrote www/preview.png ($(stat -c %s www/preview.png) bytes)"
