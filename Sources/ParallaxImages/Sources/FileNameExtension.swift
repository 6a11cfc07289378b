/// The extension of a file name, read from the string alone.
///
/// `URL(fileURLWithPath:).pathExtension` looks the same but asks the file
/// system whether the path is a folder (a `stat` per call): over a listing
/// or a manifest of a million names that is a million system calls for
/// names that are not even on this machine.
enum FileNameExtension {
    /// The lowercased text after the last `.` of the name's last path
    /// component, or `""` when there is none (`photo`, `.hidden`, `a.`).
    ///
    /// Complexity: O(length of the name).
    static func of(_ name: String) -> String {
        let utf8 = name.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        let component = utf8[..<end]
        let start = component.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? component.startIndex
        guard let dot = component[start...].lastIndex(of: UInt8(ascii: ".")), dot > start,
              utf8.index(after: dot) < end else { return "" }
        return String(decoding: utf8[utf8.index(after: dot)..<end], as: UTF8.self).lowercased()
    }

    /// Whether `name` ends in one of ``FolderImageSource/extensions``.
    static func isPhoto(_ name: String) -> Bool {
        FolderImageSource.extensions.contains(of(name))
    }
}
