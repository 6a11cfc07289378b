#!/usr/bin/env bash
# The gallery's frame work counted in instructions under callgrind (valgrind),
# pass by pass (scripts/frame-instructions.py), into the
# frame-instruction-benchmarks section of BENCHMARKS.md: figures that read the
# same on every machine, beside the milliseconds of scripts/bench-gallery.sh.
#
# Usage: scripts/bench-frame-instructions.sh [frame-instructions.py options]
#   BENCHMARKS_MD=FILE writes into FILE instead of BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REPORT="${BENCHMARKS_MD:-BENCHMARKS.md}"
swift build --package-path Apps -c release --product parallax-frame-cost
binary="$(swift build --package-path Apps -c release --show-bin-path)/parallax-frame-cost"
body="$(mktemp)"
trap 'rm -f "$body"' EXIT
python3 scripts/frame-instructions.py "$binary" "$body" "$@"
python3 scripts/bench-report.py section "$REPORT" frame-instruction-benchmarks "$body" \
    --by "scripts/frame-instructions.py (valgrind --tool=callgrind)" --rerun scripts/bench-frame-instructions.sh
