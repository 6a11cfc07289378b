#!/usr/bin/env bash
# Measures ParallaxImagesHTTP's CurlTransport against real nginx
# and a hostile loopback server, in a release build (Apps/Sources/transport-measure).
# Not part of `make test`; `make bench` runs it through scripts/bench-transport.sh,
# which writes the report into BENCHMARKS.md. Prints a Markdown report; MEASURE_DEADLINE (seconds, default 10)
# sets the deadline of the endless-bodies scenario and MEASURE_LIMIT_MIB
# (default 64, HTTPImageSource's default) the answers' size limit.
#
#   scripts/measure-transport.sh [> report.md]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --package-path Apps -c release --product transport-measure >&2
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(swift --version 2>/dev/null | head -1)" >&2
exec "$(swift build --package-path Apps -c release --show-bin-path)/transport-measure"
