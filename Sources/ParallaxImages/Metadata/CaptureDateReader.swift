import Foundation

/// Reads when a photo was taken from its metadata, from as few of its
/// bytes as possible and never by decoding it.
///
/// Where each format keeps the date:
/// - JPEG: the Exif APP1 segment (EXIF `DateTimeOriginal` with
///   `OffsetTimeOriginal` and `SubSecTimeOriginal`, then `DateTimeDigitized`,
///   then IFD0's `DateTime`) and the XMP APP1 segment, all before the image data.
/// - HEIF and AVIF: the `Exif` item and the XMP `mime` item, which the
///   `meta` box locates; their data usually lies after the coded picture.
/// - PNG: the `eXIf` chunk, XMP in an `iTXt` chunk, ImageMagick's and
///   GIMP's raw EXIF and XMP profiles in `zTXt` chunks, then `tIME`. The
///   chunks before the image data are read first; when they hold nothing
///   better than `tIME` and the file's length is known, its last 32 KB
///   too (ImageMagick 6 writes `eXIf` after the image data, `tIME` before
///   it). The reader never walks a file's hundreds of `IDAT` chunks.
/// - WebP: the `EXIF` and `XMP ` chunks of an extended (VP8X) file, which
///   usually follow the image data.
///
/// Give it the file's first bytes (64 KB holds a JPEG's or a PNG's
/// metadata, and a HEIF's `meta` box); when ``read()`` answers
/// ``Reading/needsBytes(_:)``, read that range, ``add(_:at:)`` it and ask
/// again. A HEIF or WebP photo takes one or two such reads (its Exif data,
/// after the picture); a file that keeps asking is refused after
/// ``maximumReads`` pieces, so a caller's loop always ends.
///
/// The most trusted date found wins (``CaptureDate/Source``); a date the
/// metadata does not hold at all is ``Reading/notFound``, and the caller
/// falls back to the file's modification time.
public struct CaptureDateReader: Sendable {
    /// What the bytes read so far say.
    public enum Reading: Sendable, Hashable {
        /// The capture date.
        case found(CaptureDate)
        /// The metadata holds no usable date (or none at all, or is malformed).
        case notFound
        /// The date (or the way to it) lies in this range of the file, not
        /// yet read. It may run past the file's end: read what there is.
        case needsBytes(Range<Int>)
    }

    /// The most pieces read after the first bytes before the reader gives up.
    public static let maximumReads = 6

    private let format: ImageFormat
    private var excerpts: FileExcerpts

    /// The EXIF orientation (IFD0's tag 0x0112) in the Exif data the last
    /// ``read()`` went through, if any: for a WebP, whose `EXIF` chunk
    /// usually follows the image data, the orientation its header's first
    /// bytes could not give.
    public private(set) var exifOrientation: ImageOrientation?
    /// The camera and lens the Exif data the last ``read()`` went through
    /// names, if any: what a detail view's information panel shows.
    public private(set) var camera: CameraDescription?

    /// A reader of the photo in `format` whose file starts with `firstBytes`
    /// and is `fileLength` bytes long, when that is known: nothing past the
    /// end is asked for, and a PNG's last bytes can be, for the metadata
    /// some writers put after its image data.
    public init(format: ImageFormat, firstBytes: Data, fileLength: Int? = nil) {
        self.format = format
        self.excerpts = FileExcerpts(firstBytes: firstBytes, fileLength: fileLength.map { max($0, firstBytes.count) })
    }

    /// Adds `bytes`, read from the file at `offset`: the range ``read()``
    /// asked for, or as much of it as the file holds (fewer bytes than
    /// asked tell the reader where the file ends).
    public mutating func add(_ bytes: Data, at offset: Int) {
        excerpts.add(bytes, at: offset)
    }

    /// The date, or the range to read next.
    ///
    /// Complexity: O(bytes of metadata): headers are walked, and only the
    /// Exif and XMP data themselves are read in full.
    public mutating func read() -> Reading {
        guard excerpts.pieces.count <= Self.maximumReads + 1 else { return .notFound }
        let format = self.format
        let (reading, orientation, camera) = excerpts.withViews { views in
            var search = MetadataSearch(views: views)
            switch format {
            case .jpeg: search.jpeg()
            case .png: search.png()
            case .webp: search.webp()
            case .heif, .avif: search.heif()
            }
            return (search.result, search.orientation, search.camera)
        }
        exifOrientation = orientation
        self.camera = camera
        // Remembered to tell a short answer, which means the file ends there.
        if case .needsBytes(let range) = reading { excerpts.request = range }
        return reading
    }

    /// The date in a file's first bytes, or the range to read next: a
    /// reader of those bytes, asked once.
    public static func read(from firstBytes: Data, format: ImageFormat) -> Reading {
        var reader = CaptureDateReader(format: format, firstBytes: firstBytes)
        return reader.read()
    }

    /// The date in `bytes`, all of a file.
    public static func read(fromWholeFile bytes: Data, format: ImageFormat) -> CaptureDate? {
        var reader = CaptureDateReader(format: format, firstBytes: bytes, fileLength: bytes.count)
        guard case .found(let date) = reader.read() else { return nil }
        return date
    }
}
