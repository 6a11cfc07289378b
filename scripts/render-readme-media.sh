#!/usr/bin/env bash
# Renders the README's pictures with the gallery itself (headless, SDL's
# software renderer), from generated pictures so nothing licensed is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --package-path Apps -c release --product parallax-gallery
gallery="$(swift build --package-path Apps -c release --show-bin-path)/parallax-gallery"
mkdir -p docs
"$gallery" render --generated --size 800x500 --layout grid --scroll 160 --out docs/gallery-grid.png
"$gallery" render --generated --size 360x640 --layout list --scroll 700 --out docs/gallery-list.png
"$gallery" render --generated --size 800x500 --layout quilt --scroll 300 --out docs/gallery-quilt.png
"$gallery" render --generated --size 800x500 --layout waterfall --scroll 300 --out docs/gallery-waterfall.png
"$gallery" render --scene layers --size 800x300 --scroll 1800 --out docs/gallery-layers.png
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$gallery" render --generated --size 300x420 --layout list --frames 40 --fling 2600 --out "$work"
cp "$work/animation.png" docs/gallery-scroll.png
"$gallery" render --generated --size 320x320 --layout grid --scroll 1400 --frames 36 --pinch 0.45 --out "$work/pinch"
cp "$work/pinch/animation.png" docs/gallery-pinch.png
ls -l docs/gallery-*.png
