"""How the harness sections write times and allocation counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


def format_ns(value: float) -> str:
    if value >= 1_000:
        return f"{value:,.0f}"
    return f"{value:.1f}"


def format_ms(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def format_mallocs(value: float | None) -> str:
    if value is None:
        return "not measured"
    if value == 0:
        return "0"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


@dataclass(frozen=True)
class Unit:
    """How one kind of operation is shown: what one operation is, and in which time unit."""

    symbol: str  # time unit shown, "ns" or "ms"
    operation: str  # what one operation is, "frame" or "build"
    ns_per_symbol: float
    formatter: Callable[[float], str]  # formats a value already in `symbol`

    def number(self, ns: float) -> str:
        return self.formatter(ns / self.ns_per_symbol)

    def quantity(self, ns: float) -> str:
        return f"{self.number(ns)} {self.symbol}"


PER_FRAME = Unit("ns", "frame", 1.0, format_ns)
PER_BUILD = Unit("ms", "build", 1_000_000.0, format_ms)
