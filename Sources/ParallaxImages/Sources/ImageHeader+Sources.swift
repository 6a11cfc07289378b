import Foundation

extension ImageHeader {
    /// The header of `id` from `bytes`, the whole picture: a source's
    /// answer, with the reason in the source's terms when there is none.
    static func read(wholeFile bytes: Data, of id: ImageID) throws(ImageSourceError) -> ImageHeader {
        let header: ImageHeader?
        do throws(ImageDecodingError) {
            header = try read(from: bytes)
        } catch {
            throw .unreadable(id, "has no readable header: \(error)")
        }
        guard let header else { throw .unreadable(id, "ends before its frame header (\(bytes.count) bytes)") }
        return header
    }
}
