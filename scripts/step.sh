#!/usr/bin/env bash
# Times the steps of `make test`, so a slow step shows itself.
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
        awk -F'\t' '{ printf "  %-28s %5d s%s\n", $1, $2, ($3 == 0 ? "" : "  FAILED"); total += $2 }
                    END { printf "  %-28s %5d s (%d min %d s)\n", "sum of the steps", total, total / 60, total % 60 }' "$RECORD"
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
printf '%s\t%d\t%d\n' "$name" $(( $(date +%s) - started )) "$status" >> "$RECORD"
exit "$status"
