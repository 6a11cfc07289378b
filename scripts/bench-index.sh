#!/usr/bin/env bash
# Image indexes from hostile servers (100,000 links, 20 MB of entities, 10 M
# tokens, a 1,000,000-photo manifest), read by HTTPImageSource over loopback
# in fresh processes, now and at a baseline commit, written to BENCHMARKS.md
# (section index-benchmarks) by scripts/bench-report.py. The baseline is
# built from a temporary git worktree outside the repository with this
# checkout's benchmark tool copied in (never committed).
#
#   scripts/bench-index.sh [--baseline COMMIT]   (default f13c08c: before the one-pass parsers)
#   BENCHMARKS_MD=FILE writes into FILE instead of BENCHMARKS.md.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT="${BENCHMARKS_MD:-$REPO/BENCHMARKS.md}"
BASELINE=f13c08c
[[ "${1:-}" == "--baseline" ]] && BASELINE="${2:?--baseline needs a commit}"
SWIFT="${SWIFT:-swift}"
cd "$REPO"
scripts/ensure-packages.sh python3

files="$(mktemp -d)"
trap 'rm -rf "$files"' EXIT
/usr/bin/python3 scripts/hostile/make-indexes.py "$files"

"$SWIFT" build -c release --package-path Benchmarks --product index-benchmark \
    || { rm -f Benchmarks/.build/*.yaml; "$SWIFT" build -c release --package-path Benchmarks --product index-benchmark; }
current="$("$SWIFT" build -c release --package-path Benchmarks --show-bin-path)/index-benchmark"

before_tool=()
worktree="${TMPDIR:-/tmp}/parallaxkit-index-baseline-$BASELINE"
if [[ -d "$worktree" ]] || git worktree add --detach "$worktree" "$BASELINE" >/dev/null 2>&1; then
    mkdir -p "$worktree/Benchmarks/Tools"
    cp -r Benchmarks/Tools/IndexBenchmark "$worktree/Benchmarks/Tools/"
    cp Benchmarks/Package.swift "$worktree/Benchmarks/Package.swift"
    if "$SWIFT" build -c release --package-path "$worktree/Benchmarks" --product index-benchmark >/dev/null 2>&1; then
        before_tool=("$("$SWIFT" build -c release --package-path "$worktree/Benchmarks" --show-bin-path)/index-benchmark" "$BASELINE")
    else
        echo "bench-index: the baseline $BASELINE does not build; reporting this checkout only" >&2
    fi
else
    echo "bench-index: cannot check out $BASELINE; reporting this checkout only" >&2
fi
/usr/bin/python3 scripts/hostile/bench-index.py "$files" "$current" "${before_tool[@]}" >"$files/section.md"
python3 scripts/bench-report.py section "$REPORT" index-benchmarks "$files/section.md" \
    --by scripts/hostile/bench-index.py --rerun scripts/bench-index.sh
