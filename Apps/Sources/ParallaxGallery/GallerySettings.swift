#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// The gallery's four layouts, which switch into each other with an
/// animation that keeps the photo at the top in place.
///
/// Grid and list are RolfHendriks' UICollectionView-Demo's; the quilt is
/// RFQuiltLayout's block quilt as its demo uses it (each photo's block shape
/// from its aspect ratio); the waterfall keeps every photo's true aspect
/// ratio. Quilt and waterfall need each photo's shape before its pixels
/// (``PhotoShapes``).
package enum GalleryLayout: String, Sendable, Hashable, CaseIterable {
    case grid, list, quilt, waterfall

    /// The other of grid and list (G): the list from the grid, the grid
    /// from everything else.
    package var toggled: GalleryLayout { self == .grid ? .list : .grid }

    /// The next layout in the order of ``allCases`` (Tab).
    package var next: GalleryLayout {
        let all = GalleryLayout.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The column counts a pinch reaches in this layout: the grid's one-column
    /// end is the list; a quilt of one column would only be a list of
    /// squares, so it stops at two.
    package var pinchColumns: ClosedRange<Int> {
        self == .quilt ? 2...8 : 1...8
    }

    /// Whether the layout needs each photo's shape (its header) to place it.
    package var usesPhotoShapes: Bool { self == .quilt || self == .waterfall }
}

/// The effects the gallery shows, switched with a key.
package enum GalleryEffect: String, Sendable, Hashable, CaseIterable {
    /// Depth parallax with RolfHendriks' UICollectionView-Demo's values: grid 10 pt, list 10 % of the cell.
    case depth
    /// A fixed background (the “Handmade Code: Parallax Table View” post).
    case window
    case off

    /// The parallax effect for `layout`.
    package func parallax(for layout: GalleryLayout) -> ParallaxEffect {
        switch self {
        case .depth: return layout == .list ? .listDefault : .gridDefault
        case .window: return .window
        case .off: return .none
        }
    }

    package var next: GalleryEffect {
        let all = GalleryEffect.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// How slow and unreliable the simulated server is.
package enum LatencyPreset: String, Sendable, Hashable, CaseIterable {
    /// No delay.
    case none
    /// RolfHendriks' UICollectionView-Demo's 0–2 s.
    case seed
    /// 1–5 s, for watching placeholders.
    case slow

    package var range: ClosedRange<Duration> {
        switch self {
        case .none: return .zero ... .zero
        case .seed: return .zero ... .seconds(2)
        case .slow: return .seconds(1) ... .seconds(5)
        }
    }

    package var next: LatencyPreset {
        let all = LatencyPreset.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// Everything the gallery starts from.
package struct GallerySettings: Sendable, Hashable {
    package var layout: GalleryLayout = .grid
    /// The column count once a pinch has chosen one; `nil`: as many as fit
    /// (RolfHendriks' UICollectionView-Demo's flexible columns).
    package var columns: Int?
    package var effect: GalleryEffect = .depth
    package var intensity: CGFloat = 1
    package var reduceMotion = false
    package var latency: LatencyPreset = .seed
    package var failureRate: Double = 0
    package var seed: UInt64 = 2015
    package var snapping = true
    /// The order photos are shown in: newest first, as photo apps do.
    package var sort: PhotoSort = .newestFirst
    /// The sections photos are grouped into, each under a header.
    package var grouping: PhotoGrouping = .month
    /// Pixels per point (1 on a desktop).
    package var scale: CGFloat = 1

    package init() {}
}
