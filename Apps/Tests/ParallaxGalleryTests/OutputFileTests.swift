import Foundation
import Testing
@testable import ParallaxGallery

@Suite("Output files")
struct OutputFileTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The folder's file names, temporary ones included.
    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : 0
    }

    @Test func aNewFileAndAReplacedOneAreWrittenWholeAndKeepTheirPermissions() throws {
        let path = folder.appendingPathComponent("frame.png").path
        try OutputFile.write(Data("first".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        #expect(mode(path) & S_IFMT == S_IFREG && mode(path) & 0o077 != 0o077 && mode(path) & 0o600 == 0o600)
        chmod(path, 0o640)
        try OutputFile.write(Data("second".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(mode(path) & 0o7777 == 0o640)
        #expect(try names() == ["frame.png"])                  // no temporary file left
    }

    /// A disk that fills part-way through: the error says so, the previous
    /// file is untouched and the partial temporary file is gone.
    @Test func aWriteThatFailsPartWayLeavesThePreviousFileAndNothingElse() throws {
        let path = folder.appendingPathComponent("report.md").path
        try OutputFile.write(Data("previous".utf8), to: path)
        var calls = 0
        let fullDisk: (Int32, UnsafeRawBufferPointer) -> Int = { descriptor, bytes in
            calls += 1
            if calls == 1 { return Foundation.write(descriptor, bytes.baseAddress, min(bytes.count, 3)) }
            errno = ENOSPC
            return -1
        }
        #expect(throws: OutputFileError(path, String(cString: strerror(ENOSPC)))) {
            try OutputFile.write(Data("a much longer replacement".utf8), to: path, using: fullDisk)
        }
        #expect(calls == 2)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous")
        #expect(try names() == ["report.md"])
        // Nothing there before: nothing there after.
        let fresh = folder.appendingPathComponent("fresh.md").path
        calls = 0
        #expect(throws: OutputFileError.self) { try OutputFile.write(Data("abcdef".utf8), to: fresh, using: fullDisk) }
        #expect(try names() == ["report.md"])
    }

    @Test func aLinkIsFollowedAndKeptAndALinkToNothingIsRefused() throws {
        let target = folder.appendingPathComponent("target.png").path
        let link = folder.appendingPathComponent("link.png").path
        try OutputFile.write(Data("old".utf8), to: target)
        symlink(target, link)
        try OutputFile.write(Data("new".utf8), to: link)
        #expect(mode(link) & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        let dangling = folder.appendingPathComponent("dangling.png").path
        symlink(folder.appendingPathComponent("nowhere.png").path, dangling)
        #expect(throws: OutputFileError(dangling, "it is a symbolic link to a file that does not exist; not followed")) {
            try OutputFile.write(Data("x".utf8), to: dangling)
        }
        #expect(try names() == ["dangling.png", "link.png", "target.png"])
        #expect(OutputFile.refusal(for: dangling) == "it is a symbolic link to a file that does not exist; not followed")
        #expect(OutputFile.refusal(for: link) == nil && OutputFile.refusal(for: "/dev/full") == nil)
        #expect(OutputFile.refusal(for: folder.path) == "it is a folder, not a file")
    }

    @Test func aDeviceIsWrittenIntoNeverReplacedAndAFullOneIsAClearError() throws {
        try OutputFile.write(Data("nothing".utf8), to: "/dev/null")
        #expect(mode("/dev/null") & S_IFMT == S_IFCHR)
        #expect(throws: OutputFileError("/dev/full", String(cString: strerror(ENOSPC)))) {
            try OutputFile.write(Data(count: 100_000), to: "/dev/full")
        }
        #expect(mode("/dev/full") & S_IFMT == S_IFCHR)
        #expect(throws: OutputFileError(folder.path, "it is a folder, not a file")) {
            try OutputFile.write(Data("x".utf8), to: folder.path)
        }
    }

    /// A named pipe is written into (another program reads it), never
    /// replaced by a file.
    @Test func aNamedPipeIsWrittenIntoAndStaysAPipe() throws {
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let payload = Data((0..<200_000).map { UInt8($0 % 251) })
        // The reader is a thread of its own: opening a pipe waits for the other end.
        let received = Locked(Data()), done = DispatchSemaphore(value: 0)
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) {
                let data = handle.readDataToEndOfFile()
                received.withLock { $0 = data }
                try? handle.close()
            }
            done.signal()
        }
        reader.start()
        try OutputFile.write(payload, to: fifo)
        done.wait()
        #expect(received.withLock { $0 } == payload)
        #expect(mode(fifo) & S_IFMT == S_IFIFO)
        #expect(try names() == ["pipe"])
    }
}

/// A value behind a lock, for the pipe's reader thread.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
