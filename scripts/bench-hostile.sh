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

source scripts/lib/baseline-tool.sh
current="$(current_tool thumbnail-benchmark)"
before_tool=()
baseline="$(baseline_tool "$BASELINE" thumbnail-benchmark bench-hostile)"
[[ -n "$baseline" ]] && before_tool=("$baseline" "$BASELINE")
/usr/bin/python3 scripts/hostile/bench-hostile.py "$files" "$current" "${before_tool[@]}" >"$files/section.md"
python3 scripts/bench-report.py section "$REPORT" hostile-benchmarks "$files/section.md" \
    --by scripts/hostile/bench-hostile.py --rerun scripts/bench-hostile.sh
