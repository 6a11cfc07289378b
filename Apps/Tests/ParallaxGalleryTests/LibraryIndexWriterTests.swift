import Foundation
import ParallaxImages
import ParallaxLibraryIndex
import Testing
@testable import ParallaxGallery

@Suite("Library index writer")
struct LibraryIndexWriterTests {
    /// Reads and previews are filed under the stamp of the file each came
    /// from, and written by a flush.
    @Test func readsAndPreviewsAreFiledUnderTheirFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("2024"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["a.png", "2024/b.png", "2024/c.png"]
        var pictures: [PixelImage] = []
        for (index, name) in names.enumerated() {
            let picture = try #require(PixelImage(width: 4 + index, height: 3, pixels: [UInt8](repeating: UInt8(40 * index), count: 4 * 3 * (4 + index))))
            pictures.append(picture)
            try #require(picture.pngData()).write(to: folder.appendingPathComponent(name))
        }
        let source = FolderImageSource(directory: folder)
        let index = try LibraryIndex(at: folder.appendingPathComponent("index.sqlite"), root: folder)
        let writer = LibraryIndexWriter(index: index, folder: source)
        let ids = names.map { ImageID($0) }
        await writer.record(await source.readHeadersAndCaptureDates(of: ids).compactMap { try? $0.get() })
        let previews = zip(ids, pictures).map { (id: $0, hash: ThumbHash(encoding: $1)) }
        await writer.record(previews: previews)
        await writer.flushAndWait()
        let records = try await index.records()
        #expect(records.count == 3)
        for (id, picture) in zip(ids, pictures) {
            let record = try #require(records.first { $0.id == id })
            #expect(record.metadata?.header?.width == picture.width, "\(id)")
            let file = try #require(await source.files(of: [id])[0])
            #expect(record.stamp == ListedFile(listed: file)?.stamp, "\(id)")
            #expect(record.previewHash == previews.first { $0.id == id }?.hash.bytes, "\(id)")
        }
    }

    /// A walk's reconciliations, started one after another without
    /// waiting, are written in order, and a save waits for them: the
    /// listing reports itself finished before its index is written.
    @Test func reconciliationsAreWrittenInOrderAndASaveWaitsForThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = try LibraryIndex(at: folder.appendingPathComponent("index.sqlite"), root: folder)
        let writer = LibraryIndexWriter(index: index, folder: FolderImageSource(directory: folder))
        func file(_ n: Int) -> ListedFile {
            ListedFile(id: ImageID("\(n).jpg"), stamp: FileStamp(size: Int64(1_000 + n), modificationNanoseconds: Int64(n) * 1_000_000_000,
                                                                 inode: UInt64(n)))
        }
        // Walk k finds photo k-1 gone and photo k new: applied in order, only the last photo is left.
        for walk in 0..<60 {
            let indexed = walk == 0 ? [] : [LibraryRecord(id: file(walk - 1).id, stamp: file(walk - 1).stamp)]
            await writer.apply(Reconciliation(indexed: indexed, listed: [file(walk)]))
        }
        await writer.flushAndWait()
        #expect(try await index.records().map(\.id.rawValue) == ["59.jpg"])
    }
}
