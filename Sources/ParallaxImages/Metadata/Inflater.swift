/// Decompresses a zlib stream (RFC 1950, the DEFLATE data of RFC 1951),
/// for the few compressed text chunks a PNG keeps its metadata in: the
/// `zTXt` "Raw profile type exif" ImageMagick and GIMP write, and a
/// compressed XMP `iTXt`.
///
/// A small, plain decoder after Mark Adler's `puff`: canonical Huffman
/// codes, looked up 9 bits at a time in a 512-entry table (the longer,
/// rarer codes a bit at a time, as `puff` does all of them); the metadata
/// it is used on is a few kilobytes.
/// Output stops at `limit` bytes (the dates are near the start), every
/// read is checked against the input, and a malformed stream is `nil`:
/// the work is O(limit + input), whatever the stream claims.
enum Inflater {
    /// The first `limit` bytes of the zlib stream in `input` (fewer if it
    /// ends sooner), or `nil` if it is malformed before then.
    static func inflate(zlib input: UnsafeBufferPointer<UInt8>, limit: Int) -> [UInt8]? {
        // The zlib header: method 8 (deflate), a window of at most 32 KB, no preset dictionary, a valid check.
        guard input.count >= 2, input[0] & 0x0F == 8, input[0] >> 4 <= 7, input[1] & 0x20 == 0,
              (Int(input[0]) << 8 | Int(input[1])) % 31 == 0 else { return nil }
        var state = State(input: UnsafeBufferPointer(rebasing: input[2...]), limit: limit)
        return state.run() ? state.output : nil
    }

    /// A canonical Huffman code: how many codes of each length, and the
    /// symbols in code order.
    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]
        /// For each 9 bits as they arrive (first bit lowest), the symbol and
        /// length (`symbol << 4 | length`) of the code they start with, or
        /// -1 when that code is longer than 9 bits.
        var table = [Int32](repeating: -1, count: 1 << Self.tableBits)
        static let tableBits = 9

        /// The code for symbols with `lengths` (0: unused), or `nil` for an
        /// over-subscribed set of lengths.
        init?(lengths: ArraySlice<Int>) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1..<16 {
                left = left * 2 - counts[length]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
            // Canonical codes in symbol order, each length's first code the last one's next, doubled.
            var code = 0, index = 0
            for length in 1..<16 {
                for _ in 0..<counts[length] {
                    if length <= Self.tableBits {
                        // Codes are packed first bit first, so the table is indexed by the code's bits reversed.
                        var reversed = 0
                        for bit in 0..<length where code & (1 << (length - 1 - bit)) != 0 { reversed |= 1 << bit }
                        for entry in stride(from: reversed, to: 1 << Self.tableBits, by: 1 << length) {
                            table[entry] = Int32(symbols[index] << 4 | length)
                        }
                    }
                    code += 1
                    index += 1
                }
                code <<= 1
            }
        }
    }

    private struct State {
        let input: UnsafeBufferPointer<UInt8>
        let limit: Int
        var position = 0
        var bitBuffer = 0
        var bitCount = 0
        var output: [UInt8] = []
        var malformed = false

        init(input: UnsafeBufferPointer<UInt8>, limit: Int) {
            self.input = input
            self.limit = limit
            output.reserveCapacity(min(limit, 64 << 10))
        }

        /// `count` bits, least significant first; past the input, sets `malformed`.
        mutating func bits(_ count: Int) -> Int {
            while bitCount < count {
                guard position < input.count else { malformed = true; return 0 }
                bitBuffer |= Int(input[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let value = bitBuffer & ((1 << count) - 1)
            bitBuffer >>= count
            bitCount -= count
            return value
        }

        mutating func decode(_ code: Huffman) -> Int? {
            while bitCount < Huffman.tableBits, position < input.count {
                bitBuffer |= Int(input[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let entry = code.table[bitBuffer & ((1 << Huffman.tableBits) - 1)]
            if entry >= 0, Int(entry & 15) <= bitCount {
                bitBuffer >>= Int(entry & 15)
                bitCount -= Int(entry & 15)
                return Int(entry >> 4)
            }
            var first = 0, index = 0, value = 0
            for length in 1..<16 {
                value |= bits(1)
                if malformed { return nil }
                let count = code.counts[length]
                if value - first < count { return code.symbols[index + value - first] }
                index += count
                first = (first + count) << 1
                value <<= 1
            }
            return nil
        }

        /// Inflates blocks until the last, or until `limit` bytes are out; `false` if malformed.
        mutating func run() -> Bool {
            while output.count < limit {
                let last = bits(1)
                let type = bits(2)
                if malformed { return false }
                let ok: Bool
                switch type {
                case 0: ok = stored()
                case 1: ok = codes(State.fixed.literals, State.fixed.distances)
                case 2: ok = dynamic()
                default: return false
                }
                guard ok else { return false }
                if last == 1 { break }
            }
            if output.count > limit { output.removeLast(output.count - limit) }
            return true
        }

        mutating func stored() -> Bool {
            bitBuffer = 0
            bitCount = 0
            guard position + 4 <= input.count else { return false }
            let length = Int(input[position]) | Int(input[position + 1]) << 8
            let check = Int(input[position + 2]) | Int(input[position + 3]) << 8
            position += 4
            guard length == ~check & 0xFFFF, position + length <= input.count else { return false }
            output.append(contentsOf: input[position..<(position + length)])
            position += length
            return true
        }

        static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                   4097, 6145, 8193, 12289, 16385, 24577]
        static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

        static let fixed: (literals: Huffman, distances: Huffman) = {
            let literals = [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
            return (Huffman(lengths: literals[...])!, Huffman(lengths: [Int](repeating: 5, count: 30)[...])!)
        }()

        mutating func codes(_ literals: Huffman, _ distances: Huffman) -> Bool {
            while output.count < limit {
                guard let symbol = decode(literals) else { return false }
                if symbol < 256 {
                    output.append(UInt8(symbol))
                } else if symbol == 256 {
                    return true
                } else {
                    let index = symbol - 257
                    guard index < 29 else { return false }
                    let length = Self.lengthBase[index] + bits(Self.lengthExtra[index])
                    guard let distanceSymbol = decode(distances), distanceSymbol < 30 else { return false }
                    let distance = Self.distanceBase[distanceSymbol] + bits(Self.distanceExtra[distanceSymbol])
                    guard !malformed, distance <= output.count else { return false }
                    for _ in 0..<length { output.append(output[output.count - distance]) }
                }
            }
            return true
        }

        mutating func dynamic() -> Bool {
            let literalCount = bits(5) + 257, distanceCount = bits(5) + 1, codeLengthCount = bits(4) + 4
            guard !malformed, literalCount <= 286, distanceCount <= 30 else { return false }
            let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
            var codeLengths = [Int](repeating: 0, count: 19)
            for i in 0..<codeLengthCount { codeLengths[order[i]] = bits(3) }
            guard !malformed, let lengthCode = Huffman(lengths: codeLengths[...]) else { return false }
            var lengths: [Int] = []
            lengths.reserveCapacity(literalCount + distanceCount)
            while lengths.count < literalCount + distanceCount {
                guard let symbol = decode(lengthCode) else { return false }
                switch symbol {
                case 0..<16: lengths.append(symbol)
                case 16:
                    guard let previous = lengths.last else { return false }
                    lengths += [Int](repeating: previous, count: 3 + bits(2))
                case 17: lengths += [Int](repeating: 0, count: 3 + bits(3))
                default: lengths += [Int](repeating: 0, count: 11 + bits(7))
                }
                guard !malformed, lengths.count <= literalCount + distanceCount else { return false }
            }
            guard lengths[256] != 0,
                  let literals = Huffman(lengths: lengths[..<literalCount]),
                  let distances = Huffman(lengths: lengths[literalCount...]) else { return false }
            return codes(literals, distances)
        }
    }
}
