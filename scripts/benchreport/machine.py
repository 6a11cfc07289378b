"""The machine facts every section lists under its title: system, CPUs, memory, toolchain, and
how fast the machine runs as the section is written (a fixed calibration loop and a memory copy),
so that figures from machines that differ by several times can be compared."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from pathlib import Path


def run(command: list[str]) -> str | None:
    """The output of `command` (stdout, else stderr), or None if it cannot run."""
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    output = completed.stdout.strip() or completed.stderr.strip()
    return output or None


def read_proc(path: str) -> str:
    """A /proc file's text, or "" where there is none (macOS)."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def cpu_model() -> str:
    for line in read_proc("/proc/cpuinfo").splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Hardware", "cpu model", "Processor") and value.strip():
            return value.strip()
    return run(["sysctl", "-n", "machdep.cpu.brand_string"]) or platform.processor() or "unknown"


def total_memory() -> str:
    for line in read_proc("/proc/meminfo").splitlines():
        if line.startswith("MemTotal:"):
            kib = int(line.split()[1])
            return f"{kib / 1024 / 1024:.1f} GiB"
    memsize = run(["sysctl", "-n", "hw.memsize"])
    if memsize and memsize.isdigit():
        return f"{int(memsize) / 1024**3:.1f} GiB"
    return "unknown"


def swift_version() -> str:
    output = run(["swift", "--version"])
    if not output:
        return "unknown"
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in lines:
        if "Swift version" in line:
            return line
    return lines[0]


def calibration() -> str:
    """How fast one core runs now: a fixed loop of 2,000,000 integer steps in CPython (the
    median of three runs), and the memory bandwidth of a 128 MiB copy (bytes read and written per
    second, the best of three). Taken as the section is written, on the machine and under the load
    its figures were measured with: a machine twice as slow shows about twice the loop time."""
    def loop() -> int:
        total = 0
        for step in range(2_000_000):
            total += step ^ (step >> 3)
        return total

    times = []
    for _ in range(3):
        start = time.perf_counter()
        loop()
        times.append(time.perf_counter() - start)
    source = bytearray(b"\x01") * (128 << 20)
    destination = bytearray(len(source))
    destination[:] = source                  # every page of both touched before the timing
    copies = []
    for _ in range(3):
        start = time.perf_counter()
        destination[:] = source
        copies.append(time.perf_counter() - start)
    bandwidth = 2 * len(source) / min(copies) / 1e9
    return f"a 2,000,000-step CPython loop takes {sorted(times)[1] * 1000:.0f} ms; memory copies at {bandwidth:.1f} GB/s"


def machine_facts() -> list[tuple[str, str]]:
    """(label, value) pairs, in the order a section lists them.

    With BENCH_REPORT_FACTS naming a file, the facts are read from it when it exists and written
    to it otherwise: the report writer's own tests write many sections in one run, and measure
    the machine once for all of them (its speed, above all, takes seconds on a loaded machine)."""
    cache = os.environ.get("BENCH_REPORT_FACTS")
    if cache and Path(cache).is_file():
        return [(label, value) for label, value in json.loads(Path(cache).read_text())]
    facts = measured_machine_facts()
    if cache:
        Path(cache).write_text(json.dumps(facts))
    return facts


def measured_machine_facts() -> list[tuple[str, str]]:
    """The facts as this machine gives them now."""
    return [
        ("System", run(["uname", "-srm"]) or " ".join(platform.uname()[i] for i in (0, 2, 4))),
        ("CPUs", run(["nproc"]) or str(os.cpu_count() or "unknown")),
        ("CPU model", cpu_model()),
        ("Memory", total_memory()),
        ("Toolchain", swift_version()),
        ("Speed when written", calibration()),
    ]
