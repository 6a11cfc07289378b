#!/usr/bin/env bash
# Peak memory and time of the decoder on hostile files (lying headers and
# chunks, enormous honest pictures), now and at a baseline commit, written
# to BENCHMARKS.md (section hostile-benchmarks) by scripts/bench-report.py.
# The baseline is built from a temporary git worktree outside the repository
# (never committed).
#
#   scripts/bench-hostile.sh [--baseline COMMIT]   (default 7de9e48: before the memory budget)
#   BENCHMARKS_MD=FILE writes into FILE instead of BENCHMARKS.md.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT="${BENCHMARKS_MD:-$REPO/BENCHMARKS.md}"
BASELINE=7de9e48
[[ "${1:-}" == "--baseline" ]] && BASELINE="${2:?--baseline needs a commit}"
SWIFT="${SWIFT:-swift}"
cd "$REPO"
scripts/ensure-packages.sh python3 libjpeg-turbo-progs

files="$(mktemp -d)"
trap 'rm -rf "$files"' EXIT
/usr/bin/python3 scripts/hostile/make-hostile.py "$files"

# A nested package does not notice the library's files moving; a stale build plan is dropped and built again.
"$SWIFT" build -c release --package-path Benchmarks --product thumbnail-benchmark \
    || { rm -f Benchmarks/.build/*.yaml; "$SWIFT" build -c release --package-path Benchmarks --product thumbnail-benchmark; }
current="$("$SWIFT" build -c release --package-path Benchmarks --show-bin-path)/thumbnail-benchmark"

before_tool=()
worktree="${TMPDIR:-/tmp}/parallaxkit-baseline-$BASELINE"
if [[ -d "$worktree" ]] || git worktree add --detach "$worktree" "$BASELINE" >/dev/null 2>&1; then
    if "$SWIFT" build -c release --package-path "$worktree/Benchmarks" --product thumbnail-benchmark >/dev/null 2>&1; then
        before_tool=("$("$SWIFT" build -c release --package-path "$worktree/Benchmarks" --show-bin-path)/thumbnail-benchmark" "$BASELINE")
    else
        echo "bench-hostile: the baseline $BASELINE does not build; reporting this checkout only" >&2
    fi
else
    echo "bench-hostile: cannot check out $BASELINE; reporting this checkout only" >&2
fi
/usr/bin/python3 scripts/hostile/bench-hostile.py "$files" "$current" "${before_tool[@]}" >"$files/section.md"
python3 scripts/bench-report.py section "$REPORT" hostile-benchmarks "$files/section.md" \
    --by scripts/hostile/bench-hostile.py --rerun scripts/bench-hostile.sh
