#!/usr/bin/env bash
# Runs the library's and the apps' test suites again and again while CPU
# hogs keep every core busy, to show the tests wait for events, not for
# the clock: a test that polls against a deadline fails here first.
#
# Usage: scripts/stress-tests.sh [runs] [mode]
#   runs  how many times each suite runs (default 10)
#   mode  parallel (swift test's default), serial (--no-parallel) or both (default)
#   HOGS=n  CPU hogs beside the tests (default: one per core)
#
# The suites are built first (debug, as `make test` builds them); the HTTP
# transport's nginx suite is left to `make test`, which runs it alone.
# Prints one line per run and a summary; exits non-zero if any run failed.
# Logs of failed runs are kept in .build-stress/.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-10}"
MODE="${2:-both}"
HOGS="${HOGS:-$(nproc)}"
LOGS="$REPO/.build-stress"
cd "$REPO"
mkdir -p "$LOGS"

case "$MODE" in
    parallel) MODES=(parallel) ;;
    serial) MODES=(serial) ;;
    both) MODES=(parallel serial) ;;
    *) echo "stress-tests: mode must be parallel, serial or both, not '$MODE'" >&2; exit 2 ;;
esac
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "stress-tests: runs must be a positive whole number, not '$RUNS'" >&2; exit 2; }

scripts/fetch-photos.sh >/dev/null
swift build --build-tests >/dev/null
swift build --package-path Apps --build-tests >/dev/null
BIN="$(swift build --package-path Apps --show-bin-path)"

hogs=()
stop_hogs() { for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for _ in $(seq "$HOGS"); do
    ( while :; do :; done ) &
    hogs+=("$!")
done
echo "stress-tests: $RUNS runs of each suite, modes: ${MODES[*]}, $HOGS CPU hogs, $(nproc) cores ($(date -u '+%Y-%m-%d %H:%M UTC'))"

failures=0
started=$(date +%s)
for mode in "${MODES[@]}"; do
    flags=()
    [[ "$mode" == serial ]] && flags=(--no-parallel)
    for suite in library apps; do
        for run in $(seq "$RUNS"); do
            log="$LOGS/$suite-$mode-$run.log"
            begin=$(date +%s)
            if [[ "$suite" == library ]]; then
                command=(swift test --skip-build "${flags[@]}")
            else
                command=(env PARALLAX_BIN_PATH="$BIN" swift test --package-path Apps --skip-build
                         --skip ParallaxImagesHTTPTests "${flags[@]}")
            fi
            if "${command[@]}" >"$log" 2>&1; then
                verdict=passed
            else
                verdict="FAILED (log: ${log#"$REPO"/})"
                failures=$((failures + 1))
            fi
            summary=$(grep -aoE "with [0-9]+ tests in [0-9]+ suites" "$log" | tail -1 || true)
            [[ "$verdict" == passed ]] && rm -f "$log"
            printf '%-7s %-8s run %2d: %s in %d s %s\n' "$suite" "$mode" "$run" "$verdict" $(( $(date +%s) - begin )) "$summary"
        done
    done
done
echo "stress-tests: $failures failed run(s) of $(( RUNS * 2 * ${#MODES[@]} )), $(( $(date +%s) - started )) s in all"
[[ $failures -eq 0 ]]
