"""Pinch to change density (`pinch-benchmarks`): an interactive frame against a plain one of the same density."""

from __future__ import annotations

from .jmh import Result
from .section import Section
from .targets import thresholds
from .units import PER_FRAME
from .verdicts import Target, verdict

KEY = "pinch-benchmarks"

# (pinched kind, plain kind it is held against; None: the same kind), in the order of the targets table.
COMPARISONS = (("grid", None), ("grid", "gridlayout"), ("quilt", None))


def intro(results: list[Result]) -> list[str]:
    return [
        "One frame of a pinch to change density on a 390 × 844 pt viewport, next to a plain frame in the same run. "
        "`Pinch/grid/…`: `DensityPinch.update(scale:)` with the scale breathing between 0.55 and 1.6 "
        "(the pinch keeps chaining between 3 and 7 columns of the dense grid), then every item visible in either "
        "of the two layouts it shows, with its interpolated frame and its parallax placement. "
        "`PinchPlain/grid/…`, the baseline: a plain scrolling frame (the visible query and the placements) of the "
        "grid with the whole column count the pinch shows at that frame, so both draw the same density. "
        "`Pinch/quilt/…` and `PinchPlain/quilt/…`: the same over quilts of as many square block columns, with the "
        "quilt benchmarks' mix of 1 × 1, 2 × 1, 1 × 2 and 2 × 2 items. Both sides hold their layouts as "
        "`AnyItemLayout`, as the UIKit layout, the SwiftUI grid and the gallery do; `PinchPlain/gridlayout/…` is "
        "the grid's plain frame read from `GridLayout` values directly, the cheapest plain frame there is, and "
        "the stricter baseline for the grid's pinch.",
    ]


def ratio_at_most(by_name: dict[str, Result], kind: str, n: int, limit: float, plain_kind: str | None = None) -> Target:
    """`Pinch/kind/n` must cost at most `limit` times `PinchPlain/plain_kind/n` (default: kind)."""
    plain_kind = plain_kind or kind
    against = "plain frame" if plain_kind == kind else f"plain `{plain_kind}` frame"
    label = f"{kind}: interactive frame / {against} at {n:,} items"
    goal = f"≤ {limit:g}×"
    ours, plain = by_name.get(f"Pinch/{kind}/{n}"), by_name.get(f"PinchPlain/{plain_kind}/{n}")
    if ours is None or plain is None:
        return Target(label, "not run", goal, "MISSING")
    ratio = ours.median_ns / plain.median_ns if plain.median_ns > 0 else float("inf")
    return Target(label, f"{PER_FRAME.quantity(ours.median_ns)} / {PER_FRAME.quantity(plain.median_ns)} = {ratio:.1f}×",
                  goal, verdict(ratio <= limit))


def targets(results: list[Result]) -> list[Target]:
    """Every comparison at every item count, whether or not it ran (MISSING when not)."""
    goals = thresholds(KEY)
    by_name = {result.name: result for result in results}
    limit = goals["interactive_over_plain_at_most"]
    return [ratio_at_most(by_name, kind, n, limit, plain) for kind, plain in COMPARISONS for n in goals["items"]]


SECTION = Section(
    key=KEY,
    title="Pinch to change density: per-frame cost",
    units={"Pinch": PER_FRAME, "PinchPlain": PER_FRAME},
    row_order=("variant", "items", "kind"),
    variant_order=("grid", "gridlayout", "quilt"),
    intro=intro,
    footnote=(
        "Frame figures are per frame, in ns: the per-iteration figures of 1,000 frames divided by 1,000. "
        "Mallocs per frame are medians."
    ),
    targets=targets,
)
