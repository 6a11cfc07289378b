/// Why an image could not be turned into a thumbnail. Every bad input ends
/// here, typed, and nothing else: no trap, no hang, no allocation of the
/// size a malicious header claims.
public enum ImageDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// The bytes are not an image format the decoder reads.
    case unsupportedFormat
    /// An image of a kind the decoder does not read (a 12-bit JPEG, a GIF
    /// on Linux, say); the text names it.
    case unsupportedVariant(String)
    /// The codec rejected the data.
    case corrupt(String)
    /// The data ended before the image did.
    case truncated(String)
    /// The header claims more pixels than the decoder's limit (a
    /// decompression bomb, or simply a photo larger than allowed).
    case tooLarge(width: Int, height: Int, limit: Int)
    /// Memory for the decode could not be had.
    case outOfMemory
    /// The decode would hold more memory at once than its budget allows
    /// (``DecodingOptions/maximumDecodeBytes``, or the whole
    /// ``DecodingMemoryBudget``); nothing of that size was allocated.
    case overBudget(needed: Int, budget: Int)

    /// A sentence saying what is wrong with the data, for a log or an error
    /// tile.
    public var description: String {
        switch self {
        case .empty: return "the image data is empty"
        case .unsupportedFormat: return "the data is not an image format the decoder reads"
        case .unsupportedVariant(let what): return "\(what) is not supported"
        case .corrupt(let detail): return "the image data is corrupt: \(detail)"
        case .truncated(let detail): return "the image data is truncated: \(detail)"
        case let .tooLarge(width, height, limit):
            return "the image is \(width) × \(height) pixels, more than the limit of \(limit)"
        case .outOfMemory: return "not enough memory to decode the image"
        case let .overBudget(needed, budget):
            return "decoding the image needs about \(Self.megabytes(needed)), more than its memory budget of \(Self.megabytes(budget))"
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        bytes >= 10 << 20 ? "\(bytes >> 20) MB" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
