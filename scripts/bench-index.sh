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

source scripts/lib/baseline-tool.sh
current="$(current_tool index-benchmark)"
before_tool=()
baseline="$(baseline_tool "$BASELINE" index-benchmark bench-index IndexBenchmark)"
[[ -n "$baseline" ]] && before_tool=("$baseline" "$BASELINE")
/usr/bin/python3 scripts/hostile/bench-index.py "$files" "$current" "${before_tool[@]}" >"$files/section.md"
python3 scripts/bench-report.py section "$REPORT" index-benchmarks "$files/section.md" \
    --by scripts/hostile/bench-index.py --rerun scripts/bench-index.sh
