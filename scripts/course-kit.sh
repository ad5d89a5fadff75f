#!/usr/bin/env bash
# The course kit's part of the build (issue 37), run on Trunk's staged build by
# scripts/classic-build.sh (the post_build hook) after the modules have their hashed names:
#
# 1. the print sheet's QR encoder (npm uqr, tools/) beside www/explain/print.js, which imports it;
# 2. oembed.json (type "rich": the default figure's iframe) for link previews, linked from
#    index.html; with FL_SITE_URL set (the site's address, e.g. https://owner.github.io/repo/) the
#    card URLs in index.html (og:url, og:image, twitter:image, the oEmbed link) and in
#    oembed.json become absolute, as card readers need; without it they stay relative;
# 3. friction-lab.html, the whole lab in one file (scripts/single-file.mjs).
set -euo pipefail
: "${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
ROOT="$(cd "$TRUNK_SOURCE_DIR/.." && pwd)"
cd "$TRUNK_STAGING_DIR"

cp "$ROOT/tools/node_modules/uqr/dist/index.mjs" explain/uqr.js

SITE="${FL_SITE_URL:-}"
if [ -n "$SITE" ]; then
  SITE="${SITE%/}/"
  case "$SITE" in https://*|http://*) ;; *) echo "FL_SITE_URL must be an http(s) URL: $SITE" >&2; exit 1 ;; esac
  sed -i -e "s|<meta property=\"og:url\" content=\"./\">|<meta property=\"og:url\" content=\"$SITE\">|" \
         -e "s|content=\"preview.png\"|content=\"${SITE}preview.png\"|g" \
         -e "s|href=\"oembed.json\"|href=\"${SITE}oembed.json\"|" index.html
fi
# the default figure, as the Embed button's 800 × 500 snippet gives it
node -e '
  const site = process.argv[1] || "./";
  const png = require("fs").readFileSync("preview.png");
  const esc = (t) => t.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  const src = `${site}?v=1&embed=1`;
  const doc = {
    version: "1.0",
    type: "rich",
    provider_name: "Friction Lab",
    provider_url: site,
    title: "Friction Lab: hysteresis loops of the FrBD friction model",
    html: `<iframe src="${esc(src)}" title="Friction Lab" width="800" height="500" style="border:0;max-width:100%" loading="lazy" sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox" allowfullscreen></iframe>`,
    width: 800,
    height: 500,
    thumbnail_url: `${site}preview.png`,
    // the PNG header: width and height, big-endian, at bytes 16 and 20
    thumbnail_width: png.readUInt32BE(16),
    thumbnail_height: png.readUInt32BE(20),
  };
  require("fs").writeFileSync("oembed.json", JSON.stringify(doc, null, 2) + "\n");
' "$SITE"

node "$ROOT/scripts/single-file.mjs" "$TRUNK_STAGING_DIR"
