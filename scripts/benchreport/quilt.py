"""The quilt and waterfall layouts (`quilt-benchmarks`): builds and frames, against the RFQuiltLayout port."""

from __future__ import annotations

from .jmh import Result
from .section import Section
from .targets import thresholds
from .units import PER_BUILD, PER_FRAME
from .verdicts import Target, median_below, ratio_at_least

KEY = "quilt-benchmarks"


def intro(results: list[Result]) -> list[str]:
    return [
        "Quilt items are a random mix of 1 × 1, 2 × 1, 1 × 2 and 2 × 2 blocks drawn from a fixed seed, "
        "on 100 × 100 pt blocks in a 390 pt wide container, so 3 columns. "
        "`QuiltBuild/…` builds the layout from scratch. "
        "`QuiltFrame/…` is one frame on a 390 × 844 pt viewport: the rect query for the visible items "
        "plus the parallax placement of every one of them.",
        "",
        "`parallaxkit` is ParallaxKit's `QuiltLayout`. "
        "`rfquilt` is the baseline: a Swift port of RFQuiltLayout's algorithm "
        "(`Benchmarks/Benchmarks/ParallaxBenchmarks/RFQuiltBaseline.swift`), with its nested-dictionary occupancy "
        "probed tile by tile during first-fit placement and its tile-walking rect query. "
        "The port uses native Swift dictionaries where the original uses Foundation's, so it is if anything "
        "faster than the Objective-C original: the speed-ups below understate the real ones. "
        "The baseline is not run at 1,000,000 items (too slow).",
        "",
        "`rfquilt` keeps its layout between frames: RFQuiltLayout's best case, scrolling with nothing "
        "invalidated. `rfquilt-invalidated` is what Kurutepe's parallax category actually did: parallax computed in the layout "
        "(Ole Begemann's approach) invalidates it on every scroll event, and RFQuiltLayout's "
        "`invalidateLayout` forgets every placement, so each frame runs `prepareLayout` (placing items up to "
        "the visible rows again) before the rect query. It is measured one frame per iteration, at scroll "
        "positions spread through the content.",
        "",
        "`WaterfallBuild/…` and `WaterfallFrame/…` measure ParallaxKit's `WaterfallLayout` the same way "
        "(one build; one frame of query + placement); there is no baseline for them.",
    ]


def targets(results: list[Result]) -> list[Target]:
    """The headline build and frame medians, then rfquilt / ParallaxKit for builds, frames and invalidated frames."""
    goals = thresholds(KEY)
    by_name = {result.name: result for result in results}
    headline, n = goals["headline_items"], goals["ratio_items"]
    minimum = goals["rfquilt_over_parallaxkit_at_least"]
    return [
        median_below(by_name, f"QuiltBuild/parallaxkit/{headline}", goals["build_median_below_ms"] * 1_000_000, PER_BUILD),
        median_below(by_name, f"QuiltFrame/parallaxkit/{headline}", goals["frame_median_below_ns"], PER_FRAME),
        ratio_at_least(
            by_name,
            f"build at {n:,} items: rfquilt / ParallaxKit",
            ours_name=f"QuiltBuild/parallaxkit/{n}",
            baseline_name=f"QuiltBuild/rfquilt/{n}",
            minimum=minimum,
            unit=PER_BUILD,
        ),
        ratio_at_least(
            by_name,
            f"frame at {n:,} items: rfquilt / ParallaxKit",
            ours_name=f"QuiltFrame/parallaxkit/{n}",
            baseline_name=f"QuiltFrame/rfquilt/{n}",
            minimum=minimum,
            unit=PER_FRAME,
        ),
        ratio_at_least(
            by_name,
            f"frame at {n:,} items: rfquilt-invalidated (Kurutepe's parallax category) / ParallaxKit",
            ours_name=f"QuiltFrame/parallaxkit/{n}",
            baseline_name=f"QuiltFrame/rfquilt-invalidated/{n}",
            minimum=minimum,
            unit=PER_FRAME,
        ),
    ]


SECTION = Section(
    key=KEY,
    title="Quilt and waterfall layouts: build and per-frame cost",
    units={
        "QuiltBuild": PER_BUILD,
        "QuiltFrame": PER_FRAME,
        "WaterfallBuild": PER_BUILD,
        "WaterfallFrame": PER_FRAME,
    },
    row_order=("kind", "items", "variant"),
    variant_order=("parallaxkit", "rfquilt", "rfquilt-invalidated"),
    intro=intro,
    footnote=(
        "The harness measures whole iterations: one build for `…Build/…`, 1,000 frames for `…Frame/…` "
        "(one for `rfquilt-invalidated`). "
        "Build figures are per build, in ms. Frame figures are per frame, in ns: the per-iteration figures "
        "divided by 1,000, so a frame p99 is the p99 of 1,000-frame averages, not of single frames. "
        "Mallocs (per build or per frame) are medians."
    ),
    targets=targets,
)
