import Foundation

/// The memory that decodes running at the same time may hold together.
///
/// Each decode works out, from the header and the thumbnail size alone,
/// the most memory it will hold at once (the codec's buffers, one row of
/// source pixels, the thumbnail and its accumulator) and checks it against
/// its own limit, ``DecodingOptions/maximumDecodeBytes``. It then reserves
/// that much here before allocating anything, and waits (on its own
/// thread) while other decodes hold the rest, so a screenful of large
/// pictures decoding at once can never add up past the budget. A decode
/// that needs more than the whole budget fails at once with
/// ``ImageDecodingError/overBudget(needed:budget:)`` instead of waiting
/// for ever.
///
/// This is what SDWebImage's `scaleDownLimitBytes` bounds per image, done
/// for every decode and for all of them together. Decoders share
/// ``shared`` unless given their own.
public final class DecodingMemoryBudget: @unchecked Sendable {
    /// The budget every ``CodecImageDecoder`` uses by default: 512 MiB,
    /// two decodes at the default per-decode limit.
    public static let shared = DecodingMemoryBudget(byteLimit: 512 << 20)

    /// The most bytes all decodes may hold together.
    public let byteLimit: Int
    private let condition = NSCondition()
    // Guarded by `condition`. Reservations are served first come, first served (a ticket each), so a
    // large decode is never passed over for ever by a stream of small ones.
    private var reserved = 0
    private var nextTicket: UInt64 = 0
    private var serving: UInt64 = 0

    /// A budget of `byteLimit` bytes (at least 1).
    public init(byteLimit: Int) {
        self.byteLimit = max(byteLimit, 1)
    }

    /// The bytes decodes hold right now.
    public var reservedBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return reserved
    }

    /// Runs `body` holding `bytes` of the budget, first waiting (in turn,
    /// first come first served) until they are free.
    /// - Throws: ``ImageDecodingError/overBudget(needed:budget:)`` if
    ///   `bytes` exceeds the whole budget.
    func withReservation<Result>(of bytes: Int, _ body: () throws(ImageDecodingError) -> Result) throws(ImageDecodingError) -> Result {
        let bytes = max(bytes, 0)
        guard bytes <= byteLimit else { throw .overBudget(needed: bytes, budget: byteLimit) }
        condition.lock()
        let ticket = nextTicket
        nextTicket += 1
        while ticket != serving || bytes > byteLimit - reserved { condition.wait() }
        reserved += bytes
        serving += 1
        condition.broadcast()                                    // the next ticket may fit too
        condition.unlock()
        defer {
            condition.lock()
            reserved -= bytes
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
