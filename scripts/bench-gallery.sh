#!/usr/bin/env bash
# The gallery's frame-time benchmark (release build, software renderer),
# written into BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-photos.sh
swift build -c release --product parallax-gallery
"$(swift build -c release --show-bin-path)/parallax-gallery" bench --size 1280x800 --out BENCHMARKS.md "$@"
