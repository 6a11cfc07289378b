import Foundation

/// Reads an ``ImageManifest`` straight from its JSON bytes in one pass.
///
/// A manifest can list a million photos (50 MB), and a general JSON
/// decoder builds a tree of every value first (`JSONDecoder`, boxed per
/// element: 24 s and 700 MB for a million entries); this reader visits each
/// byte once, keeps only the entries, and skips everything else without
/// building it. Nesting is skipped with a counter, not recursion, so a
/// hostile `[[[[…` cannot overflow the stack.
///
/// Complexity: O(bytes) time; memory: the entries.
struct ManifestJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// Why the bytes are not a manifest: a phrase for ``ImageManifest/ParseError``.
    struct Failure: Error { var reason: String }

    /// Calls `body` with each element of the manifest in `data` that is a
    /// name or an object with a name, in order, as it is read (nothing is
    /// kept but what `body` keeps).
    static func forEachElement(in data: Data, _ body: (Element) -> Void) throws(Failure) {
        let result: Result<Void, Failure> = data.withUnsafeBytes { raw in
            var reader = ManifestJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                return .success(try reader.document(body))
            } catch {
                return .failure(error)
            }
        }
        // A switch rather than `result.get()`: the typed-throws `get()` is newer than the iOS 16 SDK.
        if case .failure(let failure) = result { throw failure }
    }

    /// One element of the list, as read.
    struct Element {
        var name: String
        var width: Double?
        var height: Double?
        var orientation: Double?
        /// `format`, or `false` when the key is there with a non-string value.
        var format: String?
        var hasFormat = false
        var hasOrientation = false
        /// nginx's `autoindex_format json` says `"type": "file"` or `"directory"`.
        var type: String?
        /// A ThumbHash in base64 (`thumbhash`, as Immich names it, or `thumbHash`).
        var thumbhash: String?
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // MARK: The document

    private mutating func document(_ body: (Element) -> Void) throws(Failure) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "["):
            try list(body)
        case UInt8(ascii: "{"):
            index += 1
            var found = false
            try members { (reader: inout ManifestJSONReader, key: String) throws(Failure) in
                if key == "images", !found, reader.peek() == UInt8(ascii: "[") {
                    found = true
                    try reader.list(body)
                } else {
                    try reader.skipValue()
                }
            }
            guard found else { throw Failure(reason: "is neither a list of images nor an object with an \"images\" list") }
        case let first? where Array("\"-0123456789tfn".utf8).contains(first):
            throw Failure(reason: "is neither a list of images nor an object with an \"images\" list")
        case _?:
            throw Failure(reason: "is not valid JSON")
        case nil:
            throw Failure(reason: "is empty")
        }
        skipWhitespace()
        guard index == bytes.count else { throw Failure(reason: "is not valid JSON (text after the end, at byte \(index))") }
    }

    /// `[ element, … ]`, keeping the elements that are a name or an object.
    private mutating func list(_ body: (Element) -> Void) throws(Failure) {
        index += 1                                                  // [
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return }
        while true {
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: "\""):
                body(Element(name: try string()))
            case UInt8(ascii: "{"):
                index += 1
                if let element = try object() { body(element) }
            default:
                try skipValue()
            }
            skipWhitespace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return
            default: throw syntax("a , or ] in the image list")
            }
        }
    }

    /// The members of an entry object (after its `{`); `nil` without a name.
    private mutating func object() throws(Failure) -> Element? {
        var element = Element(name: "")
        var hasName = false
        try members { (reader: inout ManifestJSONReader, key: String) throws(Failure) in
            switch key {
            case "name":
                if reader.peek() == UInt8(ascii: "\"") {
                    element.name = try reader.string()
                    hasName = true
                } else {
                    try reader.skipValue()
                }
            case "width": element.width = try reader.numberOrSkip()
            case "height": element.height = try reader.numberOrSkip()
            case "orientation":
                element.hasOrientation = true
                element.orientation = try reader.numberOrSkip()
            case "format":
                element.hasFormat = true
                element.format = try reader.stringOrSkip()
            case "type": element.type = try reader.stringOrSkip()
            case "thumbhash", "thumbHash": element.thumbhash = try reader.stringOrSkip()
            default: try reader.skipValue()
            }
        }
        return hasName ? element : nil
    }

    /// Calls `body` with each key of an object whose `{` was just read,
    /// positioned at the key's value, which `body` must consume.
    private mutating func members(_ body: (inout ManifestJSONReader, String) throws(Failure) -> Void) throws(Failure) {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw syntax("a key") }
            let key = try string()
            skipWhitespace()
            guard next() == UInt8(ascii: ":") else { throw syntax("a :") }
            skipWhitespace()
            try body(&self, key)
            skipWhitespace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            default: throw syntax("a , or }")
            }
        }
    }

    // MARK: Values

    private mutating func numberOrSkip() throws(Failure) -> Double? {
        guard let first = peek(), first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            try skipValue()
            return nil
        }
        let start = index
        while let byte = peek(), Self.isNumberByte(byte) { index += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw syntax("a number") }
        return value
    }

    private mutating func stringOrSkip() throws(Failure) -> String? {
        guard peek() == UInt8(ascii: "\"") else {
            try skipValue()
            return nil
        }
        return try string()
    }

    /// A string at `index` (its opening quote), escapes decoded; bytes that
    /// are not UTF-8 are replaced.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // The common case: no escapes, one slice.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw syntax("no control character inside a string") }
            index += 1
        }
        var decoded = Array(bytes[start..<min(index, bytes.count)])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = next() else { throw syntax("an escape") }
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar), peek() == UInt8(ascii: "\\"),
                       index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            decoded.append(contentsOf: Array("\u{FFFD}".utf8))
                            scalar = low
                        }
                    }
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    decoded.append(contentsOf: Array(String(character).utf8))
                default:
                    throw syntax("a valid escape")
                }
            default:
                if byte < 0x20 { throw syntax("no control character inside a string") }
                decoded.append(byte)
            }
        }
        throw syntax("the end of a string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw syntax("four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("four hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Skips one value of any kind, nested ones with a depth counter.
    private mutating func skipValue() throws(Failure) {
        var depth = 0
        repeat {
            skipWhitespace()
            guard let byte = peek() else { throw syntax("a value") }
            switch byte {
            case UInt8(ascii: "\""):
                _ = try skipString()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                index += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard depth > 0 else { throw syntax("a value") }
                depth -= 1
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard depth > 0 else { throw syntax("a value") }
                index += 1
            default:
                let start = index
                while let next = peek(), Self.isNumberByte(next) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(next) {
                    index += 1
                }
                guard index > start else { throw syntax("a value") }
            }
        } while depth > 0
    }

    /// Skips a string without decoding it.
    private mutating func skipString() throws(Failure) {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { return }
        }
        throw syntax("the end of a string")
    }

    // MARK: Bytes

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private func syntax(_ expected: String) -> Failure {
        Failure(reason: index >= bytes.count ? "is not valid JSON (it ends early, expecting \(expected))"
                                             : "is not valid JSON (expecting \(expected) at byte \(index))")
    }
}
