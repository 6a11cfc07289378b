import ParallaxImages

/// What reading a photo's header taught: its shape, format and orientation,
/// and its capture date. Recorded for the stamp it was read from, and
/// forgotten when the file changes.
package struct PhotoMetadata: Sendable, Hashable {
    /// The header, or `nil` when the file has none that could be read (a
    /// damaged photo, a format without a header reader yet), which is worth
    /// remembering too: the file is not read again until it changes.
    package var header: ImageHeader?
    /// When it was taken, or `nil` when not even the file's time was
    /// recorded.
    package var captureDate: CaptureDate?

    /// Metadata as read.
    package init(header: ImageHeader?, captureDate: CaptureDate?) {
        self.header = header
        self.captureDate = captureDate
    }
}
