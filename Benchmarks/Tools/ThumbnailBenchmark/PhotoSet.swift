import Foundation

/// One photo of the set: a MANIFEST.tsv row.
struct Photo {
    /// The encodings measured, as MANIFEST.tsv's `format` column names them:
    /// the photo set's own, and the WebP, HEIF and AVIF copies
    /// scripts/make-format-photos.sh makes of some of its JPEGs.
    enum Format: String, CaseIterable {
        case baselineJPEG = "jpeg-baseline", progressiveJPEG = "jpeg-progressive", png, webp, heif, avif

        var title: String {
            switch self {
            case .baselineJPEG: return "baseline JPEG"
            case .progressiveJPEG: return "progressive JPEG"
            case .png: return "PNG"
            case .webp: return "WebP"
            case .heif: return "HEIF"
            case .avif: return "AVIF"
            }
        }

        /// Whether the photo set itself is in this format (the "all" class), not a copy made from it.
        var isOriginal: Bool { self == .baselineJPEG || self == .progressiveJPEG || self == .png }
    }

    var file, path: String
    var width, height: Int
    var megapixels: Double
    var format: Format
    var bytes: Int
}

/// The groups every figure is reported for: all photos of the set, each
/// kind of JPEG (so PNGs are in "all" only), and the WebP, HEIF and AVIF
/// copies (in their own rows only: "all" stays the photo set as fetched).
enum PhotoClass: CaseIterable {
    case all, baselineJPEG, progressiveJPEG, webp, heif, avif

    /// The format of the class's photos; `nil` for all.
    var format: Photo.Format? {
        switch self {
        case .all: return nil
        case .baselineJPEG: return .baselineJPEG
        case .progressiveJPEG: return .progressiveJPEG
        case .webp: return .webp
        case .heif: return .heif
        case .avif: return .avif
        }
    }
    var title: String { format?.title ?? "all" }
    func contains(_ photo: Photo) -> Bool { format.map { $0 == photo.format } ?? photo.format.isOriginal }
}

/// The photo set scripts/fetch-photos.sh leaves in a folder: MANIFEST.tsv, a
/// header row, then `file, width, height, megapixels, format, bytes`, tab separated.
struct PhotoSet {
    /// The photos in manifest order, only the formats measured.
    var photos: [Photo] = []
    /// Rows left out, with the reason.
    var skipped: [String] = []

    /// The photos of every folder in `directories`, in order (the photo set,
    /// then its format copies).
    static func load(directories: [String]) throws(Failure) -> PhotoSet {
        var set = PhotoSet()
        for directory in directories {
            let part = try load(directory: directory)
            set.photos += part.photos
            set.skipped += part.skipped
        }
        return set
    }

    static func load(directory: String) throws(Failure) -> PhotoSet {
        let manifest = (directory as NSString).appendingPathComponent("MANIFEST.tsv")
        guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else {
            throw Failure("no photo manifest at \(manifest): run scripts/fetch-photos.sh first (it fetches the photos into .cache/photos)")
        }
        var set = PhotoSet()
        for (index, line) in text.split(separator: "\n").enumerated() where index > 0 {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6, let width = Int(fields[1]), let height = Int(fields[2]),
                  let megapixels = Double(fields[3]), let bytes = Int(fields[5]) else {
                set.skipped.append("line \(index + 1): not a manifest row")
                continue
            }
            let path = (directory as NSString).appendingPathComponent(fields[0])
            guard let format = Photo.Format(rawValue: fields[4]) else {
                set.skipped.append("\(fields[0]): format \(fields[4]) is not benchmarked")
                continue
            }
            guard FileManager.default.isReadableFile(atPath: path) else {
                set.skipped.append("\(fields[0]): listed but missing")
                continue
            }
            set.photos.append(Photo(file: fields[0], path: path, width: width, height: height,
                                    megapixels: megapixels, format: format, bytes: bytes))
        }
        guard !set.photos.isEmpty else { throw Failure("\(manifest) lists no readable photo: run scripts/fetch-photos.sh --force") }
        set.skipped.forEach { progress("skipping \($0)") }
        return set
    }
}
