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

    /// What titles were made with before: Foundation's path and string
    /// functions, the naive oracle for random names.
    static func foundationTitle(of id: ImageID) -> String {
        let path = FolderImageSource.displayName(of: id)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let base = name.split(separator: "__").last.map(String.init) ?? name
        return String((base as NSString).deletingPathExtension.replacingOccurrences(of: "_", with: " ").prefix(40))
    }

    @Test func titlesAgreeWithFoundationsPathFunctionsOverRandomNames() {
        var random = SeededGenerator(seed: 19)
        let pieces = ["IMG", "_", ".", "..", "jpg", "__", "é", "日本", "a b", "0042", "-", ".HEIC", "x"]
        for _ in 0..<3_000 {
            let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            let id = ImageID(parts.joined(separator: "/"))
            #expect(PhotoTitles.makeTitle(of: id) == Self.foundationTitle(of: id), "\(id.rawValue)")
        }
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
