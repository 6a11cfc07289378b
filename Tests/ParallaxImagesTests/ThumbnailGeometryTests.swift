import Foundation
import Testing
@testable import ParallaxImages

@Suite("Thumbnail geometry")
struct ThumbnailGeometryTests {
    @Test func fillCropsTheCentreAndPicksTheDCTScale() throws {
        let fill = ThumbnailGeometry(width: 4000, height: 3000, orientation: .up, size: try ThumbnailSize(width: 400, height: 400))
        #expect(fill.crop == (500, 0, 3000, 3000))
        #expect(fill.storedOutput == (400, 400))
        #expect(fill.jpegScaleDenominator == 4)            // 3000 / 8 = 375 < 400
        let fit = ThumbnailGeometry(width: 4000, height: 3000, orientation: .up, size: try ThumbnailSize(width: 400, height: 400, mode: .fit))
        #expect(fit.crop == (0, 0, 4000, 3000))
        #expect(fit.storedOutput == (400, 300))
        #expect(fit.jpegScaleDenominator == 8)
        // RolfHendriks' UICollectionView-Demo's rule for a wide target: full width, height · imageAR / targetAR.
        let wide = ThumbnailGeometry(width: 1000, height: 1000, orientation: .up, size: try ThumbnailSize(width: 200, height: 100))
        #expect(wide.crop == (0, 250, 1000, 500))
        // A rotated photo swaps the box before cropping.
        let turned = ThumbnailGeometry(width: 4000, height: 3000, orientation: .right, size: try ThumbnailSize(width: 300, height: 400))
        #expect(turned.storedOutput == (400, 300))
        #expect(turned.crop == (0, 0, 4000, 3000))
    }

    @Test func invalidSizesThrow() {
        #expect(throws: ThumbnailSizeError(width: 0, height: 10)) { try ThumbnailSize(width: 0, height: 10) }
        #expect(throws: ThumbnailSizeError(width: 10, height: 100_000)) { try ThumbnailSize(width: 10, height: 100_000) }
        #expect(throws: ThumbnailSizeError(width: -15, height: 30)) {
            try ThumbnailSize(points: CGSize(width: -5, height: 10), scale: 3)
        }
        #expect(throws: ThumbnailSizeError.self) { try ThumbnailSize(points: CGSize(width: CGFloat.infinity, height: 10)) }
        // NaN is kept as asked and named in the message (NaN never equals itself, so compare the text).
        do {
            _ = try ThumbnailSize(points: CGSize(width: CGFloat.nan, height: 10))
            Issue.record("a NaN width made a thumbnail size")
        } catch {
            #expect(error.width.isNaN)
            #expect(error.description == "nan × 10 pixels is not a usable thumbnail size (each side must be 1 to 16384 pixels)")
        }
        #expect((try? ThumbnailSize(points: CGSize(width: 183, height: 183), scale: 3))?.width == 549)
    }
}
