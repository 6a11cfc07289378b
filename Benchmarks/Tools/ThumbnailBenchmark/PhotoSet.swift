import Foundation

/// One photo of the set: a MANIFEST.tsv row.
struct Photo {
    /// The encodings measured, as MANIFEST.tsv's `format` column names them.
    enum Format: String, CaseIterable {
        case baselineJPEG = "jpeg-baseline", progressiveJPEG = "jpeg-progressive", png

        var title: String { self == .png ? "PNG" : self == .baselineJPEG ? "baseline JPEG" : "progressive JPEG" }
    }

    var file, path: String
    var width, height: Int
    var megapixels: Double
    var format: Format
    var bytes: Int
}

/// The groups every figure is reported for: all photos, and each kind of
/// JPEG (so PNGs are in "all" only).
enum PhotoClass: CaseIterable {
    case all, baselineJPEG, progressiveJPEG

    /// The format of the class's photos; `nil` for all.
    var format: Photo.Format? { self == .all ? nil : self == .baselineJPEG ? .baselineJPEG : .progressiveJPEG }
    var title: String { format?.title ?? "all" }
    func contains(_ photo: Photo) -> Bool { format == nil || format == photo.format }
}

/// The photo set scripts/fetch-photos.sh leaves in a folder: MANIFEST.tsv, a
/// header row, then `file, width, height, megapixels, format, bytes`, tab separated.
struct PhotoSet {
    /// The photos in manifest order, only the formats measured.
    var photos: [Photo] = []
    /// Rows left out, with the reason.
    var skipped: [String] = []

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
        guard !set.photos.isEmpty else { throw Failure("\(manifest) lists no readable JPEG or PNG photo: run scripts/fetch-photos.sh --force") }
        set.skipped.forEach { progress("skipping \($0)") }
        return set
    }
}
