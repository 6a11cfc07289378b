#!/usr/bin/env python3
"""Counts the gallery's frame work in instructions, under callgrind.

    frame-instructions.py BINARY OUT_MD [--passes cached,decoding,...] [--frames N] [--photos DIR]

BINARY is a release build of parallax-frame-cost. Each pass of its scripted
frames runs in its own valgrind process, counting only inside
FrameCost.countedFrame (callgrind's --toggle-collect): the model's update and
the drawing, on the render thread. Instructions are the same on every machine
for the same binary and inputs, where milliseconds differ by 4x here.

Writes the Markdown body of the frame-instruction-benchmarks section to OUT_MD
(scripts/bench-report.py puts it into BENCHMARKS.md). Standard library only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

PASSES = {
    "cached": "a fling through the grid, every thumbnail in memory",
    "decoding": "the same fling from an empty memory cache: each frame uploads the tiles that arrived since the last one and cross-fades them in",
    "pinching": "a pinch out to 1.8x and back, with each settle: pictures drawn stretched until their new size arrives",
    "previews": "the fling with every tile showing only its ThumbHash preview",
}

# Self cost above this share of a pass is listed in its top functions.
TOP = 6


def start_pass(binary: Path, name: str, frames: int, photos: str | None, work: Path) -> subprocess.Popen:
    """Starts one pass under callgrind, counting only inside FrameCost.countedFrame."""
    command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=*FrameCost*counted*",
               f"--callgrind-out-file={work / (name + '.callgrind')}", str(binary), "--pass", name, "--frames", str(frames)]
    if photos:
        command += ["--photos", photos]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish_pass(process: subprocess.Popen, name: str, work: Path) -> dict:
    """A started pass's figures: instructions counted, frames, tiles, top functions by self cost."""
    stdout, stderr = process.communicate()
    out = work / f"{name}.callgrind"
    if process.returncode != 0:
        sys.exit(f"frame-instructions: the {name} pass failed under valgrind:\n{stderr[-2000:]}")
    printed = re.search(r"pass \S+ frames (\d+) tiles (\d+)", stdout)
    if not printed:
        sys.exit(f"frame-instructions: the {name} pass printed no frame count:\n{stdout[-500:]}")
    text = out.read_text(encoding="utf-8", errors="replace")
    total = re.search(r"^(?:summary|totals): (\d+)", text, re.MULTILINE)
    if not total or int(total.group(1)) == 0:
        sys.exit(f"frame-instructions: callgrind counted nothing in the {name} pass (was FrameCost.countedFrame inlined or renamed?)")
    annotated = subprocess.run(["callgrind_annotate", str(out)], capture_output=True, text=True).stdout
    return {"instructions": int(total.group(1)), "frames": int(printed.group(1)), "tiles": int(printed.group(2)),
            "top": top_functions(annotated, int(total.group(1)))}


def top_functions(annotated: str, total: int) -> list[tuple[int, str]]:
    """The functions with the largest self cost: (instructions, readable name)."""
    rows = []
    for line in annotated.splitlines():
        match = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)$", line)
        if not match or "PROGRAM TOTALS" in line:
            continue
        cost = int(match.group(1).replace(",", ""))
        rows.append((cost, readable(match.group(2))))
        if len(rows) == TOP:
            break
    return rows


def readable(location: str) -> str:
    """`file:function [object]` as a short name: Swift symbols demangled, anonymous code named by its library."""
    function = re.sub(r"^.*?:", "", location.split(" [")[0], count=1) if ":" in location else location
    library = re.search(r"\[(.*)\]", location)
    library_name = Path(library.group(1)).name if library else "?"
    if re.fullmatch(r"0x[0-9a-f]+", function):
        # Debian's SDL2 ships without symbols: the library and the address.
        return f"{library_name} at {function}"
    if function.startswith("$s") and shutil.which("swift-demangle"):
        demangled = subprocess.run(["swift-demangle", "--simplified", "--compact", function], capture_output=True, text=True)
        function = demangled.stdout.strip() or function
    function = re.sub(r"\s+", " ", function)
    if len(function) > 90:
        function = function[:87] + "…"
    return f"{function} ({library_name})"


def markdown(results: dict[str, dict], frames: int, photos: str | None) -> str:
    lines = [
        "## Frame work in instructions",
        "",
        "Instructions the render thread executes per frame, counted by `valgrind --tool=callgrind` inside `FrameCost.countedFrame` (the model's update and the drawing, texture uploads and cross-fades included; decodes run on other threads and are not counted) over fixed, scripted frames at 1280 × 800 with SDL's software renderer. Time in each pass is the frame number ÷ 60 and loads settle between frames, so the counts are the same on any machine for the same build and inputs: compare them across machines, and milliseconds only within one run.",
        "",
        f"Pictures: {'the photos in ' + photos if photos else '49 generated 480 × 360 pictures of mixed shapes, repeated to 1,000'} ({frames} frames a fling). The passes:",
        "",
    ]
    for name in results:
        lines.append(f"- **{name}**: {PASSES[name]}.")
    lines += ["", "| Pass | Frames | Instructions per frame | Tiles per frame | Instructions per tile |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, result in results.items():
        per_frame = result["instructions"] / result["frames"]
        tiles = result["tiles"] / result["frames"]
        lines.append(f"| {name} | {result['frames']} | {per_frame / 1e6:.2f} M | {tiles:.1f} | {per_frame / max(tiles, 1) / 1e3:.1f} k |")
    lines += ["", "Where each pass's instructions go (self cost, largest first; share of the pass):", ""]
    for name, result in results.items():
        parts = [f"{name}:"]
        for cost, function in result["top"]:
            parts.append(f"  - {cost / result['instructions'] * 100:.1f} % {function}")
        lines += parts
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--passes", default=",".join(PASSES))
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--photos")
    args = parser.parse_args()
    passes = [name for name in args.passes.split(",") if name]
    unknown = [name for name in passes if name not in PASSES]
    if unknown:
        parser.error(f"unknown passes {unknown}; known: {list(PASSES)}")
    if not shutil.which("valgrind"):
        sys.exit("frame-instructions: valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        # Debian 12's valgrind (3.19) cannot read the DWARF 5 debug information Swift 6.3 writes and gives up
        # on the binary: a copy without it keeps the symbol table, which is all the counts need.
        binary = work / "parallax-frame-cost"
        shutil.copy(args.binary, binary)
        subprocess.run(["strip", "--strip-debug", str(binary)], check=True)
        # Two passes at a time, one a core: instructions do not depend on what else runs. The decoding
        # pass, whose frames wait for decodes under valgrind's serialised threads, takes longest: first.
        def run(name: str) -> dict:
            print(f"frame-instructions: {name} pass under callgrind…", file=sys.stderr, flush=True)
            result = finish_pass(start_pass(binary, name, args.frames, args.photos, work), name, work)
            print(f"  {name}: {result['instructions'] / result['frames'] / 1e6:.2f} M instructions per frame", file=sys.stderr)
            return result
        order = sorted(passes, key=lambda name: name != "decoding")
        with ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1))) as pool:
            results = dict(zip(order, pool.map(run, order)))
        results = {name: results[name] for name in passes}
    args.out.write_text(markdown(results, args.frames, args.photos), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
