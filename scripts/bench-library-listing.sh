#!/usr/bin/env bash
# A photo library's listing against the file system's own: FolderImageSource
# over nested trees of 3,000 / 30,000 / 100,000 / 300,000 photos (hard links
# to the sample photos, scripts/make-library-tree.sh) beside
# `find DIR -type f | wc -l` on the same tree, in the same run, each a fresh
# process, warm page cache, median of 3 rounds. Prints a Markdown table.
#
#   scripts/bench-library-listing.sh [COUNT...]   (default 3000 30000 100000 300000)
#
# Modes of the `library-listing` tool (Benchmarks/Tools/LibraryListing):
#   scan         FolderImageSource.scan(readingFileStatus: false): IDs, inodes
#   scan-status  FolderImageSource.scan(): also each photo's size and mtime
#   ids          FolderImageSource.imageIDs(): the whole sorted list
# "first batch" is when scan-status handed out its first photos, from the
# start of main (what a first screen waits for).
#
# Trees: ${LIBRARY_TREES:-${TMPDIR:-/tmp}/parallaxkit-library}/COUNT, kept
# between runs. Photos: ${PHOTO_CACHE:-<repo>/.cache/photos}.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
PHOTOS="${PHOTO_CACHE:-$REPO/.cache/photos}"
TREES="${LIBRARY_TREES:-${TMPDIR:-/tmp}/parallaxkit-library}"
COUNTS=("$@")
[[ ${#COUNTS[@]} -gt 0 ]] || COUNTS=(3000 30000 100000 300000)
ROUNDS=3
[[ -d "$PHOTOS" ]] || PHOTO_CACHE="$PHOTOS" scripts/fetch-photos.sh

source scripts/lib/baseline-tool.sh
TOOL="$(current_tool library-listing)"

mkdir -p "$TREES"
now() { date +%s%N; }
# Milliseconds one run of the command takes (output discarded).
time_ms() {
    local start end
    start=$(now)
    "$@" >/dev/null
    end=$(now)
    echo $(((end - start) / 1000000))
}
find_count() { find "$1" -type f | wc -l; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", (b > 0 ? a / b : 0) }'; }

echo "| photos | files (find) | folders | find -type f \\| wc -l | scan | scan + status | imageIDs() | scan ÷ find | scan + status ÷ find | first batch |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for count in "${COUNTS[@]}"; do
    tree="$TREES/$count"
    scripts/make-library-tree.sh "$PHOTOS" "$tree" "$count" 2>/dev/null
    files=$(find_count "$tree")
    # Warm the page cache (dentries and inodes) for both.
    find_count "$tree" >/dev/null
    summary=$("$TOOL" scan-status "$tree")
    listed=$(awk '{ print $2 }' <<<"$summary")
    folders=$(awk '{ print $8 }' <<<"$summary")
    [[ "$listed" == "$count" ]] || { echo "library-listing found $listed photos in $tree, not $count" >&2; exit 1; }
    finds=() scans=() statuses=() ids=() firsts=()
    for _ in $(seq "$ROUNDS"); do
        finds+=("$(time_ms find_count "$tree")")
        scans+=("$(time_ms "$TOOL" scan "$tree")")
        statuses+=("$(time_ms "$TOOL" scan-status "$tree")")
        ids+=("$(time_ms "$TOOL" ids "$tree")")
        firsts+=("$("$TOOL" scan-status "$tree" | awk '{ print $12 }')")
    done
    f=$(median "${finds[@]}") s=$(median "${scans[@]}") st=$(median "${statuses[@]}") i=$(median "${ids[@]}")
    first=$(printf '%s\n' "${firsts[@]}" | sort -g | sed -n 2p)
    echo "| $count | $files | $folders | $f ms | $s ms | $st ms | $i ms | $(ratio "$s" "$f") | $(ratio "$st" "$f") | $first ms |"
done
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(uname -sr)."
