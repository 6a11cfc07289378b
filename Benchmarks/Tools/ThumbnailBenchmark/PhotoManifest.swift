#if os(Linux)
import Foundation

/// The encodings the benchmark reports on, as `scripts/fetch-photos.sh`
/// names them in the `format` column of MANIFEST.tsv.
enum PhotoFormat: String, Sendable, CaseIterable {
    case baselineJPEG = "jpeg-baseline"
    case progressiveJPEG = "jpeg-progressive"
    case png

    /// How the report names the format.
    var title: String {
        switch self {
        case .baselineJPEG: return "baseline JPEG"
        case .progressiveJPEG: return "progressive JPEG"
        case .png: return "PNG"
        }
    }
}

/// One photo of the set: a MANIFEST.tsv row.
struct Photo: Sendable {
    /// The file name inside the photo folder.
    var file: String
    /// The absolute (or folder-relative, as given) path of the file.
    var path: String
    var width: Int
    var height: Int
    var megapixels: Double
    var format: PhotoFormat
    var bytes: Int
}

/// The groups of photos every figure is reported for.
enum PhotoClass: String, Sendable, CaseIterable {
    /// Every photo: baseline and progressive JPEG and PNG.
    case all
    case baselineJPEG
    case progressiveJPEG

    var title: String {
        switch self {
        case .all: return "all"
        case .baselineJPEG: return "baseline JPEG"
        case .progressiveJPEG: return "progressive JPEG"
        }
    }

    func contains(_ photo: Photo) -> Bool {
        switch self {
        case .all: return true
        case .baselineJPEG: return photo.format == .baselineJPEG
        case .progressiveJPEG: return photo.format == .progressiveJPEG
        }
    }
}

/// Reads the photo set that `scripts/fetch-photos.sh` leaves in a folder:
/// MANIFEST.tsv, a header row and then `file, width, height, megapixels,
/// format, bytes`, tab separated.
struct PhotoManifest: Sendable {
    /// The photos in manifest order, only the formats the benchmark reads.
    var photos: [Photo]
    /// Rows left out, with the reason (unknown format, missing file, bad row).
    var skipped: [String]

    static let fileName = "MANIFEST.tsv"

    /// The manifest of `directory`.
    /// - Throws: ``BenchmarkError/setup(_:)`` when there is no readable
    ///   manifest, or when it lists no usable photo.
    static func load(directory: String) throws(BenchmarkError) -> PhotoManifest {
        let manifestPath = (directory as NSString).appendingPathComponent(fileName)
        guard let text = try? String(contentsOfFile: manifestPath, encoding: .utf8) else {
            throw .setup("no photo manifest at \(manifestPath): run scripts/fetch-photos.sh first "
                         + "(it fetches the photo set into .cache/photos)")
        }
        var photos: [Photo] = []
        var skipped: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() where index > 0 {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6, let width = Int(fields[1]), let height = Int(fields[2]),
                  let megapixels = Double(fields[3]), let bytes = Int(fields[5]) else {
                skipped.append("line \(index + 1): not a manifest row")
                continue
            }
            guard let format = PhotoFormat(rawValue: fields[4]) else {
                skipped.append("\(fields[0]): format \(fields[4]) is not benchmarked")
                continue
            }
            let path = (directory as NSString).appendingPathComponent(fields[0])
            guard FileManager.default.isReadableFile(atPath: path) else {
                skipped.append("\(fields[0]): listed but missing")
                continue
            }
            photos.append(Photo(file: fields[0], path: path, width: width, height: height,
                                megapixels: megapixels, format: format, bytes: bytes))
        }
        guard !photos.isEmpty else {
            throw .setup("\(manifestPath) lists no readable JPEG or PNG photo: run scripts/fetch-photos.sh --force")
        }
        return PhotoManifest(photos: photos, skipped: skipped)
    }

    /// The photos of one class, in manifest order.
    func photos(in photoClass: PhotoClass) -> [Photo] {
        photos.filter(photoClass.contains)
    }
}
#endif
