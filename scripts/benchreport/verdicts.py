"""A target's row in a section's table, and the judgements the harness sections share."""

from __future__ import annotations

from dataclasses import dataclass

from .jmh import Result
from .units import Unit


@dataclass(frozen=True)
class Target:
    """One row of a section's `### Targets` table."""

    label: str
    measured: str
    goal: str
    outcome: str  # "PASS", "FAIL" or "MISSING"


def verdict(passed: bool) -> str:
    return "PASS" if passed else "FAIL"


def median_below(by_name: dict[str, Result], name: str, limit_ns: float, unit: Unit) -> Target:
    """The median of `name`, per operation, must be below `limit_ns`."""
    label = f"`{name}` median per {unit.operation}"
    goal = f"< {limit_ns / unit.ns_per_symbol:,.0f} {unit.symbol}"
    result = by_name.get(name)
    if result is None:
        return Target(label, "not run", goal, "MISSING")
    return Target(label, unit.quantity(result.median_ns), goal, verdict(result.median_ns < limit_ns))


def ratio_at_least(
    by_name: dict[str, Result], label: str, ours_name: str, baseline_name: str, minimum: float, unit: Unit
) -> Target:
    """The baseline's median must be at least `minimum` times ours."""
    goal = f"≥ {minimum:,.0f}×"
    ours, baseline = by_name.get(ours_name), by_name.get(baseline_name)
    if ours is None or baseline is None:
        missing = " and ".join(
            f"`{name}`" for name, result in ((ours_name, ours), (baseline_name, baseline)) if result is None
        )
        return Target(label, f"{missing} not run", goal, "MISSING")
    ratio = baseline.median_ns / ours.median_ns if ours.median_ns > 0 else float("inf")
    return Target(
        label,
        f"{unit.quantity(baseline.median_ns)} / {unit.quantity(ours.median_ns)} = {ratio:,.0f}×",
        goal,
        verdict(ratio >= minimum),
    )
