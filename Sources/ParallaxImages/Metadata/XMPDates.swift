/// The capture dates in an XMP packet (RDF/XML text), found by their
/// property names rather than by parsing the XML: a date is a short
/// attribute (`exif:DateTimeOriginal="2024-06-15T14:30:05+02:00"`) or
/// element (`<photoshop:DateCreated>…</photoshop:DateCreated>`) that a
/// byte search finds in O(packet size), with no XML parser to feed hostile
/// text to.
enum XMPDates {
    /// The properties looked for, with the source each gives, most trusted first.
    private static let properties: [(name: [UInt8], source: CaptureDate.Source)] = [
        (Array("exif:DateTimeOriginal".utf8), .xmpOriginal),
        (Array("photoshop:DateCreated".utf8), .xmpOriginal),
        (Array("xmp:CreateDate".utf8), .xmpCreated),
        (Array("xap:CreateDate".utf8), .xmpCreated),               // the prefix of XMP's first years
    ]

    /// The most trusted date in the packet in `view`, if any.
    static func best(in view: ByteView) -> CaptureDate? {
        for property in properties {
            if let text = value(of: property.name, in: view.bytes), let date = CaptureDate(iso8601: text, source: property.source) {
                return date
            }
        }
        return nil
    }

    /// The value of the first attribute or element named `name`: the text
    /// after `name="` (or `'`) up to the quote, or after `name>` up to `<`.
    private static func value(of name: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = name.first, bytes.count > name.count + 2 else { return nil }
        var i = 0
        let last = bytes.count - name.count - 2
        while i <= last {
            defer { i += 1 }
            guard bytes[i] == first, bytes[(i + 1)..<(i + name.count)].elementsEqual(name.dropFirst()) else { continue }
            // A property name starts after `<`, `:`-less whitespace or a quote; `subexif:DateTimeOriginal` is not it.
            if i > 0, isNameByte(bytes[i - 1]) { continue }
            var at = i + name.count
            let terminator: UInt8
            switch bytes[at] {
            case UInt8(ascii: ">"): terminator = UInt8(ascii: "<")
            case UInt8(ascii: "="):
                at += 1
                guard bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { continue }
                terminator = bytes[at]
            default: continue
            }
            let start = at + 1
            let end = min(bytes.count, start + 64)
            guard start < end, let close = bytes[start..<end].firstIndex(of: terminator) else { continue }
            return String(decoding: bytes[start..<close], as: UTF8.self)
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
