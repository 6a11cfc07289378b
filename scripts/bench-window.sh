#!/usr/bin/env bash
# The gallery's window on a machine without a GPU: the CPU the release build
# uses in a real X window (Xvfb, 1280 × 800, a 3,000-photo library tree with
# its thumbnails already on disk), at rest and while the wheel scrolls,
# against the baseline of SDL's default presentation, which hands the
# software renderer's frames to OpenGL (on Mesa's llvmpipe, a CPU
# rasteriser, where there is no GPU). Written to BENCHMARKS.md (section
# window-benchmarks) by scripts/bench-report.py.
#
#   scripts/bench-window.sh [RUNS]      (default 3 runs of each, alternating)
#   BENCHMARKS_MD=FILE writes into FILE instead of BENCHMARKS.md.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT="${BENCHMARKS_MD:-$REPO/BENCHMARKS.md}"
RUNS="${1:-3}"
cd "$REPO"

swift build --package-path Apps -c release --product parallax-gallery >/dev/null
GALLERY="$(swift build --package-path Apps -c release --show-bin-path)/parallax-gallery"
TREE=.cache/library-trees/3000
[[ -f "$TREE.complete" ]] || scripts/make-library-tree.sh .cache/photos "$TREE" 3000 >/dev/null

work="$(mktemp -d)"
xvfb_pid=""
gallery_pid=""
cleanup() {
    [[ -n "$gallery_pid" ]] && kill "$gallery_pid" 2>/dev/null || true
    [[ -n "$xvfb_pid" ]] && kill "$xvfb_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Xvfb picks a free display and writes its number when it is ready.
Xvfb -displayfd 1 -screen 0 1400x900x24 -nolisten tcp >"$work/display" 2>/dev/null &
xvfb_pid=$!
for _ in $(seq 1 200); do [[ -s "$work/display" ]] && break; sleep 0.05; done
[[ -s "$work/display" ]] || { echo "bench-window: Xvfb did not start (make deps installs it)" >&2; exit 1; }
export DISPLAY=":$(head -1 "$work/display")"

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
ticks_per_second=$(getconf CLK_TCK)

# One launch in `mode` (default or baseline): prints "rest_percent scroll_percent".
measure() {
    local mode="$1" shots="$work/shots-$RANDOM" log="$work/log"
    local env=()
    [[ "$mode" == baseline ]] && env=(SDL_FRAMEBUFFER_ACCELERATION=1)
    env "${env[@]}" "$GALLERY" run --photos "$TREE" --size 1280x800 --cache "$work/thumbnails" \
        --screenshots "$shots" >"$log" 2>/dev/null &
    gallery_pid=$!
    local window=""
    for _ in $(seq 1 1200); do
        window=$(xdotool search --onlyvisible --name ParallaxKit 2>/dev/null | head -1 || true)
        [[ -n "$window" ]] && break
        sleep 0.05
    done
    [[ -n "$window" ]] || { echo "bench-window: the gallery opened no window on $DISPLAY" >&2; exit 1; }
    # At rest with every date read: P writes a screenshot line saying so.
    for _ in $(seq 1 600); do
        local before; before=$(grep -c '^screenshot:' "$log" || true)
        xdotool key --window "$window" p
        for _ in $(seq 1 200); do (( $(grep -c '^screenshot:' "$log" || true) > before )) && break; sleep 0.05; done
        tail -1 "$log" | grep -q 'reading: no moving: no' && break
        sleep 0.5
    done
    local a b c started scrolled
    a=$(cpu_ticks "$gallery_pid"); started=$(date +%s.%N)
    sleep 10
    b=$(cpu_ticks "$gallery_pid"); scrolled=$(date +%s.%N)
    xdotool mousemove --window "$window" 640 400 click --repeat 200 --delay 50 5
    c=$(cpu_ticks "$gallery_pid")
    local ended; ended=$(date +%s.%N)
    kill "$gallery_pid"; wait "$gallery_pid" 2>/dev/null || true; gallery_pid=""
    python3 -c "import sys; a,b,c,t0,t1,t2,hz=map(float,sys.argv[1:]); print(f'{100*(b-a)/hz/(t1-t0):.1f} {100*(c-b)/hz/(t2-t1):.1f}')" \
        "$a" "$b" "$c" "$started" "$scrolled" "$ended" "$ticks_per_second"
}

measure default >/dev/null                    # fills the thumbnail cache: every measured run reads it
: >"$work/default"; : >"$work/baseline"
for _ in $(seq 1 "$RUNS"); do
    measure baseline >>"$work/baseline"
    measure default >>"$work/default"
done

section="$work/section.md"
python3 - "$work/default" "$work/baseline" "$RUNS" >"$section" <<'EOF'
import statistics, sys
def load(path):
    rows = [tuple(map(float, line.split())) for line in open(path) if line.strip()]
    return statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows), rows
rest, scroll, ours = load(sys.argv[1])
base_rest, base_scroll, theirs = load(sys.argv[2])
runs = sys.argv[3]
print("## The window without a GPU\n")
print("The release gallery in a real X window (Xvfb: no GPU, as a VM or a headless machine) at 1280 × 800 over the "
      "3,000-photo library tree, its thumbnails already on disk: the CPU the process used, in percent of one core, "
      "over 10 s at rest (every date read, nothing moving: the frame loop alone, 60 frames a second) and over 200 "
      "wheel clicks 50 ms apart. The baseline is SDL's default presentation, which hands the software renderer's "
      "frames to OpenGL, rasterised on the CPU by Mesa's llvmpipe (`SDL_FRAMEBUFFER_ACCELERATION=1`); the gallery "
      "presents them through X11 shared memory. "
      f"Medians of {runs} launches of each, alternating.\n")
print("| presentation | CPU at rest | CPU while scrolling |")
print("| --- | ---: | ---: |")
print(f"| ParallaxKit: X11 shared memory | {rest:.1f} % | {scroll:.1f} % |")
print(f"| baseline: SDL's default (OpenGL on llvmpipe) | {base_rest:.1f} % | {base_scroll:.1f} % |")
print(f"| ratio (baseline ÷ ParallaxKit) | {base_rest / max(rest, 0.1):.1f}× | {base_scroll / max(scroll, 0.1):.2f}× |")
print()
print("Each launch (at rest, scrolling): ParallaxKit " + ", ".join(f"{r[0]:.0f} %/{r[1]:.0f} %" for r in ours)
      + "; baseline " + ", ".join(f"{r[0]:.0f} %/{r[1]:.0f} %" for r in theirs) + ".")
EOF
python3 scripts/bench-report.py section "$REPORT" window-benchmarks "$section" \
    --by "parallax-gallery run under Xvfb" --rerun scripts/bench-window.sh
