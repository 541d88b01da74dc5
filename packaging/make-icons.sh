#!/usr/bin/env bash
# Renders the hand-drawn SVG icon into the hicolor PNG sizes that are committed under
# resources/icons/hicolor. Run after editing the SVG; needs ImageMagick.
set -euo pipefail
cd "$(dirname "$0")/../resources/icons"
# The real ImageMagick binary: a `convert` earlier on PATH may be a wrapper that flattens
# transparency.
im=/usr/bin/convert
[[ -x "$im" ]] || im=convert
for size in 16 22 24 32 48 64 128 256; do
  out="hicolor/${size}x${size}/apps/dev.acsel.Studio.png"
  mkdir -p "$(dirname "$out")"
  # Render large, then downsample: crisper small sizes than rendering small directly.
  "$im" -background none -density 384 dev.acsel.Studio.svg -resize "${size}x${size}" \
    -depth 8 -strip -define png:exclude-chunks=date,time "PNG32:$out"
done
echo "make-icons: wrote $(ls -d hicolor/*/apps/*.png | wc -l) PNGs"
