/// When a photo was taken, and where that came from.
///
/// Kept as seconds since 1970 rather than a `Date` so the index stores and
/// sorts it as the one `REAL` it is. A date without a UTC offset (EXIF
/// before 2.31 has none) is the camera's wall-clock time read as UTC:
/// right to the hour for ordering a library, which is what it is for.
package struct CaptureDate: Sendable, Hashable {
    /// Where a capture date was read, from the most to the least trusted.
    /// The raw values are what the index stores; never reuse one.
    package enum Source: UInt8, Sendable, Hashable, CaseIterable {
        /// EXIF `DateTimeOriginal` (with `OffsetTimeOriginal` when present).
        case exifOriginal = 1
        /// EXIF `DateTimeDigitized`, when the original is missing.
        case exifDigitized = 2
        /// XMP `photoshop:DateCreated` or `exif:DateTimeOriginal` (HEIF, PNG).
        case xmp = 3
        /// A PNG's `tIME` chunk (the last modification, by the PNG
        /// specification; the best such a file offers).
        case pngTime = 4
        /// The file's modification time: no date in the file.
        case fileTime = 5
    }

    /// Seconds since 1970-01-01 00:00 UTC.
    package var secondsSince1970: Double
    /// Where it was read.
    package var source: Source
    /// Whether the file gave a UTC offset with it (otherwise the local time
    /// of the camera was read as UTC).
    package var hasUTCOffset: Bool

    /// A capture date.
    package init(secondsSince1970: Double, source: Source, hasUTCOffset: Bool) {
        self.secondsSince1970 = secondsSince1970
        self.source = source
        self.hasUTCOffset = hasUTCOffset
    }
}
