#!/usr/bin/env bash
# Times the steps of `make test`, so a slow step shows itself: its wall time,
# and the CPU time it and its children used (on two cores, the CPU is what
# the two lanes share, so the heavy step is the one to cut).
#
#   scripts/step.sh NAME COMMAND [ARGS...]   runs COMMAND, records how long it took
#   scripts/step.sh --reset                  forgets the recorded steps
#   scripts/step.sh --summary                prints every recorded step and the total
#
# The record is .build-steps/times (git-ignored, like every .build-* folder).
set -uo pipefail
RECORD="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build-steps/times"
mkdir -p "$(dirname "$RECORD")"

case "${1:-}" in
    --reset) : > "$RECORD"; date +%s > "$RECORD.start"; exit 0 ;;
    --summary)
        awk -F'\t' '{ printf "  %-28s %5d s  %5d s CPU%s\n", $1, $2, $4, ($3 == 0 ? "" : "  FAILED"); total += $2; cpu += $4 }
                    END { printf "  %-28s %5d s  %5d s CPU (%d min %d s)\n", "sum of the steps", total, cpu, total / 60, total % 60 }' "$RECORD"
        if [[ -f "$RECORD.start" ]]; then
            wall=$(( $(date +%s) - $(cat "$RECORD.start") ))
            printf '  %-28s %5d s (%d min %d s): the two lanes run side by side\n' "wall time" "$wall" $((wall / 60)) $((wall % 60))
        fi
        exit 0 ;;
    "") echo "usage: scripts/step.sh NAME COMMAND [ARGS...] | --reset | --summary" >&2; exit 2 ;;
esac

name="$1"; shift
started=$(date +%s)
"$@"
status=$?
# `times`' second line: the user and system time of the children this shell waited for, e.g. "1m2.5s 0m0.3s"
# (written to a file by this shell itself: in a pipe or $(...) it would run in a subshell, which has no children).
times > "$RECORD.cpu.$$"
cpu=$(tail -1 "$RECORD.cpu.$$" | awk '{ total = 0
    for (i = 1; i <= 2; i++) { split($i, part, /[ms]/); total += part[1] * 60 + part[2] }
    printf "%d", total }'); rm -f "$RECORD.cpu.$$"
printf '%s\t%d\t%d\t%d\n' "$name" $(( $(date +%s) - started )) "$status" "$cpu" >> "$RECORD"
exit "$status"
