#!/usr/bin/env bash
# The HTTP transport on the wire (CurlTransport against Debian's
# nginx and a hostile loopback server: deadlines beside endless answers, what
# nginx sent after a refusal or a cancel, peak memory), measured by
# Apps/Sources/transport-measure in a release build and written to
# BENCHMARKS.md (section transport-benchmarks) by scripts/bench-report.py.
# The baseline it is read against is in the text: swift-corelibs-foundation's
# URLSession, which sent a refused 300 MB answer in full.
#
#   scripts/bench-transport.sh
#   BENCHMARKS_MD=FILE writes into FILE instead of BENCHMARKS.md.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT="${BENCHMARKS_MD:-$REPO/BENCHMARKS.md}"
cd "$REPO"
section="$(mktemp)"
trap 'rm -f "$section"' EXIT
scripts/measure-transport.sh >"$section"
python3 scripts/bench-report.py section "$REPORT" transport-benchmarks "$section" \
    --by Apps/Sources/transport-measure --rerun scripts/bench-transport.sh
