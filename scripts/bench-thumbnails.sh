#!/usr/bin/env bash
# Thumbnails from real photos: ParallaxKit against libvips (`vipsthumbnail`)
# and a plain full decode + resize, time per photo, peak memory and PSNR, for
# the photo set's JPEGs and PNGs and for WebP, HEIF and AVIF copies of some of
# them (scripts/make-format-photos.sh), all in the same run; then
# how fast a photo's header is read. thumbnail-benchmark prints each report as
# Markdown and scripts/bench-report.py writes it into BENCHMARKS.md, between
# <!-- thumbnail-benchmarks:start/end --> and <!-- header-benchmarks:start/end -->
# (the rest of the file is kept).
#
# Usage: scripts/bench-thumbnails.sh [--runs N]
#   Extra options go to the thumbnail-benchmark tool
#   (Benchmarks/Tools/ThumbnailBenchmark; `--help` lists them).
#   BENCHMARKS_MD=FILE writes into FILE instead of BENCHMARKS.md.
#
# Installs libvips-tools if missing (scripts/ensure-packages.sh; without it the
# vips columns read MISSING), fetches the photo set if it is not cached yet
# (scripts/fetch-photos.sh, into ${PHOTO_CACHE:-.cache/photos}), builds the tool
# in release and runs it. Linux only.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PHOTOS="${PHOTO_CACHE:-$REPO/.cache/photos}"
REPORT="${BENCHMARKS_MD:-$REPO/BENCHMARKS.md}"
SWIFT="${SWIFT:-swift}"

if [[ "$(uname -s)" != "Linux" ]]; then
    echo "bench-thumbnails: Linux only (the tool measures processes with posix_spawn, wait4 and /proc)" >&2
    exit 1
fi

cd "$REPO"
scripts/ensure-packages.sh libvips-tools \
    || echo "bench-thumbnails: warning: could not install libvips-tools; the vips columns will read MISSING" >&2
PHOTO_CACHE="$PHOTOS" scripts/fetch-photos.sh
# WebP, HEIF and AVIF copies of some of the JPEGs, for rows per format (made once, then cached).
FORMATS="${FORMAT_PHOTO_CACHE:-$REPO/.cache/photos-formats}"
PHOTO_CACHE="$PHOTOS" FORMAT_PHOTO_CACHE="$FORMATS" scripts/make-format-photos.sh

# A nested package does not notice the library's files moving; a stale build plan is dropped and built again.
"$SWIFT" build -c release --package-path Benchmarks --product thumbnail-benchmark \
    || { rm -f Benchmarks/.build/*.yaml; "$SWIFT" build -c release --package-path Benchmarks --product thumbnail-benchmark; }
BIN="$("$SWIFT" build -c release --package-path Benchmarks --show-bin-path)"

body="$(mktemp)"
trap 'rm -f "$body"' EXIT
"$BIN/thumbnail-benchmark" --photos "$PHOTOS" --photos "$FORMATS" "$@" >"$body"
python3 scripts/bench-report.py section "$REPORT" thumbnail-benchmarks "$body" \
    --by "thumbnail-benchmark${*:+ $*}" --rerun scripts/bench-thumbnails.sh \
    --fact "libvips: $(vips --version 2>/dev/null || echo 'not installed')"
"$BIN/thumbnail-benchmark" --headers --photos "$PHOTOS" >"$body"
python3 scripts/bench-report.py section "$REPORT" header-benchmarks "$body" \
    --by "thumbnail-benchmark --headers" --rerun scripts/bench-thumbnails.sh
