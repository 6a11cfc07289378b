#!/usr/bin/env bash
# The gallery's benchmarks (release build, software renderer): frame time, the
# disk cache's entry formats, then scroll sessions, written into BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-photos.sh
swift build --package-path Apps -c release --product parallax-gallery
"$(swift build --package-path Apps -c release --show-bin-path)/parallax-gallery" bench --size 1280x800 --out BENCHMARKS.md "$@"
"$(swift build --package-path Apps -c release --show-bin-path)/parallax-gallery" cache-formats --out BENCHMARKS.md
# What the user sees: real-time paced scroll sessions (grid and list, photos
# on disk and a slow server) against the arrival-order baseline, then a first
# and a second launch with the disk cache, over the folder and over HTTP.
"$(swift build --package-path Apps -c release --show-bin-path)/parallax-gallery" session --count 3000 --out BENCHMARKS.md
