#!/usr/bin/env bash
# The gallery's benchmarks (release build, software renderer): frame time, the
# disk cache's entry formats, ThumbHash previews, memory, then scroll sessions. parallax-gallery writes
# each report as Markdown (--out) and scripts/bench-report.py puts it into its
# section of BENCHMARKS.md (the rest of the file is kept).
#
# Usage: scripts/bench-gallery.sh [bench options]   (extra options go to `parallax-gallery bench`)
#   BENCHMARKS_MD=FILE writes into FILE instead of BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REPORT="${BENCHMARKS_MD:-BENCHMARKS.md}"
scripts/fetch-photos.sh
swift build --package-path Apps -c release --product parallax-gallery
gallery="$(swift build --package-path Apps -c release --show-bin-path)/parallax-gallery"
body="$(mktemp -d)"
trap 'rm -rf "$body"' EXIT

# Writes the report $body/KEY.md into the section KEY, naming the command that made it.
section() {
    python3 scripts/bench-report.py section "$REPORT" "$1" "$body/$1.md" --by "parallax-gallery $2" --rerun scripts/bench-gallery.sh
}

"$gallery" bench --size 1280x800 --out "$body/gallery-benchmarks.md" "$@"
section gallery-benchmarks "bench --size 1280x800${*:+ $*}"
# The detail view: every photo of the set opened, zoomed to 1:1 and closed, paging, and the memory of
# opening the set's largest photo and a 100-megapixel JPEG made from it (baseline, as cameras write).
largest="$(for f in .cache/photos/*.jpg .cache/photos/*.png; do
    echo "$(( $(vipsheader -f width "$f") * $(vipsheader -f height "$f") )) $f"; done | sort -rn | head -1 | cut -d' ' -f2-)"
vips resize "$largest" "$body/hundred-megapixels.jpg[Q=90,strip]" 2.22
"$gallery" viewer --size 1280x800 --large "$largest" --large "$body/hundred-megapixels.jpg" --out "$body/viewer-benchmarks.md"
section viewer-benchmarks "viewer --size 1280x800 --large <the set's largest photo> --large <a 100 MP JPEG>"
"$gallery" cache-formats --out "$body/cache-format-benchmarks.md"
section cache-format-benchmarks "cache-formats"
"$gallery" previews --out "$body/preview-benchmarks.md"
section preview-benchmarks "previews"
# Resident memory at the first screen and over fling-and-return cycles, with where it goes.
# Its chart of resident memory over time is committed beside BENCHMARKS.md, which shows it.
mkdir -p docs/benchmarks
"$gallery" memory --count 3000 --plot docs/benchmarks/memory-rss.svg --out "$body/memory-benchmarks.md"
section memory-benchmarks "memory --count 3000 --plot docs/benchmarks/memory-rss.svg"
# What the user sees: real-time paced scroll sessions (grid and list, photos
# on disk and a slow server) against the arrival-order baseline, then a first
# and a second launch with the disk cache, over the folder and over HTTP.
"$gallery" session --count 3000 --plot docs/benchmarks/session-rss.svg --out "$body/session-benchmarks.md"
section session-benchmarks "session --count 3000 --plot docs/benchmarks/session-rss.svg"
