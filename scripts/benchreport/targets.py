"""Every threshold of BENCHMARKS.md, read from targets.json beside this file.

Why one data file that both sides read, rather than Python judging the
gallery's figures:

- The gallery's reports (`parallax-gallery bench` and `session`) judge
  figures only their Swift side holds: per-frame times, and per session its
  blank shares, fill times per event, hitch ratios and cache peaks. For
  Python to judge them, Swift would first have to export all of them in a
  second format, and Python would have to re-create the Swift report's
  Markdown (its numbers' formatting, the rows it leaves out, the prose shown
  only when a target fails) for the text to stay the same. That moves the
  judging to the far side of a serialisation boundary and doubles the
  report code; the gallery's own summary line and tests judge too.
- The harness sections are the mirror image: only Python reads the JMH
  export, so only Python can judge it.

So each side judges the figures it holds, and the numbers they judge by
(the targets) live in one file, in one language, JSON, which both standard
libraries read without a dependency. A target moves by editing one line of
targets.json; scripts/test-bench-report.sh checks that every threshold in
it is read by one side or the other, so none is dead or judged twice.

The section modules ask for a section's thresholds by the section's marker
key; a missing threshold ends the run with its name rather than with a
half-written report.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any

TARGETS_FILE = Path(__file__).with_name("targets.json")


class Thresholds:
    """One section's thresholds, by name (a name ends in its unit: `_ns`, `_ms`, `_percent`)."""

    def __init__(self, key: str, values: dict[str, Any]):
        self.key = key
        self._values = values

    def __getitem__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            sys.exit(f"bench-report: {TARGETS_FILE} has no {name!r} in {self.key!r}")


@functools.lru_cache(maxsize=1)
def _load() -> dict[str, Any]:
    try:
        document = json.loads(TARGETS_FILE.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        sys.exit(f"bench-report: cannot read the targets in {TARGETS_FILE}: {error}")
    if not isinstance(document, dict):
        sys.exit(f"bench-report: {TARGETS_FILE} must hold an object of sections")
    return document


def thresholds(key: str) -> Thresholds:
    """The thresholds of the section whose markers are `<!-- KEY:start/end -->`."""
    section = _load().get(key)
    if not isinstance(section, dict):
        sys.exit(f"bench-report: {TARGETS_FILE} has no section {key!r}")
    return Thresholds(key, section)
