import Foundation

/// What a person scrolling sees, frame by frame: how many tiles on screen
/// were still blank while the content moved, and how far frames ran past
/// their budget. The session benchmark and the window's HUD both count
/// with it, so a person sees the same numbers the benchmark reports.
///
/// - **Blank tile-frames while moving**: over every frame drawn while the
///   content moves, the visible tiles that showed nothing of their photo
///   (a placeholder), as a share of all visible tiles.
/// - **Preview tile-frames while moving**: those that showed only the
///   photo's preview (its ThumbHash, soft), not yet its thumbnail. The rest
///   were sharp.
/// - **Hitch time ratio**: milliseconds of frame time past the frame
///   budget, per second of session; Apple's measure of scrolling
///   smoothness (≤ 5 ms/s is its goal, > 10 noticeable).
package struct ScrollingQuality: Sendable {
    /// One frame's budget: 1/60 s.
    package static let frameBudget = 1.0 / 60

    /// Tiles on screen, summed over frames in which the content moved.
    package private(set) var movingTileFrames = 0
    /// Blank tiles on screen, summed over those frames.
    package private(set) var blankTileFrames = 0
    /// Tiles showing only a preview, summed over those frames.
    package private(set) var previewTileFrames = 0
    /// Seconds of frame time past the budget, summed.
    package private(set) var hitchSeconds = 0.0
    /// Seconds covered by the recorded frames.
    package private(set) var seconds = 0.0
    /// Frames recorded.
    package private(set) var frames = 0

    package init() {}

    /// Records a frame that showed `visible` tiles, `blank` of them with
    /// nothing of their photo and `preview` with only its preview, took
    /// `frameTime` seconds from when it was due until it was drawn, and
    /// stood for `interval` seconds of the session (the time until the next
    /// frame was due).
    package mutating func record(visible: Int, blank: Int, preview: Int = 0, isMoving: Bool, frameTime: Double,
                                 interval: Double) {
        frames += 1
        if isMoving {
            let visible = max(visible, 0), blank = min(max(blank, 0), visible)
            movingTileFrames += visible
            blankTileFrames += blank
            previewTileFrames += min(max(preview, 0), visible - blank)
        }
        if frameTime.isFinite { hitchSeconds += max(frameTime - Self.frameBudget, 0) }
        if interval.isFinite { seconds += max(interval, 0) }
    }

    /// Blank tile-frames while moving, 0…1 (0 when nothing moved).
    package var blankShare: Double {
        movingTileFrames > 0 ? Double(blankTileFrames) / Double(movingTileFrames) : 0
    }

    /// Preview-only tile-frames while moving, 0…1 (0 when nothing moved).
    package var previewShare: Double {
        movingTileFrames > 0 ? Double(previewTileFrames) / Double(movingTileFrames) : 0
    }

    /// Tile-frames while moving that were not sharp yet (blank or a
    /// preview), 0…1: what the loader's scheduling is judged by.
    package var unsharpShare: Double { blankShare + previewShare }

    /// Milliseconds past the frame budget per second of session.
    package var hitchRatio: Double {
        seconds > 0 ? hitchSeconds * 1000 / seconds : 0
    }

    /// The HUD's line: blank and preview shares and hitch time ratio.
    package var hudLine: String {
        String(format: "blank tiles while moving %.1f %% (previews %.1f %%)  ·  hitch time %.1f ms/s (goal ≤ 5)",
               blankShare * 100, previewShare * 100, hitchRatio)
    }

    /// The sum of two records (sessions, or the parts of one).
    package static func + (lhs: ScrollingQuality, rhs: ScrollingQuality) -> ScrollingQuality {
        var sum = lhs
        sum.movingTileFrames += rhs.movingTileFrames
        sum.blankTileFrames += rhs.blankTileFrames
        sum.previewTileFrames += rhs.previewTileFrames
        sum.hitchSeconds += rhs.hitchSeconds
        sum.seconds += rhs.seconds
        sum.frames += rhs.frames
        return sum
    }
}

extension GalleryModel {
    /// Visible tiles that do not show their thumbnail yet: blank or a
    /// preview (failures count as shown, since they say what happened).
    /// The screen is full when none is left.
    package var unsharpCellCount: Int { tileCounts.unsharp }

    /// Visible tiles that show only their photo's preview.
    package var previewCellCount: Int { tileCounts.preview }

    /// Visible tiles that show nothing of their photo: a placeholder, no preview.
    package var blankCellCount: Int { tileCounts.blank }

    /// The visible tiles showing nothing of their photo and those showing
    /// only its preview, in one pass over the cells (a frame's recording
    /// wants both).
    package var tileCounts: (blank: Int, preview: Int, unsharp: Int) {
        var blank = 0, preview = 0
        for cell in cells where cell.image == nil && cell.failure == nil {
            if case .preview = cell.placeholder { preview += 1 } else { blank += 1 }
        }
        return (blank, preview, blank + preview)
    }

    /// Visible tiles that show a picture made for another size than the
    /// one they have now (after a pinch or a switch, the old picture
    /// stretched until the new one arrives).
    package var staleCellCount: Int {
        var stale = 0
        for cell in cells where cell.image != nil && cell.imageKey != cell.wantedKey { stale += 1 }
        return stale
    }
}
