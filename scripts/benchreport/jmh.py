"""The JMH export of an ordo-one/benchmark run (`benchmark run --format jmh`), read into results.

Scaling convention (shared with the benchmark sources in
Benchmarks/Benchmarks/ParallaxBenchmarks): the harness reports time per
*outer* iteration. Benchmarks whose name starts with one of
SINGLE_OPERATION_PREFIXES ("Naive/", "QuiltBuild/", "WaterfallBuild/",
"QuiltFrame/rfquilt-invalidated/") do one operation per iteration (one frame
or one build: scaling factor 1); every other benchmark runs 1,000 frames per
iteration (scaling factor 1,000). Per-operation figures are the
per-iteration figures divided by that factor.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

WALL_CLOCK = "Time (wall clock)"
MALLOCS = "Malloc (total)"

# The scaling rule (see above), in this one place.
SINGLE_OPERATION_PREFIXES = ("Naive/", "QuiltBuild/", "WaterfallBuild/", "QuiltFrame/rfquilt-invalidated/")
OPERATIONS_PER_ITERATION = 1_000

NAME_PATTERN = re.compile(r"^(?P<kind>[^/]+)/(?P<variant>[^/]+)/(?P<items>\d+)$")


def scaling_factor(name: str) -> int:
    """Operations (frames or builds) per outer iteration, by the naming convention above."""
    return 1 if name.startswith(SINGLE_OPERATION_PREFIXES) else OPERATIONS_PER_ITERATION


@dataclass
class Result:
    """One benchmark's figures, per operation (frame or build)."""

    name: str
    scale: int
    median_ns: float  # per operation (frame or build)
    p99_ns: float  # per operation (p99 of per-iteration figures, divided by the scale)
    mallocs: float | None  # per operation, median; None if not measured

    @property
    def kind(self) -> str:
        """The part of the name before the first "/": which section claims it."""
        return self.name.split("/", 1)[0]

    @property
    def parts(self) -> tuple[str, str, int] | None:
        """KIND/VARIANT/ITEMS, or None for a name of another shape."""
        match = NAME_PATTERN.match(self.name)
        if not match:
            return None
        return match["kind"], match["variant"], int(match["items"])


def load_results(path: Path) -> list[Result]:
    """Reads the JMH export: one record per benchmark."""
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        sys.exit(f"bench-report: {path} not found (did the benchmark run write its JMH export?)")
    except json.JSONDecodeError as error:
        sys.exit(f"bench-report: {path} is not valid JSON: {error}")
    if not isinstance(records, list):
        sys.exit(f"bench-report: {path} is not a JMH export (expected a list of records)")

    results = []
    for record in records:
        # "package.benchmark.<target>.<name>"; the name itself may contain dots.
        fields = record.get("benchmark", "").split(".", 3)
        if len(fields) < 4:
            print(f"bench-report: skipping record with unexpected name {record.get('benchmark')!r}", file=sys.stderr)
            continue
        name = fields[3]
        metrics = record.get("secondaryMetrics", {})
        wall = metrics.get(WALL_CLOCK)
        if wall is None:
            print(f"bench-report: {name} has no '{WALL_CLOCK}' metric; skipped", file=sys.stderr)
            continue
        scale = scaling_factor(name)
        # JMH times are in microseconds per outer iteration: × 1,000 / scale gives ns per operation.
        percentiles = wall["scorePercentiles"]
        median_ns = float(percentiles["50.0"]) * 1_000 / scale
        p99_ns = float(percentiles["99.0"]) * 1_000 / scale
        mallocs = None
        if MALLOCS in metrics:
            mallocs = float(metrics[MALLOCS]["scorePercentiles"]["50.0"]) / scale
        results.append(Result(name, scale, median_ns, p99_ns, mallocs))
    return results
