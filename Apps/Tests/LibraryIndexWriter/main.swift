// Writes to a library index as a second gallery would, while the tests
// write to the same file from their own process:
//
//   library-index-writer INDEX ROOT PREFIX COUNT
//
// lists COUNT photos named PREFIX-<n>.jpg in batches of 100, records
// metadata for each batch, changes and deletes a few, and reads the whole
// index after each batch; prints "committed" once the first batch is in
// the file (a test waiting to kill it mid-write awaits that line) and the
// index's count at the end. Any error
// (a lock not granted, damage) goes to standard error with status 1.
import Foundation
import ParallaxImages
import ParallaxLibraryIndex

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: library-index-writer INDEX ROOT PREFIX COUNT\n".utf8))
    exit(2)
}
let prefix = arguments[3]
// A writer whose test process is gone (it crashed, or was killed) stops at the next batch instead of
// writing on alone: one once ran half an hour after its test crashed, taking a core from everything after.
let parent = getppid()

do {
    let index = try LibraryIndex(at: URL(fileURLWithPath: arguments[1]), root: URL(fileURLWithPath: arguments[2]))
    for start in stride(from: 0, to: count, by: 100) {
        if getppid() != parent { exit(3) }
        let files = (start..<min(start + 100, count)).map { n in
            ListedFile(id: ImageID("\(prefix)/\(n).jpg"),
                       stamp: FileStamp(size: Int64(n), modificationNanoseconds: Int64(n) * 1_000_000_000, inode: UInt64(n)))
        }
        try await index.upsert(files)
        let header = ImageHeader(format: .jpeg, storedWidth: 4000, storedHeight: 3000, orientation: .right)
        try await index.recordMetadata(files.map {
            (file: $0, metadata: PhotoMetadata(header: header, captureDate: CaptureDate(date: Date(timeIntervalSince1970: Double($0.stamp.size)), hasUTCOffset: true, source: .exifOriginal)))
        })
        // Change the first of the batch (its metadata is forgotten) and
        // delete and re-add the second.
        var changed = files[0]
        changed.stamp.size += 1
        try await index.upsert([changed])
        if files.count > 1 {
            try await index.delete([files[1].id])
            try await index.upsert([files[1]])
        }
        _ = try await index.records()
        if start == 0 {
            FileHandle.standardOutput.write(Data("committed\n".utf8))      // unbuffered: the test reads it now
        }
    }
    print(try await index.count())
} catch {
    FileHandle.standardError.write(Data("library-index-writer: \(error)\n".utf8))
    exit(1)
}
