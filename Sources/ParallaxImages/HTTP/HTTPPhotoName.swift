import Foundation

/// The one rule for turning a photo's name from a listing or a manifest
/// into a URL: a name is a relative path under the source's base URL (a
/// file name, or folders and a file name joined by `/`, as
/// `parallax-gallery manifest` writes a nested library), or it is refused.
///
/// Names come from the server, so they are treated as hostile: `../x.jpg`,
/// `a/../../x.jpg`, `..%2Fsecret.jpg`, `%2e%2e`, `/etc/x.jpg`,
/// `http://elsewhere/x.jpg` or a name with a NUL would otherwise make the
/// gallery ask for a file outside the folder the user named (nginx, for
/// one, decodes `%2F` in a request path and serves `/photos/..%2Fsecret.jpg`
/// from outside `/photos/`). Only a literal `/` separates the parts; each
/// part must be a single file name as written and after decoding (an
/// encoded `%2F` inside a part is refused). Checking the name once, before
/// any request, and then encoding every byte of each part that is not
/// plainly safe keeps every URL the source forms under its base.
enum HTTPPhotoName {
    /// The most parts a name may have (folders and the file).
    static let maximumParts = 64

    /// Why `name` cannot be a photo's name, or `nil` when it can: it must be
    /// non-empty, at most 1,024 bytes, and at most ``maximumParts`` parts
    /// joined by `/`, none of them empty; each part free of control
    /// characters and — both as written and after percent-decoding, however
    /// many times — not `.` or `..` and without `/`, `\` or NUL.
    ///
    /// A name spelled with ``FolderImageSource``'s escapes for bytes that
    /// are not UTF-8 (`caf%E9.jpg`, as `parallax-gallery manifest` writes a
    /// Latin-1 file name; `%25` for `%`) is one file name: it is checked,
    /// and requested, as the bytes it stands for. Any other `%` is the
    /// name's own character.
    ///
    /// Without `allowingFolders` (a folder listing or a text list, which
    /// name the files of one folder), a name with a `/` is refused too.
    static func refusal(of name: String, allowingFolders: Bool = true) -> String? {
        guard !name.isEmpty else { return "an empty name" }
        guard name.utf8.count <= 1_024 else { return "a name over 1,024 bytes" }
        if !allowingFolders, name.utf8.contains(UInt8(ascii: "/")) {
            return "a path, not a single file name (only a JSON manifest names photos in folders)"
        }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= maximumParts else { return "a path of more than \(maximumParts) parts" }
        guard !parts.contains(where: \.isEmpty) else { return "a path with an empty part (a leading, doubled or trailing /)" }
        for part in parts {
            if let reason = refusal(ofPart: String(part)) { return reason }
        }
        return nil
    }

    /// Why `part` (between two `/`) cannot be a file or folder name, or `nil`.
    private static func refusal(ofPart name: String) -> String? {
        var form = name
        if let bytes = folderEscaped(name) {
            form = String(decoding: bytes, as: UTF8.self)                  // the escaped bytes as U+FFFD
        }
        // A server that decodes twice must not find a separator either: decode until nothing changes.
        for _ in 0..<4 {
            if let reason = refusalOfDecoded(form) { return reason }
            guard form.utf8.contains(UInt8(ascii: "%")), let decoded = form.removingPercentEncoding, decoded != form else { return nil }
            form = decoded
        }
        return "a name that stays percent-encoded after four decodings"
    }

    /// The bytes of the one file name `name` spells with folder escapes,
    /// or `nil` when it holds none (or is not such a spelling).
    private static func folderEscaped(_ name: String) -> [UInt8]? {
        guard name.utf8.contains(UInt8(ascii: "%")) else { return nil }
        return FolderImageID.name(spelled: ArraySlice(name.utf8))
    }

    private static func refusalOfDecoded(_ form: String) -> String? {
        if form == "." || form == ".." { return "not a file name (\"\(form)\")" }
        for scalar in form.unicodeScalars {
            switch scalar {
            case "/", "\\": return "a part that is a path itself (an encoded / or a \\)"
            case "\u{0}": return "a name with a NUL byte"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { return "a name with a control character" }
            }
        }
        return nil
    }

    /// The URL of `name` under `base`: `base` (as a folder) plus the name's
    /// bytes as one segment, every byte but RFC 3986's unreserved ones
    /// percent-encoded (`%` too), checked to be on the base's origin and
    /// under its path; `nil` for a refused name or a URL that would leave
    /// the base.
    static func url(for name: String, under base: URL) -> URL? {
        guard let encoded = encodedPath(of: name),
              let url = url(base, appendingEncodedPath: encoded) else { return nil }
        return isUnder(url, base: base) ? url : nil
    }

    /// The URL of the folder `path` (names joined by `/`, as for
    /// ``url(for:under:)``) under `base`, with the trailing `/` a folder's
    /// listing is served at; `nil` as for ``url(for:under:)``.
    static func folderURL(for path: String, under base: URL) -> URL? {
        guard let encoded = encodedPath(of: path),
              let url = url(base, appendingEncodedPath: encoded + "/") else { return nil }
        return isUnder(url, base: base) ? url : nil
    }

    /// `name`'s parts, each encoded as one segment, joined by `/`; `nil`
    /// for a refused name.
    private static func encodedPath(of name: String) -> String? {
        guard refusal(of: name) == nil else { return nil }
        return name.split(separator: "/").map { part -> String in
            let part = String(part)
            return segment(folderEscaped(part) ?? Array(part.utf8))
        }.joined(separator: "/")
    }

    /// `bytes` as a path segment: unreserved characters as they are, every
    /// other byte as `%HH`.
    static func segment(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                encoded.append(byte)
            default:
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `base` with an already percent-encoded relative path added to its
    /// path, keeping any query; the base path is treated as a folder.
    static func url(_ base: URL, appendingEncodedPath encodedPath: String) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
        var path = components.percentEncodedPath
        if !path.hasSuffix("/") { path += "/" }
        components.percentEncodedPath = path + encodedPath
        components.fragment = nil
        return components.url
    }

    /// Whether `url` has `base`'s scheme, host and port and a path inside
    /// `base`'s folder with no `.` or `..` segment.
    static func isUnder(_ url: URL, base: URL) -> Bool {
        guard let target = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let folder = URLComponents(url: base, resolvingAgainstBaseURL: true),
              target.scheme?.lowercased() == folder.scheme?.lowercased(),
              target.host?.lowercased() == folder.host?.lowercased(), target.port == folder.port else { return false }
        var basePath = folder.percentEncodedPath
        if !basePath.hasSuffix("/") { basePath += "/" }
        let path = target.percentEncodedPath
        guard path.hasPrefix(basePath) else { return false }
        let segments = path.dropFirst(basePath.count).split(separator: "/", omittingEmptySubsequences: false)
        return !segments.contains { segment in
            let decoded = String(segment).removingPercentEncoding ?? String(segment)
            return decoded == "." || decoded == ".."
        }
    }
}
