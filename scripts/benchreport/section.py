"""A harness section of BENCHMARKS.md: which benchmarks it reports, its table, and its whole body."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .jmh import Result
from .units import Unit, format_mallocs
from .verdicts import Target


def rank(order: tuple[str, ...], value: str) -> int:
    """`value`'s place in `order`; unknown values after every known one."""
    return order.index(value) if value in order else len(order)


def variants_in(results: list[Result], order: tuple[str, ...]) -> list[str]:
    """The variants (middle name component) present in `results`, known ones first in `order`."""
    variants = {parts[1] for result in results if (parts := result.parts) is not None}
    return sorted(variants, key=lambda variant: (rank(order, variant), variant))


@dataclass(frozen=True)
class Section:
    """One suite's block of BENCHMARKS.md: which benchmarks it reports and how."""

    key: str  # the section key: its markers are `<!-- KEY:start -->` and `<!-- KEY:end -->`
    title: str
    units: dict[str, Unit]  # the kinds (name prefixes) it reports, in row order, and their units
    row_order: tuple[str, ...]  # sort fields of the table rows, from "kind", "variant", "items"
    variant_order: tuple[str, ...]
    intro: Callable[[list[Result]], list[str]]  # Markdown lines between the title and the table
    footnote: str  # the paragraph under the table
    targets: Callable[[list[Result]], list[Target]]

    def claims(self, result: Result) -> bool:
        return result.kind in self.units

    def sort_key(self, result: Result) -> tuple:
        parts = result.parts
        if parts is None:
            return (1, result.name)
        kind, variant, items = parts
        fields = {
            "kind": (rank(tuple(self.units), kind), kind),
            "variant": (rank(self.variant_order, variant), variant),
            "items": (items,),
        }
        return (0, *(value for field in self.row_order for value in fields[field]))

    def table(self, results: list[Result]) -> list[str]:
        units = set(self.units.values())
        if len(units) == 1:
            # One unit for every row: it goes in the header.
            (unit,) = units
            lines = [
                f"| Benchmark | Median {unit.symbol}/{unit.operation} | p99 {unit.symbol}/{unit.operation} "
                f"| Mallocs/{unit.operation} |",
                "| --- | ---: | ---: | ---: |",
            ]
            for result in results:
                lines.append(
                    f"| `{result.name}` | {unit.number(result.median_ns)} | {unit.number(result.p99_ns)} "
                    f"| {format_mallocs(result.mallocs)} |"
                )
        else:
            # Mixed units (builds and frames): each cell says its own.
            lines = ["| Benchmark | Median | p99 | Mallocs |", "| --- | ---: | ---: | ---: |"]
            for result in results:
                unit = self.units[result.kind]
                per = f"{unit.symbol}/{unit.operation}"
                mallocs = format_mallocs(result.mallocs)
                if result.mallocs is not None:
                    mallocs += f"/{unit.operation}"
                lines.append(
                    f"| `{result.name}` | {unit.number(result.median_ns)} {per} | {unit.number(result.p99_ns)} {per} "
                    f"| {mallocs} |"
                )
        if not results:
            lines.append("| (no results) | | | |")
        return lines

    def render(self, results: list[Result]) -> str:
        """The section's body, from its `## Title` line; `results` are this section's, sorted."""
        lines = [
            f"## {self.title}",
            "",
            *self.intro(results),
            "",
            *self.table(results),
            "",
            self.footnote,
            "",
            "### Targets",
            "",
            "| Target | Measured | Goal | Result |",
            "| --- | --- | --- | --- |",
        ]
        for target in self.targets(results):
            lines.append(f"| {target.label} | {target.measured} | {target.goal} | **{target.outcome}** |")
        return "\n".join(lines)
