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
# Verdicts: the plain scan within 2× of find at 100,000 and 300,000 photos,
# in CPU time (what the listing costs; wall-clock time on a shared machine
# also counts waiting for a core, so it is shown but not judged).
#
# Writes the section library-listing of ${BENCHMARKS_MD:-BENCHMARKS.md}
# through scripts/bench-report.py, and prints it.
#
# Trees: ${LIBRARY_TREES:-${TMPDIR:-/tmp}/parallaxkit-library}/COUNT, kept
# between runs. Photos: ${PHOTO_CACHE:-<repo>/.cache/photos}.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
PHOTOS="${PHOTO_CACHE:-$REPO/.cache/photos}"
TREES="${LIBRARY_TREES:-${TMPDIR:-/tmp}/parallaxkit-library}"
REPORT="${BENCHMARKS_MD:-$REPO/BENCHMARKS.md}"
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

body="$(mktemp)"
trap 'rm -f "$body"' EXIT
verdicts=()
{
echo "## Library listing: a photo tree against find"
echo
echo "\`FolderImageSource\` listing nested trees of hard links to the sample photos (scripts/make-library-tree.sh: YYYY/MM-place and DCIM/1NNAPPLE folders of 100-300 photos, a video per ~50 and a sidecar per ~100 photos, hidden thumbnail folders) beside \`find\` on the same tree in the same run. Wall-clock time, then CPU time (user + system) in parentheses; each the median of $ROUNDS fresh processes, warm page cache. *scan* is \`scan(readingFileStatus: false)\` (IDs and inodes), *scan + status* \`scan()\` (also each photo's size and modification time: a \`stat\` per photo), *first batch* when \`scan()\` handed out its first 256 photos, from the start of \`main\`."
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
    first=$(median "${firsts[@]}")
    echo "| $count | $files | $folders | $fw ms ($fc) | $sw ms ($sc) | $(ratio "$sw" "$fw") ($(ratio "$sc" "$fc")) | $pw ms ($pc) | $tw ms ($tc) | $(ratio "$tw" "$pw") ($(ratio "$tc" "$pc")) | $iw ms ($ic) | $first ms |"
    if [[ "$count" == 100000 || "$count" == 300000 ]]; then
        verdict=$(awk -v a="$sc" -v b="$fc" 'BEGIN { print (a <= 2 * b ? "PASS" : "FAIL") }')
        verdicts+=("- $count photos: the scan's CPU time within 2× of find's: $(ratio "$sc" "$fc") (wall-clock $(ratio "$sw" "$fw")) **$verdict**")
    fi
done
echo
if [[ ${#verdicts[@]} -gt 0 ]]; then printf '%s\n' "${verdicts[@]}"; echo; fi
echo "Load average $(cut -d' ' -f1-3 /proc/loadavg) at the end of the run."
} >"$body"
cat "$body"
python3 scripts/bench-report.py section "$REPORT" library-listing "$body" \
    --by scripts/bench-library-listing.sh --rerun scripts/bench-library-listing.sh >/dev/null
