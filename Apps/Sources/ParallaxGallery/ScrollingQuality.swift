import Foundation

/// What a person scrolling sees, frame by frame: how many tiles on screen
/// were still blank while the content moved, and how far frames ran past
/// their budget. The session benchmark and the window's HUD both count
/// with it, so a person sees the same numbers the benchmark reports.
///
/// - **Blank tile-frames while moving**: over every frame drawn while the
///   content moves, the visible tiles that showed no photo (a placeholder),
///   as a share of all visible tiles.
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
    /// Seconds of frame time past the budget, summed.
    package private(set) var hitchSeconds = 0.0
    /// Seconds covered by the recorded frames.
    package private(set) var seconds = 0.0
    /// Frames recorded.
    package private(set) var frames = 0

    package init() {}

    /// Records a frame that showed `visible` tiles, `blank` of them with no
    /// photo, took `frameTime` seconds from when it was due until it was
    /// drawn, and stood for `interval` seconds of the session (the time
    /// until the next frame was due).
    package mutating func record(visible: Int, blank: Int, isMoving: Bool, frameTime: Double, interval: Double) {
        frames += 1
        if isMoving {
            movingTileFrames += max(visible, 0)
            blankTileFrames += min(max(blank, 0), max(visible, 0))
        }
        if frameTime.isFinite { hitchSeconds += max(frameTime - Self.frameBudget, 0) }
        if interval.isFinite { seconds += max(interval, 0) }
    }

    /// Blank tile-frames while moving, 0…1 (0 when nothing moved).
    package var blankShare: Double {
        movingTileFrames > 0 ? Double(blankTileFrames) / Double(movingTileFrames) : 0
    }

    /// Milliseconds past the frame budget per second of session.
    package var hitchRatio: Double {
        seconds > 0 ? hitchSeconds * 1000 / seconds : 0
    }

    /// The HUD's line: blank share and hitch time ratio.
    package var hudLine: String {
        String(format: "blank tiles while moving %.1f %%  ·  hitch time %.1f ms/s (goal ≤ 5)", blankShare * 100, hitchRatio)
    }

    /// The sum of two records (sessions, or the parts of one).
    package static func + (lhs: ScrollingQuality, rhs: ScrollingQuality) -> ScrollingQuality {
        var sum = lhs
        sum.movingTileFrames += rhs.movingTileFrames
        sum.blankTileFrames += rhs.blankTileFrames
        sum.hitchSeconds += rhs.hitchSeconds
        sum.seconds += rhs.seconds
        sum.frames += rhs.frames
        return sum
    }
}

extension GalleryModel {
    /// Visible tiles that show no photo yet (a placeholder; failures count
    /// as shown, since they say what happened).
    package var blankCellCount: Int {
        var blank = 0
        for cell in cells where cell.image == nil && cell.failure == nil { blank += 1 }
        return blank
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
