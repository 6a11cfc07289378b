import Foundation

/// The photo names in what a server returns for the index: a JSON manifest
/// (``ImageManifest``, which also reads nginx's `autoindex_format json`),
/// nginx's `autoindex_format xml`, an HTML folder listing (nginx's and
/// Apache's `autoindex`, `python3 -m http.server`), or a text file of one
/// name per line.
///
/// Every parser here is one pass over the bytes (O(n) time and memory):
/// a listing with 100,000 links or 20 MB of `&amp;` costs what its size
/// costs and no more. What none of them recognises is one clear error,
/// never one tile per line of a page that is not a list.
struct HTTPIndex: Sendable {
    /// The names, in the index's order, each once, each a relative path under the base
    /// (``HTTPPhotoName``).
    var names: [ImageID] = []
    /// The sizes a manifest states, by name.
    var headers: [ImageID: ImageHeader] = [:]
    /// The previews a manifest gives (`thumbhash`), by name.
    var previews: [ImageID: ThumbHash] = [:]
    /// Names the index gave that are not a relative path under the base, with why.
    var refused: [HTTPImageSource.RefusedName] = []
    /// The sub-folders a folder listing links to, in its order, each once:
    /// single names, decoded, hidden ones (`.thumbnails`) left out. What
    /// ``HTTPImageSource`` reads next to list a nested library.
    var folders: [String] = []
    /// What the listing found beside the photos (videos and other files a
    /// folder listing names; folders read and what could not be, once
    /// ``HTTPImageSource`` has read the folders under it).
    var report = FolderScan.Report()

    /// Why the bytes are not an index, as a phrase following "the index at <url>".
    struct Failure: Error { var reason: String }

    /// The index in `body`; `isJSONPath`: the index's path ends in `.json`,
    /// so it must be a manifest (elsewhere a text list whose first name
    /// starts with `[` is still a list).
    static func parse(_ body: Data, isJSONPath: Bool) throws(Failure) -> HTTPIndex {
        let content = body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body[...]
        let first = content.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            do throws(ImageManifest.ParseError) {
                var index = HTTPIndex()
                index.allowsFolders = true                          // a manifest may name a nested library's photos
                // About 50 bytes an entry: room made once, not by doubling a million-entry table.
                let estimate = min(body.count / 48, 4_000_000)
                index.names.reserveCapacity(estimate)
                index.headers.reserveCapacity(estimate)
                try ImageManifest.forEachEntry(inJSON: body, skipped: { name, isFolder in
                    if isFolder { index.acceptFolder(name) } else { index.countSkippedFile(name) }
                }) { entry in
                    let taken = entry.header.map { index.accept(entry.id.rawValue, header: $0) }
                        ?? index.accept(entry.id.rawValue)
                    if taken, let preview = entry.previewHash { index.previews[entry.id] = preview }
                }
                index.seen = []
                index.seenFolders = []
                return index
            } catch {
                if isJSONPath || first == UInt8(ascii: "{") { throw Failure(reason: "cannot be read: \(error)") }
            }
        }
        let bytes = Array(content)
        var index: HTTPIndex
        if first == UInt8(ascii: "<") {
            let opening = String(decoding: bytes.prefix(512), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if opening.hasPrefix("<?xml") || opening.hasPrefix("<list") {
                guard opening.contains("<list") else {
                    throw Failure(reason: "is an XML document but not a folder listing (nginx's autoindex_format xml has a <list> of <file> elements)")
                }
                index = try xmlListing(bytes)
            } else {
                index = try htmlListing(bytes)
            }
        } else {
            index = try textList(bytes)
        }
        index.seen = []
        index.seenFolders = []
        return index
    }

    /// How many names were refused (``refused`` keeps the first 1,000).
    var refusedCount = 0
    /// Identifies the listing's entries (its photos' and folders' names):
    /// a folder listed with the very entries of a folder it is in is a
    /// link back to it, as a server that follows symbolic links shows one.
    var entriesHash: Int {
        var hasher = Hasher()
        for name in names { hasher.combine(name) }
        hasher.combine(names.count)
        for folder in folders { hasher.combine(folder) }
        return hasher.finalize()
    }
    /// Whether names may be paths into folders (a manifest); a folder
    /// listing or a text list names the files of one folder.
    private var allowsFolders = false
    /// The names taken that have no header (those with one are in
    /// ``headers``): together, every name taken, for skipping repeats.
    private var seen: Set<String> = []
    /// The folders taken, for skipping repeats in O(1) each (a hostile
    /// listing may link a million).
    private var seenFolders: Set<String> = []

    /// Takes `name` if it is a relative path under the base not seen before; records
    /// why not otherwise. Whether it was taken.
    @discardableResult
    private mutating func accept(_ name: String) -> Bool {
        guard isSafe(name), headers.isEmpty || headers[ImageID(name)] == nil, seen.insert(name).inserted else { return false }
        names.append(ImageID(name))
        return true
    }

    /// Takes `name` with the size a manifest states, as ``accept(_:)``
    /// does; the first listing of a name wins. One hash for a new name.
    private mutating func accept(_ name: String, header: ImageHeader) -> Bool {
        guard isSafe(name), seen.isEmpty || !seen.contains(name) else { return false }
        let id = ImageID(name)
        if let first = headers.updateValue(header, forKey: id) {
            headers[id] = first                                     // a repeat: the first stays
            return false
        }
        names.append(id)
        return true
    }

    /// Takes `name` as a sub-folder to read if it is a single name, not
    /// hidden and not taken before.
    private mutating func acceptFolder(_ name: String) {
        guard !name.hasPrefix("."), HTTPPhotoName.refusal(of: name, allowingFolders: false) == nil,
              seenFolders.insert(name).inserted else { return }
        folders.append(name)
    }

    /// Counts a file a folder listing names that is not a photo: a video or another file.
    private mutating func countSkippedFile(_ name: String) {
        guard !name.hasPrefix(".") else { return }
        switch LibraryFileKind(fileName: name.utf8) {
        case .video: report.videoCount += 1
        case .other: report.otherFileCount += 1
        case .photo: break
        }
    }

    /// Adds the photos, refusals and counts of `listing`, the listing of
    /// the folder at `path` (a relative path of safe names), as names under
    /// that folder (a joined name over a name's limits is refused). O(`listing`'s names).
    mutating func take(_ listing: HTTPIndex, inFolder path: String) {
        allowsFolders = true
        names.reserveCapacity(names.count + listing.names.count)
        for name in listing.names {
            let joined = path + "/" + name.rawValue
            guard isSafe(joined) else { continue }          // past the limits of a name's length or parts
            let id = ImageID(joined)
            names.append(id)
            if let header = listing.headers[name] { headers[id] = header }
            if let preview = listing.previews[name] { previews[id] = preview }
        }
        for refusal in listing.refused where refused.count < 1_000 {
            refused.append(.init(name: path + "/" + refusal.name, reason: refusal.reason))
        }
        refusedCount += listing.refusedCount
        report.videoCount += listing.report.videoCount
        report.otherFileCount += listing.report.otherFileCount
    }

    /// Whether `name` is a relative path under the base; records why not otherwise.
    private mutating func isSafe(_ name: String) -> Bool {
        guard let reason = HTTPPhotoName.refusal(of: name, allowingFolders: allowsFolders) else { return true }
        if refused.count < 1_000 { refused.append(.init(name: name, reason: reason)) }
        refusedCount += 1
        return false
    }

    // MARK: Text

    /// One name per line, trimmed; blank lines skipped. A list where most
    /// lines are not file names is not a list.
    static func textList(_ bytes: [UInt8]) throws(Failure) -> HTTPIndex {
        var index = HTTPIndex(), lines = 0
        var start = 0
        func take(_ line: ArraySlice<UInt8>, into index: inout HTTPIndex, lines: inout Int) {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return }
            lines += 1
            index.accept(text)
        }
        for position in bytes.indices where bytes[position] == 0x0A || bytes[position] == 0x0D {
            take(bytes[start..<position], into: &index, lines: &lines)
            start = position + 1
        }
        take(bytes[start...], into: &index, lines: &lines)
        if lines > 0, index.refusedCount * 2 > lines {
            throw Failure(reason: "is not a list of photo names: \(index.refusedCount) of its \(lines) lines are not file names (the first: \(index.refused.first.map { "\"\($0.name.prefix(60))\", \($0.reason)" } ?? "?"))")
        }
        return index
    }

    // MARK: HTML

    /// The `href`s of an HTML folder listing that name a photo in the folder
    /// itself: relative (optionally `./`), no scheme, sub-folder, query or
    /// fragment, a photo's extension (``FolderImageSource/extensions``);
    /// character references and percent-escapes decoded once each. A link
    /// of one name and a `/` is a sub-folder (``folders``); other files are
    /// counted.
    static func htmlListing(_ bytes: [UInt8]) throws(Failure) -> HTTPIndex {
        var index = HTTPIndex(), links = 0
        var position = 0
        let count = bytes.count
        while position + 4 < count {
            // "href", in any case.
            guard bytes[position] | 0x20 == UInt8(ascii: "h"), bytes[position + 1] | 0x20 == UInt8(ascii: "r"),
                  bytes[position + 2] | 0x20 == UInt8(ascii: "e"), bytes[position + 3] | 0x20 == UInt8(ascii: "f") else {
                position += 1
                continue
            }
            position += 4
            while position < count, isSpace(bytes[position]) { position += 1 }
            guard position < count, bytes[position] == UInt8(ascii: "=") else { continue }
            position += 1
            while position < count, isSpace(bytes[position]) { position += 1 }
            guard position < count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else { continue }
            let quote = bytes[position]
            position += 1
            let start = position
            while position < count, bytes[position] != quote { position += 1 }
            guard position < count else { break }
            links += 1
            var link = decodingCharacterReferences(bytes[start..<position])
            position += 1
            if link.hasPrefix("./") { link.removeFirst(2) }
            func isPlain(_ text: Substring) -> Bool {
                !text.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "?") }
                    && !text.hasPrefix("#")
            }
            // A sub-folder: one name and a slash (never "../", an absolute path or another site's).
            if link.hasSuffix("/") {
                let folder = link.dropLast()
                if !folder.isEmpty, isPlain(folder), let name = String(folder).removingPercentEncoding {
                    index.acceptFolder(name)
                }
                continue
            }
            let plain = isPlain(link[...])
            if plain, let name = link.removingPercentEncoding, !name.isEmpty, !FileNameExtension.isPhoto(name) {
                index.countSkippedFile(name)
                continue
            }
            guard plain, let name = link.removingPercentEncoding, !name.isEmpty, FileNameExtension.isPhoto(name) else {
                // A link that climbs or leaves the folder is refused by name, so the user hears of it.
                let decoded = link.removingPercentEncoding ?? link
                if FileNameExtension.isPhoto(decoded),
                   !link.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "?") }) {
                    index.accept(decoded)
                }
                continue
            }
            index.accept(name)
        }
        if index.names.isEmpty, index.refusedCount == 0, index.folders.isEmpty, !isFolderListing(bytes) {
            throw Failure(reason: links == 0
                ? "is an HTML page with no links, not a folder listing (a login or error page?)"
                : "is an HTML page whose \(links) links name no photo (JPEG, PNG, HEIC, AVIF or WebP) and no folder, not a folder listing (a login or error page?)")
        }
        return index
    }

    /// Whether an HTML page calls itself a folder listing ("Index of /…",
    /// "Directory listing for /…"), so that an empty folder is an empty
    /// list, not an error.
    private static func isFolderListing(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(2_048), as: UTF8.self).lowercased()
        return head.contains("index of /") || head.contains("directory listing for")
    }

    // MARK: XML (nginx `autoindex_format xml`)

    /// The `<file>` elements of nginx's XML listing with a photo extension,
    /// and its `<directory>` elements as sub-folders; other files are
    /// counted.
    static func xmlListing(_ bytes: [UInt8]) throws(Failure) -> HTTPIndex {
        var index = HTTPIndex()
        let tags = [(open: Array("<file".utf8), close: Array("</file>".utf8), isFolder: false),
                    (open: Array("<directory".utf8), close: Array("</directory>".utf8), isFolder: true)]
        var position = 0
        let count = bytes.count
        while position < count {
            guard bytes[position] == UInt8(ascii: "<"), let tag = tags.first(where: { tag in
                position + tag.open.count < count && bytes[position..<position + tag.open.count].elementsEqual(tag.open)
                    && (bytes[position + tag.open.count] == UInt8(ascii: ">") || isSpace(bytes[position + tag.open.count]))
            }) else {
                position += 1
                continue
            }
            position += tag.open.count
            while position < count, bytes[position] != UInt8(ascii: ">") { position += 1 }
            position += 1
            let start = position
            while position < count, bytes[position] != UInt8(ascii: "<") { position += 1 }
            guard position + tag.close.count <= count, bytes[position..<position + tag.close.count].elementsEqual(tag.close) else {
                let element = String(decoding: tag.open.dropFirst(), as: UTF8.self)
                throw Failure(reason: "is a malformed XML listing (a <\(element)> element without its </\(element)>)")
            }
            let name = decodingCharacterReferences(bytes[start..<position])
            position += tag.close.count
            if tag.isFolder {
                index.acceptFolder(name)
            } else if FileNameExtension.isPhoto(name) {
                index.accept(name)
            } else {
                index.countSkippedFile(name)
            }
        }
        return index
    }

    // MARK: Shared

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// `text` with HTML's and XML's character references decoded: the five
    /// named ones listings use (`&amp;` and the like) and numeric ones
    /// (`&#39;`, `&#x27;`); anything else is kept as written. One pass.
    static func decodingCharacterReferences<Bytes: Collection<UInt8>>(_ text: Bytes) -> String
    where Bytes.Index == Int {
        guard text.contains(UInt8(ascii: "&")) else { return String(decoding: text, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var position = text.startIndex
        let end = text.endIndex
        while position < end {
            let byte = text[position]
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                position += 1
                continue
            }
            // A reference is at most 10 bytes before its ';'.
            var semicolon = position + 1
            while semicolon < end, semicolon - position <= 11, text[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
            guard semicolon < end, text[semicolon] == UInt8(ascii: ";"),
                  let decoded = reference(String(decoding: text[(position + 1)..<semicolon], as: UTF8.self)) else {
                result.append(byte)
                position += 1
                continue
            }
            result.append(contentsOf: Array(decoded.utf8))
            position = semicolon + 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func reference(_ entity: String) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let scalar: UInt32?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                scalar = UInt32(entity.dropFirst(2), radix: 16)
            } else if entity.hasPrefix("#") {
                scalar = UInt32(entity.dropFirst())
            } else {
                scalar = nil
            }
            return scalar.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
