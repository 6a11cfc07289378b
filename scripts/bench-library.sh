#!/usr/bin/env bash
# The "Library scale" section of BENCHMARKS.md: the gallery launched on
# nested library trees of 3,000 / 30,000 / 100,000 / 300,000 photos (hard
# links to the sample photos, made once and kept in .cache/library-trees),
# first and second launch (scripts/library/bench-library.py); then the
# scroll sessions over the 100,000-photo tree as listed, in date order,
# from disk and over python3 -m http.server (section "library-session-
# benchmarks"). The listing against `find` on the same trees is
# scripts/bench-library-listing.sh.
#
#   scripts/bench-library.sh [SIZE...]     (default: 3000 30000 100000 300000)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT="${BENCHMARKS_MD:-$REPO/BENCHMARKS.md}"
SWIFT="${SWIFT:-swift}"
cd "$REPO"
scripts/ensure-packages.sh python3
scripts/fetch-photos.sh
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(3000 30000 100000 300000)
trees="$REPO/.cache/library-trees"
mkdir -p "$trees"
for size in "${sizes[@]}"; do
    [[ -d "$trees/$size" ]] || scripts/make-library-tree.sh .cache/photos "$trees/$size" "$size"
done
"$SWIFT" build --package-path Apps -c release --product parallax-gallery >&2
gallery="$("$SWIFT" build --package-path Apps -c release --show-bin-path)/parallax-gallery"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
/usr/bin/python3 scripts/library/bench-library.py --distinct .cache/photos "$gallery" "$trees" "${sizes[@]}" >"$out"
cp "$out" "$REPO/.cache/library-benchmarks.md"          # kept, should the report refuse the section
python3 scripts/bench-report.py section "$REPORT" library-benchmarks "$out" \
    --by scripts/library/bench-library.py --rerun scripts/bench-library.sh

# A person's library as it is: the 100,000-photo tree in the order taken, scrolled, launched twice from disk
# and twice over HTTP (every folder's listing read).
if [[ -d "$trees/100000" ]]; then
    "$gallery" session --photos "$trees/100000" --as-listed --layouts grid --latencies none --no-baseline \
        --launches disk,http --out "$out"
    python3 scripts/bench-report.py section "$REPORT" library-session-benchmarks "$out" \
        --by "parallax-gallery session --photos .cache/library-trees/100000 --as-listed --layouts grid --latencies none --no-baseline --launches disk,http" \
        --rerun scripts/bench-library.sh
fi
