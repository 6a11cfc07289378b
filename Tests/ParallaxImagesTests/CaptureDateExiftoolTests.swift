import Foundation
import Testing
@testable import ParallaxImages

/// ``CaptureDateReader`` against exiftool on the real photos
/// (`scripts/fetch-photos.sh`), when both are there: every date the reader
/// finds is the one exiftool reads from the same tag, every JPEG that
/// exiftool finds a `DateTimeOriginal` in has it found, and every header
/// has the size exiftool reads.
@Suite("Capture dates against exiftool")
struct CaptureDateExiftoolTests {
    static let tags = ["-DateTimeOriginal", "-OffsetTimeOriginal", "-SubSecTimeOriginal", "-CreateDate", "-OffsetTimeDigitized",
                       "-SubSecTimeDigitized", "-ModifyDate", "-OffsetTime", "-SubSecTime", "-XMP-exif:DateTimeOriginal",
                       "-XMP-photoshop:DateCreated", "-XMP-xmp:CreateDate", "-PNG:ModifyDate", "-Composite:ImageSize"]

    /// exiftool's raw (`-n`) values by file name and `Group:Tag`, or `nil` without exiftool.
    static func exiftool(_ folder: URL) -> [String: [String: String]]? {
        guard let tool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool", "/opt/homebrew/bin/exiftool"].first(where: FileManager.default.isExecutableFile) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-j", "-n", "-G1", "-a", "-q", "-ext", "jpg", "-ext", "png", "-ext", "webp", "-ext", "heic", "-ext", "avif"] + tags + [folder.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let list = try? JSONSerialization.jsonObject(with: output) as? [[String: Any]] else { return nil }
        var result: [String: [String: String]] = [:]
        for entry in list {
            guard let path = entry["SourceFile"] as? String else { continue }
            result[URL(fileURLWithPath: path).lastPathComponent] = entry.compactMapValues { "\($0)" }
        }
        return result
    }

    /// The date exiftool reads from the tag `source` names.
    static func reference(_ tags: [String: String], source: CaptureDate.Source) -> [CaptureDate] {
        func exif(_ date: String, _ offset: String, _ subseconds: String) -> CaptureDate? {
            tags[date].flatMap { CaptureDate(exifText: $0, offset: tags[offset], subseconds: tags[subseconds], source: source) }
        }
        switch source {
        case .exifOriginal: return [exif("ExifIFD:DateTimeOriginal", "ExifIFD:OffsetTimeOriginal", "ExifIFD:SubSecTimeOriginal")].compactMap { $0 }
        case .exifDigitized: return [exif("ExifIFD:CreateDate", "ExifIFD:OffsetTimeDigitized", "ExifIFD:SubSecTimeDigitized")].compactMap { $0 }
        case .exifModified: return [exif("IFD0:ModifyDate", "ExifIFD:OffsetTime", "ExifIFD:SubSecTime")].compactMap { $0 }
        case .xmpOriginal:
            return ["XMP-exif:DateTimeOriginal", "XMP-photoshop:DateCreated"].compactMap { tags[$0].flatMap { CaptureDate(iso8601: $0, source: source) } }
        case .xmpCreated: return [tags["XMP-xmp:CreateDate"].flatMap { CaptureDate(iso8601: $0, source: source) }].compactMap { $0 }
        case .pngModified: return [tags["PNG:ModifyDate"].flatMap { CaptureDate(exifText: $0, offset: "Z", subseconds: nil, source: source) }].compactMap { $0 }
        case .fileModified: return []
        }
    }

    @Test func everyDateAndSizeFoundIsExiftools() throws {
        let folder = TestData.folder(environment: "PARALLAX_PHOTOS", named: "photos")
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path), let reference = Self.exiftool(folder) else {
            return                                                // no photos or no exiftool here: nothing to compare
        }
        var compared = 0
        for file in files.sorted() {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            guard let format = ImageFormat(sniffing: data), let tags = reference[file] else { continue }
            let (found, _) = CaptureDateReaderTests.readInPieces(data, format: format)
            if let found {
                #expect(Self.reference(tags, source: found.source).contains(found), "\(file): \(found) vs \(tags)")
            }
            if format == .jpeg, !Self.reference(tags, source: .exifOriginal).isEmpty {
                #expect(found?.source == .exifOriginal, "\(file)")
            }
            if let size = tags["Composite:ImageSize"] {
                let header = try ImageHeader.read(from: data)
                #expect(header.map { "\($0.storedWidth) \($0.storedHeight)" } == size, "\(file)")
            }
            compared += 1
        }
        #expect(compared >= 40, "\(compared) photos compared")
    }
}
