// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxCore
import ParallaxLayout
import Testing
@testable import ParallaxGallery

/// The quilt's block shapes and the waterfall's aspect ratios come from
/// each photo's header, with stable placeholder shapes until it is read;
/// the gallery's layouts keep the grid's 8-pt gaps at every column count.
@Suite("Photo shapes and the gallery's layouts")
struct PhotoShapesTests {
    @Test func blockShapesFollowTheAspectRatio() {
        var shapes = PhotoShapes(count: 20)
        // Unknown: one block (and 4 : 3 in the waterfall), except the featured ones.
        #expect(shapes.quiltSpan(of: 0, columns: 6) == .one)
        #expect(shapes.aspectRatio(of: 0) == PhotoShapes.placeholderAspectRatio)
        #expect(abs(PhotoShapes.placeholderAspectRatio - 4.0 / 3.0) < 1e-12)
        #expect(shapes.quiltSpan(of: 4, columns: 6) == QuiltSpan(width: 2, height: 2))
        #expect(shapes.quiltSpan(of: 13, columns: 6) == QuiltSpan(width: 2, height: 2))
        shapes.record(width: 1500, height: 1000, at: 0)       // 3 : 2, the threshold is 1.45
        shapes.record(width: 1450, height: 1000, at: 1)
        shapes.record(width: 1440, height: 1000, at: 2)
        shapes.record(width: 1000, height: 1450, at: 3)
        shapes.record(width: 1000, height: 1440, at: 5)
        shapes.record(width: 4000, height: 1000, at: 6)
        shapes.record(width: 1000, height: 1000, at: 4)       // featured whatever its shape
        #expect(shapes.quiltSpan(of: 0, columns: 6) == QuiltSpan(width: 2, height: 1))
        #expect(shapes.quiltSpan(of: 1, columns: 6) == QuiltSpan(width: 2, height: 1))
        #expect(shapes.quiltSpan(of: 2, columns: 6) == .one)
        #expect(shapes.quiltSpan(of: 3, columns: 6) == QuiltSpan(width: 1, height: 2))
        #expect(shapes.quiltSpan(of: 5, columns: 6) == .one)
        #expect(shapes.quiltSpan(of: 4, columns: 6) == QuiltSpan(width: 2, height: 2))
        // Never wider than the quilt.
        #expect(shapes.quiltSpan(of: 6, columns: 1) == QuiltSpan(width: 1, height: 1))
        #expect(shapes.quiltSpan(of: 4, columns: 1) == QuiltSpan(width: 1, height: 2))
        #expect(shapes.aspectRatio(of: 6) == 4)
        #expect(shapes.waterfallSize(of: 3) == CGSize(width: 1000.0 / 1450.0, height: 1))
        #expect(shapes.knownCount == 7)
    }

    @Test func badSizesAndPositionsChangeNothing() {
        var shapes = PhotoShapes(count: 3)
        do { let changed = shapes.record(width: 0, height: 100, at: 0); #expect(!changed) }
        do { let changed = shapes.record(width: 100, height: -1, at: 0); #expect(!changed) }
        do { let changed = shapes.record(width: 100, height: 100, at: 3); #expect(!changed) }
        do { let changed = shapes.record(width: 100, height: 100, at: -1); #expect(!changed) }
        #expect(shapes.knownCount == 0 && shapes.size(of: 7) == nil && shapes.size(of: -2) == nil)
        do { let changed = shapes.record(width: 100, height: 50, at: 1); #expect(changed) }
        do { let changed = shapes.record(width: 100, height: 50, at: 1); #expect(!changed, "the same size again is no change") }
        do { let changed = shapes.record(width: 50, height: 100, at: 1); #expect(changed) }
        #expect(shapes.knownCount == 1)
        #expect(PhotoShapes(count: -5).count == 0)
    }

    /// Photos 8 pt apart and 8 pt from the window's sides, at every column
    /// count the quilt can pinch to and at many window widths.
    @Test func theQuiltHasTheColumnsAskedForWithTheGridsGaps() throws {
        var rng = SeededGenerator(seed: 15)
        for _ in 0..<300 {
            let width = CGFloat.random(in: 200...2400, using: &rng).rounded()
            let columns = Int.random(in: GalleryLayout.quilt.pinchColumns, using: &rng)
            let size = CGSize(width: width, height: 800)
            let layout = try GalleryLayouts.layout(.quilt, columns: columns, count: 40, size: size,
                                                   shapes: PhotoShapes(count: 40))
            #expect(GalleryLayouts.columnCount(of: layout) == columns)
            let frames = (0..<40).compactMap { layout.frame(of: ItemIndex(item: $0)) }
            #expect(frames.count == 40)
            let left = frames.map(\.minX).min()!, right = frames.map(\.maxX).max()!
            #expect(abs(left - 8) < 1e-6 && abs(width - right - 8) < 1e-6)
            #expect(abs(frames.map(\.minY).min()! - 8) < 1e-6)
            // Item 0 (one block) and item 1 beside it: one gap apart.
            #expect(abs(frames[1].minX - frames[0].maxX - 8) < 1e-6)
        }
    }

    /// A window of no usable width: the quilt refuses it with a layout
    /// error (its blocks would have no size); the others are built empty of
    /// room, never with a non-finite size. Nothing traps.
    @Test func aWindowWithNoRoomIsRefusedOrEmpty() {
        for width in [0, -50, CGFloat.nan, CGFloat.infinity] {
            let size = CGSize(width: width, height: 800)
            #expect(throws: LayoutError.self) {
                try GalleryLayouts.layout(.quilt, columns: 3, count: 10, size: size, shapes: PhotoShapes(count: 10))
            }
            for mode in [GalleryLayout.grid, .list, .waterfall] {
                if let layout = try? GalleryLayouts.layout(mode, columns: 3, count: 10, size: size, shapes: PhotoShapes(count: 10)) {
                    #expect(layout.contentSize.width.isFinite && layout.contentSize.height.isFinite)
                }
            }
        }
    }

    @Test func theWaterfallKeepsEachPhotosAspectRatio() throws {
        var shapes = PhotoShapes(count: 30)
        var rng = SeededGenerator(seed: 3)
        var ratios: [CGFloat] = []
        for item in 0..<30 {
            let w = Int.random(in: 100...4000, using: &rng), h = Int.random(in: 100...4000, using: &rng)
            if item % 5 != 0 { shapes.record(width: w, height: h, at: item) }
            ratios.append(item % 5 != 0 ? CGFloat(w) / CGFloat(h) : PhotoShapes.placeholderAspectRatio)
        }
        let layout = try GalleryLayouts.layout(.waterfall, columns: 3, count: 30, size: CGSize(width: 600, height: 800),
                                               shapes: shapes)
        #expect(GalleryLayouts.columnCount(of: layout) == 3)
        for item in 0..<30 {
            let frame = try #require(layout.frame(of: ItemIndex(item: item)))
            #expect(abs(frame.width / frame.height - ratios[item]) < 1e-6 * ratios[item])
        }
    }
}
#endif
