#if canImport(CSDL2)
import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

@Suite("Scrolling quality")
struct ScrollingQualityTests {
    @Test func blankShareCountsOnlyFramesThatMoved() {
        var quality = ScrollingQuality()
        quality.record(visible: 40, blank: 10, isMoving: true, frameTime: 0.010, interval: 1.0 / 60)
        quality.record(visible: 40, blank: 40, isMoving: false, frameTime: 0.010, interval: 1.0 / 60)   // at rest: not counted
        quality.record(visible: 40, blank: 2, isMoving: true, frameTime: 0.010, interval: 1.0 / 60)
        #expect(quality.movingTileFrames == 80 && quality.blankTileFrames == 12)
        #expect(quality.blankShare == 12.0 / 80)
        #expect(ScrollingQuality().blankShare == 0 && ScrollingQuality().hitchRatio == 0)
    }

    /// The HUD's loader line says what the checks of a server's kept
    /// thumbnails are doing, and nothing for a folder, which has none.
    @Test func theHUDNamesKeptThumbnailChecksOnlyWhenThereAreSome() {
        var statistics = ImageLoader.Statistics()
        #expect(GalleryWindow.checksText(statistics) == "")
        statistics.keptThumbnailChecksInFlight = 12
        #expect(GalleryWindow.checksText(statistics) == " · kept thumbnails: 12 being checked, 0 replaced")
        statistics.keptThumbnailChecksInFlight = 0
        statistics.keptThumbnailsReplaced = 1
        #expect(GalleryWindow.checksText(statistics) == " · kept thumbnails: 0 being checked, 1 replaced")
    }

    @Test func previewsAreCountedApartFromBlankAndNeverMoreThanTheRest() {
        var quality = ScrollingQuality()
        quality.record(visible: 40, blank: 10, preview: 20, isMoving: true, frameTime: 0.010, interval: 1.0 / 60)
        quality.record(visible: 40, blank: 30, preview: 30, isMoving: true, frameTime: 0.010, interval: 1.0 / 60)  // 10 left
        quality.record(visible: 40, blank: 0, preview: 40, isMoving: false, frameTime: 0.010, interval: 1.0 / 60)  // at rest
        #expect(quality.blankTileFrames == 40 && quality.previewTileFrames == 30 && quality.movingTileFrames == 80)
        #expect(quality.previewShare == 30.0 / 80 && quality.unsharpShare == 70.0 / 80)
        #expect((quality + quality).previewTileFrames == 60)
    }

    @Test func hitchRatioIsMillisecondsPastTheBudgetPerSecond() {
        var quality = ScrollingQuality()
        // 60 frames over one second; one took 50 ms (33.3 ms past the budget), one 20 ms (3.3 ms past).
        for frame in 0..<60 {
            let time = frame == 10 ? 0.050 : (frame == 20 ? 0.020 : 0.008)
            quality.record(visible: 10, blank: 0, isMoving: true, frameTime: time, interval: 1.0 / 60)
        }
        let expected = ((0.050 - 1.0 / 60) + (0.020 - 1.0 / 60)) * 1000 / 1.0
        #expect(abs(quality.hitchRatio - expected) < 1e-9)
        #expect(quality.hudLine == String(format: "blank tiles while moving 0.0 %% (previews 0.0 %%)  ·  hitch time %.1f ms/s (goal ≤ 5)", expected))
    }

    @Test func badNumbersAreIgnoredAndRecordsAdd() {
        var a = ScrollingQuality()
        a.record(visible: 10, blank: 30, isMoving: true, frameTime: .nan, interval: .infinity)
        a.record(visible: -4, blank: -1, isMoving: true, frameTime: -1, interval: -1)
        #expect(a.blankTileFrames == 10 && a.movingTileFrames == 10 && a.hitchSeconds == 0 && a.seconds == 0)
        var b = ScrollingQuality()
        b.record(visible: 30, blank: 0, isMoving: true, frameTime: 0.1, interval: 0.5)
        let sum = a + b
        #expect(sum.frames == 3 && sum.movingTileFrames == 40 && sum.blankTileFrames == 10)
        #expect(sum.blankShare == 0.25 && abs(sum.hitchRatio - (0.1 - 1.0 / 60) * 1000 / 0.5) < 1e-9)
    }
}
#endif
