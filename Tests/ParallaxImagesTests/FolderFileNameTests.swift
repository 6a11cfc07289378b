import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// File names are bytes: one that is not UTF-8 is listed, opened and shown.
@Suite("Folder file names that are not UTF-8")
struct FolderFileNameTests {
    /// Creates the file whose name is exactly `name` (any bytes) in `directory`.
    func create(_ name: [UInt8], in directory: URL, contents: Data) throws {
        let path = (Array(directory.path.utf8) + [UInt8(ascii: "/")] + name + [0]).map { CChar(bitPattern: $0) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        #expect(written == contents.count)
    }

    @Test func aLatinOneNameIsListedOpenedAndShownAndNeverConfusedWithAnother() async throws {
        let directory = temporaryDirectory()
        let png = TestImages.png(width: 6, height: 4, rgba: [UInt8](repeating: 200, count: 6 * 4 * 4))
        let other = TestImages.png(width: 3, height: 3, rgba: [UInt8](repeating: 90, count: 3 * 3 * 4))
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)          // café.png, as Latin-1
        try create(latin1, in: directory, contents: png)
        try create(Array("café.png".utf8), in: directory, contents: other)               // the same name in UTF-8
        try create([0xFF, 0xFE] + Array(".jpg".utf8), in: directory, contents: Data("not a photo".utf8))
        let source = FolderImageSource(directory: directory)
        let ids = try await source.imageIDs()
        // Tree order compares the names' bytes: "café" in UTF-8 (C3 A9) before its Latin-1 spelling (E9).
        #expect(ids == ["café.png", "caf%E9.png", "%FF%FE.jpg"])
        let id = ImageID("caf%E9.png")
        #expect(try await source.data(for: id) == png)
        #expect(try await source.data(for: "café.png") == other)
        #expect(try await source.header(for: id).width == 6)
        #expect(await source.fingerprint(for: id) != nil)
        #expect(FolderImageSource.displayName(of: id) == "caf\u{FFFD}.png")
        #expect(FolderImageSource.displayName(of: "café.png") == "café.png")
        // The undecodable one fails like any file that is not a photo, saying so.
        await #expect(throws: ImageSourceError.self) { try await source.data(for: "%FF%FE.jpg") }
    }

    @Test func escapesRoundTripExactlyAndOnlyTheirOwnSpellingOpensAFile() {
        var rng = SplitMix64(seed: 0xFF)
        for _ in 0..<5000 {
            let name = (0..<Int.random(in: 1...24, using: &rng)).map { _ -> UInt8 in
                Bool.random(using: &rng) ? UInt8.random(in: 0x80...0xFF, using: &rng) : UInt8.random(in: 0x30...0x7A, using: &rng)
            }
            let id = FolderImageSource.imageID(forFileName: name)
            #expect(FolderImageSource.fileName(of: id) == name, "\(name) → \(id)")
            #expect(String(bytes: name, encoding: .utf8).map { $0 == id.rawValue } ?? id.rawValue.contains("%"))
        }
        // Paths that climb or are absolute, empty components, the folder itself, its parent, an escape of valid
        // UTF-8 or in lower case, a cut escape, an escaped separator or NUL: none is a file here.
        for id: ImageID in ["", ".", "..", "../x.jpg", "a/../../x", "/etc/passwd", "a//b", "a/", "a/./b.jpg", "%2E%2E",
                            "%41.jpg", "%ff.jpg", "%E", "%C3%A9.jpg", "a%2Fb.jpg", "a%00.jpg", "a\u{0}.jpg"] {
            #expect(FolderImageSource.fileName(of: id) == nil, "\(id)")
        }
        #expect(FolderImageSource.fileName(of: "%FF.jpg") == [0xFF] + Array(".jpg".utf8))
        #expect(FolderImageSource.fileName(of: "2024/trip/caf%E9.jpg") == Array("2024/trip/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        // A '%' of the name itself is written %25, so no name is ever read as an escape.
        #expect(FolderImageSource.imageID(forFileName: Array("100%E9.jpg".utf8)) == "100%25E9.jpg")
        #expect(FolderImageSource.fileName(of: "100%25E9.jpg") == Array("100%E9.jpg".utf8))
        #expect(FolderImageSource.displayName(of: "2024/caf%E9.jpg") == "caf\u{FFFD}.jpg")
        #expect(FolderImageSource.displayName(of: "2024/06 trip/IMG_1.jpg") == "IMG_1.jpg")
    }

    @Test func treeOrderKeepsAFoldersPhotosTogetherAndComparesTheNamesBytes() {
        let ordered: [ImageID] = ["100%25.jpg", "100.jpg", "2023/x.jpg", "2024/06/a.jpg", "2024/06 trip/a.jpg", "2024/06-trip/a.jpg",
                                  "2024/a.jpg", "a/c.jpg", "a b/c.jpg", "a.jpg", "café.jpg", "caf%E9.jpg", "%FF.jpg"]
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20 {
            #expect(ordered.shuffled(using: &rng).sorted(by: FolderImageID.precedes) == ordered)
        }
    }
}
