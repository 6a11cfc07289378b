import Foundation
import Testing
@testable import ParallaxLibraryIndex

/// The index file's name: one per library, whatever the spelling of its path.
@Suite("Index file")
struct IndexFileTests {
    @Test func namesOneFilePerLibraryUnderAnySpellingOfItsPath() throws {
        let scratch = try ScratchFolder()
        let cache = scratch.url.appendingPathComponent("cache")
        let root = scratch.root
        let link = scratch.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: root)
        let named = LibraryIndex.fileURL(forLibraryAt: root, in: cache)
        #expect(named.deletingLastPathComponent().path == cache.path)
        #expect(named.lastPathComponent.wholeMatch(of: /library-[0-9a-f]{16}\.sqlite/) != nil)
        #expect(LibraryIndex.fileURL(forLibraryAt: link, in: cache) == named)
        #expect(LibraryIndex.fileURL(forLibraryAt: root.appendingPathComponent("../Pictures/."), in: cache) == named)
        #expect(LibraryIndex.fileURL(forLibraryAt: scratch.url, in: cache) != named)
        // Fixed by the path alone: FNV-1a of "/" is the same on every run and machine.
        #expect(LibraryIndex.fileURL(forLibraryAt: URL(fileURLWithPath: "/"), in: cache).lastPathComponent
            == "library-af63a24c860189fe.sqlite")
    }
}
