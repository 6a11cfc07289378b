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
#   scan         FolderImageSource.scan(readingFileStatus: false): IDs, inodes;
#                against `find DIR -type f | wc -l`
#   scan-status  FolderImageSource.scan(): also each photo's size and mtime
#                (a stat per photo); against find printing size, mtime, inode
#   ids          FolderImageSource.imageIDs(): the whole list, kept
# "first batch" is when scan-status handed out its first photos, from the
# start of main (what a first screen waits for; median of the rounds).
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
# "WALL CPU" in milliseconds for one run of the command (output discarded):
# wall-clock time, and user + system time of the process and its children.
# On a machine shared with other work the wall time includes waiting for a
# core; the CPU time does not.
measure() {
    /usr/bin/python3 -c '
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(round(wall * 1000), round((usage.ru_utime + usage.ru_stime) * 1000))
' "$@"
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", (b > 0 ? a / b : 0) }'; }
# Median wall and CPU times of a list of "WALL CPU" pairs, as "WALL CPU".
medians() {
    local walls=() cpus=() pair
    for pair in "$@"; do walls+=("${pair%% *}"); cpus+=("${pair##* }"); done
    echo "$(median "${walls[@]}") $(median "${cpus[@]}")"
}

echo "Wall-clock time, then CPU time (user + system) in parentheses; each the median of $ROUNDS fresh processes, warm page cache."
echo
echo "| photos | files | folders | \`find -type f \| wc -l\` | scan | ÷ find | \`find -printf '%s %T@ %i'\` | scan + status | ÷ find -printf | imageIDs() | first batch |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for count in "${COUNTS[@]}"; do
    tree="$TREES/$count"
    scripts/make-library-tree.sh "$PHOTOS" "$tree" "$count" 2>/dev/null
    files=$(find "$tree" -type f | wc -l)                              # also warms the page cache
    summary=$("$TOOL" scan-status "$tree")
    listed=$(awk '{ print $2 }' <<<"$summary")
    folders=$(awk '{ print $8 }' <<<"$summary")
    [[ "$listed" == "$count" ]] || { echo "library-listing found $listed photos in $tree, not $count" >&2; exit 1; }
    finds=() printfs=() scans=() statuses=() ids=() firsts=()
    for _ in $(seq "$ROUNDS"); do
        finds+=("$(measure sh -c 'find "$1" -type f | wc -l' sh "$tree")")
        scans+=("$(measure "$TOOL" scan "$tree")")
        printfs+=("$(measure sh -c 'find "$1" -type f -printf "%s %T@ %i\n" | wc -l' sh "$tree")")
        statuses+=("$(measure "$TOOL" scan-status "$tree")")
        ids+=("$(measure "$TOOL" ids "$tree")")
        firsts+=("$("$TOOL" scan-status "$tree" | awk '{ print $12 }')")
    done
    read -r fw fc <<<"$(medians "${finds[@]}")"
    read -r sw sc <<<"$(medians "${scans[@]}")"
    read -r pw pc <<<"$(medians "${printfs[@]}")"
    read -r tw tc <<<"$(medians "${statuses[@]}")"
    read -r iw ic <<<"$(medians "${ids[@]}")"
    first=$(printf '%s\n' "${firsts[@]}" | sort -g | sed -n 2p)
    echo "| $count | $files | $folders | $fw ms ($fc) | $sw ms ($sc) | $(ratio "$sw" "$fw") ($(ratio "$sc" "$fc")) | $pw ms ($pc) | $tw ms ($tc) | $(ratio "$tw" "$pw") ($(ratio "$tc" "$pc")) | $iw ms ($ic) | $first ms |"
done
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(uname -sr)."
