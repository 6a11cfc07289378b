import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

@Suite("Photo titles")
@MainActor
struct PhotoTitlesTests {
    @Test func aTitleIsTheFileNameWithoutFoldersOrExtension() {
        #expect(PhotoTitles.makeTitle(of: ImageID("2024/06-trip/IMG_0001.jpg")) == "IMG 0001")
        #expect(PhotoTitles.makeTitle(of: ImageID("mountain_lake.heic")) == "mountain lake")
        // A repeated photo's ID ("3__name", RepeatingImageSource) shows the photo's own name.
        #expect(PhotoTitles.makeTitle(of: ImageID("3__sunset_over_water.png")) == "sunset over water")
        #expect(PhotoTitles.makeTitle(of: ImageID(String(repeating: "a", count: 60) + ".jpg")).count == 40)
    }

    @Test func theCacheAnswersAsWorkingItOutWould() {
        let titles = PhotoTitles()
        var random = SeededGenerator(seed: 5)
        // More photos than the cache keeps, asked in random order, so it starts again on the way.
        for _ in 0..<(PhotoTitles.limit * 2) {
            let id = ImageID("folder-\(Int.random(in: 0..<50, using: &random))/photo_\(Int.random(in: 0..<6000, using: &random)).jpg")
            #expect(titles.title(of: id) == PhotoTitles.makeTitle(of: id))
        }
    }
}
