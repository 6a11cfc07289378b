// `library-listing MODE DIR`: lists a photo library the way the gallery
// does, in a fresh process, for scripts/bench-library-listing.sh to time
// against `find DIR -type f` on the same tree.
//
//   ids          FolderImageSource.imageIDs(): the whole tree, in tree order
//   scan         FolderImageSource.scan(readingFileStatus: false): IDs and inodes
//   scan-status  FolderImageSource.scan(): with each photo's size and modification time
//
// Prints one line: the photos, videos and other files found, the folders
// read, and when the first batch arrived (scan modes; from the start of
// main), e.g. `photos 100000 videos 612 other 950 folders 731 first-batch-ms 1.9`.
import Foundation
import ParallaxImages

let arguments = CommandLine.arguments
guard arguments.count == 3, ["ids", "scan", "scan-status"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: library-listing ids|scan|scan-status DIR\n".utf8))
    exit(2)
}
let start = DispatchTime.now().uptimeNanoseconds
let source = FolderImageSource(directory: URL(fileURLWithPath: arguments[2]))
if arguments[1] == "ids" {
    do {
        let ids = try await source.imageIDs()
        print("photos \(ids.count)")
    } catch {
        FileHandle.standardError.write(Data("library-listing: \(error)\n".utf8))
        exit(1)
    }
} else {
    var photos = 0
    var firstBatch: UInt64?
    for await event in source.scan(readingFileStatus: arguments[1] == "scan-status") {
        switch event {
        case .photos(let batch):
            if firstBatch == nil { firstBatch = DispatchTime.now().uptimeNanoseconds - start }
            photos += batch.count
        case .finished(let report):
            let first = firstBatch.map { String(format: "%.1f", Double($0) / 1e6) } ?? "-"
            print("photos \(photos) videos \(report.videoCount) other \(report.otherFileCount) folders \(report.folderCount) problems \(report.problemCount) first-batch-ms \(first)")
        case .failed(let error):
            FileHandle.standardError.write(Data("library-listing: \(error)\n".utf8))
            exit(1)
        }
    }
}
