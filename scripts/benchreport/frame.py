"""The per-frame cost of the grid (`frame-benchmarks`): `Frame/…` against the naive `Naive/…`."""

from __future__ import annotations

from .jmh import Result
from .section import Section, variants_in
from .targets import thresholds
from .units import PER_FRAME
from .verdicts import Target, median_below, ratio_at_least

KEY = "frame-benchmarks"

VARIANT_NOTES = {
    "grid-dense": "4 columns of 87.5 pt cells, 36–40 visible items (the headline case)",
    "grid": "RolfHendriks' UICollectionView-Demo's grid, 2 columns of 183 pt cells, 10–12 visible items",
    "list": "RolfHendriks' UICollectionView-Demo's list, 390 × 195 pt rows, 5–6 visible items",
}
VARIANT_ORDER = ("grid-dense", "grid", "list")


def intro(results: list[Result]) -> list[str]:
    lines = [
        "One frame is the work a parallax scroll view does on every scroll event, on a 390 × 844 pt viewport: "
        "find the visible items and compute the parallax placement of each. "
        "`Frame/…` is ParallaxKit (`GridLayout.forEachItem(in:)` + `ParallaxScroller.placement(forItemFrame:in:)`, "
        "nothing allocated, nothing invalidated). "
        "`Naive/…` is the baseline that invalidates the layout on every scroll event, the failure of Kurutepe's UICollectionView parallax category: "
        "every frame it recomputes the frame of every item into a new array, filters the visible ones "
        "and computes their placements. Both scroll 37.3 pt per frame through the same content. "
        "The naive baseline is not run at 10 million items (320 MB rebuilt per frame); its cost is linear in the item count.",
        "",
        "Variants:",
        "",
    ]
    for variant in variants_in(results, VARIANT_ORDER):
        note = VARIANT_NOTES.get(variant)
        lines.append(f"- `{variant}`" + (f": {note}." if note else "."))
    return lines


def targets(results: list[Result]) -> list[Target]:
    """The headline median, then the naive / ParallaxKit ratio of every variant run."""
    goals = thresholds(KEY)
    by_name = {result.name: result for result in results}
    items = goals["ratio_items"]
    rows = [median_below(by_name, goals["headline_benchmark"], goals["headline_median_below_ns"], PER_FRAME)]
    for variant in variants_in(results, VARIANT_ORDER):
        rows.append(ratio_at_least(
            by_name,
            f"{variant} at {items:,} items: naive / ParallaxKit",
            ours_name=f"Frame/{variant}/{items}",
            baseline_name=f"Naive/{variant}/{items}",
            minimum=goals["naive_over_parallaxkit_at_least"],
            unit=PER_FRAME,
        ))
    return rows


SECTION = Section(
    key=KEY,
    title="Per-frame cost: visible query + parallax",
    units={"Frame": PER_FRAME, "Naive": PER_FRAME},
    row_order=("variant", "items", "kind"),
    variant_order=VARIANT_ORDER,
    intro=intro,
    footnote=(
        "The harness measures whole iterations: 1,000 frames for `Frame/…`, one frame for `Naive/…`. "
        "Per-frame figures are those divided by the frame count, so a `Frame/…` p99 is the p99 of "
        "1,000-frame averages, not of single frames. Mallocs per frame are medians."
    ),
    targets=targets,
)
