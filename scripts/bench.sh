#!/usr/bin/env bash
# Runs the benchmarks in Benchmarks/ (release build) and writes their results
# into BENCHMARKS.md at the repository root: scripts/bench-report.py renders
# the harness's JMH export into the frame and quilt sections (every other
# section of the file is kept).
#
# Usage: scripts/bench.sh [benchmark options]
#   Extra options go to `swift package benchmark run`, e.g.
#   scripts/bench.sh --filter 'Frame/grid-dense/.*'
#   BENCHMARKS_MD=FILE writes into FILE instead of BENCHMARKS.md.
#
# The JMH export lands in .build-bench-out/ (git-ignored).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$REPO/.build-bench-out"
REPORT="${BENCHMARKS_MD:-$REPO/BENCHMARKS.md}"

mkdir -p "$OUT"
rm -f "$OUT/Current_run.jmh.json"

# On macOS the plugin sandbox only allows writing inside the Benchmarks
# package, and OUT is outside it; Linux has no plugin sandbox.
SANDBOX=()
if [[ "$(uname -s)" == "Darwin" ]]; then
    SANDBOX=(--disable-sandbox)
fi

cd "$REPO/Benchmarks"
# Release builds in a nested package do not notice the library's files moving: a stale plan fails with
# "missing inputs", so it is dropped and the run tried once more.
swift build -c release >/dev/null 2>&1 || rm -f .build/*.yaml
swift package ${SANDBOX[@]+"${SANDBOX[@]}"} --allow-writing-to-package-directory \
    benchmark run --format jmh --path "$OUT" --no-progress --quiet "$@"

cd "$REPO"
python3 scripts/bench-report.py harness "$REPORT" "$OUT/Current_run.jmh.json" \
    --by "swift package benchmark run${*:+ $*}" --rerun scripts/bench.sh
