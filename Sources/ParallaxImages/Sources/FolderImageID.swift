/// How a file in a folder tree is named by its ``ImageID``: its path
/// relative to the tree's root, components joined with `/`, each
/// component's bytes written as text.
///
/// A Linux file name is bytes, not text. A component's ID spelling is the
/// name itself when it is UTF-8 holding no `%` (every ordinary name), else
/// the name with `%` written `%25` and each byte that is not part of a valid
/// UTF-8 sequence written `%HH` (two upper-case hex digits): a Latin-1
/// `café.jpg` is `caf%E9.jpg`. `/` and NUL, which no file name holds, are
/// written `%2F` and `%00` so that spelling any bytes is total; reading such
/// an ID back refuses it.
///
/// The spelling is unambiguous: `/` in an ID is always a separator, `%` is
/// always an escape, and only the canonical spelling of a name is read back
/// (`%41`, `%e9` and a `%C3%A9` that is valid UTF-8 name no file), so two
/// files never share an ID and an ID names at most one file.
enum FolderImageID {
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// The ID spelling of one file name `bytes`.
    ///
    /// Complexity: O(`bytes.count`); no parsing for ASCII without `%`.
    static func component<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") || $0 == 0 }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count + 8)
        func escape(_ byte: UInt8) {
            text += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var index = bytes.startIndex
        parsing: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                switch encoded.count == 1 ? encoded.first! : 0x80 {
                case UInt8(ascii: "%"), UInt8(ascii: "/"), 0: escape(encoded.first!)
                default: text += encoded
                }
                index = bytes.index(index, offsetBy: encoded.count)
            case .error(let length):
                for _ in 0..<length {
                    escape(bytes[index])
                    index = bytes.index(after: index)
                }
            case .emptyInput:
                break parsing
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The ID spelling of the file named `name` in the folder spelled
    /// `prefix` (UTF-8, with its trailing `/`, empty for the root).
    ///
    /// Complexity: O(length of the path); one allocation for a plain name.
    static func path(prefix: [UInt8], name: ArraySlice<UInt8>) -> String {
        guard !name.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "%") }) else {
            return String(decoding: prefix, as: UTF8.self) + component(name)
        }
        return String(unsafeUninitializedCapacity: prefix.count + name.count) { buffer in
            let afterPrefix = buffer.initialize(from: prefix).1
            return afterPrefix + UnsafeMutableBufferPointer(rebasing: buffer[afterPrefix...]).initialize(from: name).1
        }
    }

    /// The ID of the file at the relative path `components` (each a file
    /// name's bytes).
    static func id(components: [[UInt8]]) -> ImageID {
        ImageID(components.map { component($0) }.joined(separator: "/"))
    }

    /// The exact bytes of each component of the relative path `id` spells,
    /// or `nil` when `id` names no file in a tree: empty, absolute, with an
    /// empty component (`a//b`, `a/`), a `.` or `..` component, a component
    /// naming `/` or NUL, or an escape ``component(_:)`` would not write.
    static func components(of id: ImageID) -> [[UInt8]]? {
        let text = Array(id.rawValue.utf8)
        guard !text.isEmpty else { return nil }
        var result: [[UInt8]] = []
        for piece in text.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let bytes = name(spelled: piece) else { return nil }
            result.append(bytes)
        }
        return result
    }

    /// The bytes of the one file name `spelling` writes, or `nil` for
    /// anything but a canonical spelling of a real name.
    static func name(spelled spelling: ArraySlice<UInt8>) -> [UInt8]? {
        guard !spelling.isEmpty else { return nil }
        guard spelling.contains(UInt8(ascii: "%")) else {
            guard spelling.elementsEqual([0x2E]) == false, spelling.elementsEqual([0x2E, 0x2E]) == false,
                  !spelling.contains(0) else { return nil }
            return Array(spelling)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(spelling.count)
        var index = spelling.startIndex
        while index < spelling.endIndex {
            let byte = spelling[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 2 < spelling.endIndex, let high = hexValue(spelling[index + 1]),
                  let low = hexValue(spelling[index + 2]) else { return nil }
            bytes.append(high << 4 | low)
            index += 3
        }
        guard !bytes.isEmpty, bytes != [0x2E], bytes != [0x2E, 0x2E], !bytes.contains(0),
              !bytes.contains(UInt8(ascii: "/")), component(bytes).utf8.elementsEqual(spelling) else { return nil }
        return bytes
    }

    /// The value of an upper-case hex digit (the only case written).
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Whether `a` comes before `b` in tree order: component by component,
    /// each compared by the bytes of its file name, so a folder's photos
    /// stay together (`a/x.jpg`, `a/y.jpg`, `a b/x.jpg`, `a.jpg`) and
    /// `2023/…` comes before `2024/…`. An ID that names no file compares
    /// by its spelling.
    ///
    /// Complexity: O(length of the IDs) when both are plain UTF-8.
    static func precedes(_ a: ImageID, _ b: ImageID) -> Bool {
        func key(_ id: ImageID) -> [UInt8]? {
            guard id.rawValue.utf8.contains(UInt8(ascii: "%")) else { return nil }
            return components(of: id)?.joined(separator: [0]).map { $0 }
        }
        switch (key(a), key(b)) {
        case (nil, nil):
            return lexicographicallyPrecedesAsPaths(a.rawValue.utf8, b.rawValue.utf8)
        case let (left, right):
            let leftBytes = left ?? a.rawValue.utf8.map { $0 == UInt8(ascii: "/") ? 0 : $0 }
            let rightBytes = right ?? b.rawValue.utf8.map { $0 == UInt8(ascii: "/") ? 0 : $0 }
            return leftBytes.lexicographicallyPrecedes(rightBytes)
        }
    }

    /// Byte order with `/` below every other byte.
    private static func lexicographicallyPrecedesAsPaths(_ a: String.UTF8View, _ b: String.UTF8View) -> Bool {
        a.lexicographicallyPrecedes(b) { left, right in
            (left == UInt8(ascii: "/") ? 0 : left) < (right == UInt8(ascii: "/") ? 0 : right)
        }
    }
}
