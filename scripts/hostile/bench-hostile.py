#!/usr/bin/env python3
"""Peak memory and time of a 400 x 400 thumbnail of each hostile file
(scripts/hostile/make-hostile.py), by the current decoder and by a baseline
build, each file in a fresh process (thumbnail-benchmark's `--child fill`),
reaped with wait4 for its own ru_maxrss. Prints the section as Markdown on
standard output (progress on standard error); scripts/bench-hostile.sh hands
it to scripts/bench-report.py, which writes it into BENCHMARKS.md.

    bench-hostile.py FOLDER CURRENT_TOOL [BASELINE_TOOL BASELINE_NAME]
"""
import os
import re
import subprocess
import sys
import time

folder, current = sys.argv[1], sys.argv[2]
baseline = sys.argv[3] if len(sys.argv) > 4 else None
baseline_name = sys.argv[4] if len(sys.argv) > 4 else None
RUNS = 3

WHAT = {
    "png-header-14000.png": "65-byte PNG, header claims 14000 × 14000, no pixel data",
    "png-huge-itxt.png": "57-byte PNG, 8 × 8, an iTXt chunk claiming 1 GiB",
    "jpeg-header-14000.jpg": "633-byte JPEG, header made to claim 14000 × 14000",
    "png-solid-14000.png": "honest 14000 × 14000 grey PNG, 0.6 MB",
    "jpeg-solid-14000.jpg": "honest 14000 × 14000 grey baseline JPEG, 3.1 MB",
    "jpeg-solid-14000-progressive.jpg": "honest 14000 × 14000 grey progressive JPEG, 1.2 MB",
}


def measure(tool, path):
    """Median wall seconds, highest peak RSS (MiB) and the outcome over RUNS fresh processes."""
    walls, peaks, outcome = [], [], ""
    for _ in range(RUNS):
        start = time.monotonic()
        child = subprocess.Popen([tool, "--child", "fill", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        walls.append(time.monotonic() - start)
        peaks.append(usage.ru_maxrss / 1024)
        error = child.stderr.read().decode(errors="replace").strip()
        child.stderr.close()
        outcome = "thumbnail" if status == 0 else re.sub(r"^thumbnail-benchmark: [^:]*: ", "", error)[:110]
    walls.sort()
    return walls[len(walls) // 2], max(peaks), outcome


rows = []
for name in WHAT:
    path = os.path.join(folder, name)
    after = measure(current, path)
    before = measure(baseline, path) if baseline else None
    rows.append((name, before, after))
    print("hostile: %s: %s" % (name, ", ".join("%.2f s %.0f MiB %s" % m for m in (before, after) if m)), file=sys.stderr)

lines = [
    "## Hostile files: memory and time of one thumbnail",
    "",
    "Each file is thumbnailed to 400 × 400 (fill) in a fresh process (`thumbnail-benchmark --child fill`), "
    "%d times; the median wall time and the highest peak resident set are shown. " % RUNS
    + ("*Before* is the decoder at %s, the last commit before the memory budget work; " % baseline_name if baseline else "")
    + "*After* is this checkout. A process doing nothing peaks at about 12 MiB.",
    "",
]
if baseline:
    lines += ["| File | Before: time | Before: peak RSS | Before: outcome | After: time | After: peak RSS | After: outcome |",
              "| --- | ---: | ---: | --- | ---: | ---: | --- |"]
else:
    lines += ["| File | Time | Peak RSS | Outcome |", "| --- | ---: | ---: | --- |"]
for name, before, after in rows:
    cells = ["%s (%s)" % (name, WHAT[name])]
    for m in ([before] if before else []) + [after]:
        cells += ["%.2f s" % m[0], "%.0f MiB" % m[1], m[2].replace("|", "/")]
    lines.append("| " + " | ".join(cells) + " |")
lines.append("\n*The honest progressive file is refused on purpose*: for any progressive decode, even a 1/8-scale thumbnail that reads only the first scan, libjpeg keeps every block's coefficients (here 568 MB); that is over the default per-decode budget of 256 MiB (`DecodingOptions.maximumDecodeBytes`, which an app that expects such files raises). The lying headers fail before anything of their claimed size exists, and the honest PNG streams: 29 MiB instead of 860.")
print("\n".join(lines))
