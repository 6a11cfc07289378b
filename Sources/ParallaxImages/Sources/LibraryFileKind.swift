/// What a file in a photo library is, told by its name's extension alone
/// (case-insensitive): a photo the gallery shows, a video it does not, or
/// anything else (sidecars such as `.xmp`, `.aae`, `.thm`, documents).
///
/// Read from the name's bytes, without a `String` or `URL` for the name:
/// a walk over hundreds of thousands of files asks this once per file.
enum LibraryFileKind: Equatable {
    case photo
    case video
    case other

    /// Video extensions phones and cameras write (lower case).
    static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "avi", "mkv", "3gp", "webm", "mts", "m2ts", "mpg", "mpeg", "wmv"]

    /// Kinds by extension, remembered: a library has a handful of
    /// extensions and hundreds of thousands of files, so each extension is
    /// decided once per walk (``LibraryFileKind/init(fileName:)``), then
    /// found by its bytes packed into an integer.
    struct Classifier {
        private var known: [UInt64: LibraryFileKind] = [:]

        /// The kind of the file named `name`, as ``LibraryFileKind/init(fileName:)`` says.
        ///
        /// Complexity: O(length of the extension), no allocation once the extension is known.
        mutating func kind(ofFileNamed name: ArraySlice<UInt8>) -> LibraryFileKind {
            guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex,
                  name.endIndex - dot - 1 <= 8, dot + 1 < name.endIndex else { return LibraryFileKind(fileName: name) }
            var key: UInt64 = 0
            for byte in name[(dot + 1)...] {
                key = key << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            }
            if let kind = known[key] { return kind }
            let kind = LibraryFileKind(fileName: name)
            known[key] = kind
            return kind
        }
    }

    /// The kind of the file named `name` (bytes, any encoding):
    /// ``ImageFormat/init(fileExtension:)`` decides what is a photo.
    ///
    /// Complexity: O(length of the extension); no allocation (an extension
    /// of up to 15 bytes is a small string).
    init<Name: BidirectionalCollection<UInt8>>(fileName name: Name) {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else {
            self = .other
            return
        }
        let extensionBytes = name[name.index(after: dot)...]
        guard !extensionBytes.isEmpty, extensionBytes.count <= 8,
              extensionBytes.allSatisfy({ $0 < 0x80 }) else {
            self = .other
            return
        }
        let text = String(decoding: extensionBytes.lazy.map { $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }, as: UTF8.self)
        if ImageFormat(fileExtension: text) != nil {
            self = .photo
        } else if Self.videoExtensions.contains(text) {
            self = .video
        } else {
            self = .other
        }
    }
}
