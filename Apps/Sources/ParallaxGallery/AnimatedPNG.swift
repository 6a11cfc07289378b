import Foundation
import ParallaxImages

/// Builds an animated PNG (APNG), which every current browser and most image
/// viewers play, from frames of one size added one at a time: the headless
/// gallery's animation and the README's are written with this.
///
/// The first frame is stored whole (it is also the still image a viewer
/// without APNG shows). Each later frame is stored as only the rectangle in
/// which it differs from the frame before: its `fcTL` places the rectangle,
/// dispose op *none* keeps the rest of the canvas and blend op *source*
/// replaces the rectangle's pixels, so every frame is reproduced exactly.
/// A frame identical to the one before is not stored: the one before is
/// shown that much longer. A settled scroll or a tile fading in costs only
/// what changed. Each rectangle is compressed by the frames' own PNG
/// encoder (`PixelImage.pngData()`), whose `IDAT` stream becomes the
/// frame's `fdAT`.
///
/// Only the previous frame and the compressed frames are kept: memory is
/// one frame of pixels plus the file. Adding a frame is O(pixels) for the
/// comparison plus the compression of its changed rectangle.
package struct AnimatedPNG {
    /// The canvas's width and height in pixels: the first frame's.
    package private(set) var width = 0, height = 0
    /// How long each frame shows, as PNG's fraction of a second.
    private let delay: (numerator: UInt16, denominator: UInt16)
    private var header: Data?
    private var previous: PixelImage?
    private var stored: [StoredFrame] = []

    /// A frame as the file keeps it: where its rectangle lies, for how many
    /// frame delays it shows, and its compressed pixels.
    private struct StoredFrame {
        var x: Int, y: Int, width: Int, height: Int
        var delays: Int
        var stream: Data
    }

    /// An animation showing each frame for `delay` seconds, looping forever.
    /// A delay of one n-th of a second is kept exactly (1/n); any other
    /// delay to the millisecond (at least 1 ms, at most 65.535 s).
    package init(delay: Double) {
        let perSecond = 1 / delay
        if perSecond.isFinite, perSecond >= 1, perSecond <= 65_535, abs(perSecond - perSecond.rounded()) < 1e-9 {
            self.delay = (1, UInt16(perSecond.rounded()))
        } else {
            let milliseconds = delay.isFinite ? (delay * 1000).rounded() : 1
            self.delay = (UInt16(max(1, min(65_535, milliseconds))), 1000)
        }
    }

    /// The number of frames the file will hold (identical frames in a row
    /// count once).
    package var storedFrameCount: Int { stored.count }

    /// Adds `frame` after the frames so far. Returns `false`, adding
    /// nothing, if it is not the size of the first frame or cannot be
    /// encoded.
    @discardableResult
    package mutating func append(_ frame: PixelImage) -> Bool {
        guard let previous else {
            guard frame.width > 0, frame.height > 0, let png = frame.pngData(), let parts = Self.chunks(of: png),
                  let header = parts.first(where: { $0.type == "IHDR" })?.data else { return false }
            self.header = header
            (width, height) = (frame.width, frame.height)
            stored.append(StoredFrame(x: 0, y: 0, width: width, height: height, delays: 1,
                                      stream: Self.imageData(of: parts)))
            self.previous = frame
            return true
        }
        guard frame.width == width, frame.height == height else { return false }
        guard let changed = Self.changedRectangle(from: previous, to: frame) else {
            // The same picture again: the frame before shows one delay longer, while its delay fits PNG's 16 bits.
            if stored[stored.count - 1].delays * Int(delay.numerator) + Int(delay.numerator) <= Int(UInt16.max) {
                stored[stored.count - 1].delays += 1
                return true
            }
            return appendRegion(of: frame, x: 0, y: 0, width: 1, height: 1)
        }
        return appendRegion(of: frame, x: changed.x, y: changed.y, width: changed.width, height: changed.height)
    }

    /// The APNG file of the frames so far, or `nil` before the first frame.
    package func data() -> Data? {
        guard let header else { return nil }
        var output = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        Self.append(chunk: "IHDR", header, to: &output)
        Self.append(chunk: "acTL", Self.be32(UInt32(stored.count)) + Self.be32(0), to: &output)
        var sequence: UInt32 = 0
        for (index, frame) in stored.enumerated() {
            var control = Self.be32(sequence) + Self.be32(UInt32(frame.width)) + Self.be32(UInt32(frame.height))
            control += Self.be32(UInt32(frame.x)) + Self.be32(UInt32(frame.y))
            control += Self.be16(UInt16(frame.delays * Int(delay.numerator))) + Self.be16(delay.denominator)
            control += Data([0, 0])     // dispose op none, blend op source
            Self.append(chunk: "fcTL", control, to: &output)
            sequence += 1
            if index == 0 {
                Self.append(chunk: "IDAT", frame.stream, to: &output)
            } else {
                Self.append(chunk: "fdAT", Self.be32(sequence) + frame.stream, to: &output)
                sequence += 1
            }
        }
        Self.append(chunk: "IEND", Data(), to: &output)
        return output
    }

    /// An APNG of `frames` shown `delay` seconds each, or `nil` if there
    /// are none or one cannot be added (see ``append(_:)``).
    package static func make(frames: [PixelImage], delay: Double) -> Data? {
        var animation = AnimatedPNG(delay: delay)
        for frame in frames { guard animation.append(frame) else { return nil } }
        return animation.data()
    }

    // MARK: Frames

    private mutating func appendRegion(of frame: PixelImage, x: Int, y: Int, width: Int, height: Int) -> Bool {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let rowBytes = width * 4
        frame.pixels.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { target in
                for row in 0..<height {
                    let from = ((y + row) * frame.width + x) * 4
                    target.baseAddress!.advanced(by: row * rowBytes).copyMemory(from: source.baseAddress!.advanced(by: from),
                                                                               byteCount: rowBytes)
                }
            }
        }
        guard let region = PixelImage(width: width, height: height, pixels: pixels), let png = region.pngData(),
              let parts = Self.chunks(of: png) else { return false }
        stored.append(StoredFrame(x: x, y: y, width: width, height: height, delays: 1, stream: Self.imageData(of: parts)))
        previous = frame
        return true
    }

    /// The smallest rectangle holding every pixel that differs between two
    /// images of one size, or `nil` if none does.
    static func changedRectangle(from old: PixelImage, to new: PixelImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        let width = new.width, height = new.height
        var minX = width, maxX = -1, minY = height, maxY = -1
        old.pixels.withUnsafeBytes { oldBytes in
            new.pixels.withUnsafeBytes { newBytes in
                let a = oldBytes.bindMemory(to: UInt32.self), b = newBytes.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    let row = y * width
                    // The first and last differing pixel of the row; the row is skipped whole when equal.
                    guard let first = (0..<width).first(where: { a[row + $0] != b[row + $0] }) else { continue }
                    let last = (first..<width).last(where: { a[row + $0] != b[row + $0] }) ?? first
                    minX = min(minX, first)
                    maxX = max(maxX, last)
                    if minY == height { minY = y }
                    maxY = y
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    // MARK: Chunks

    /// The compressed image data of a PNG file: its `IDAT` chunks' data,
    /// joined (one zlib stream, split across chunks only for size).
    private static func imageData(of parts: [(type: String, data: Data)]) -> Data {
        parts.filter { $0.type == "IDAT" }.reduce(into: Data()) { $0 += $1.data }
    }

    /// The chunks of a PNG file (type and data), or `nil` if it is cut short.
    static func chunks(of png: Data) -> [(type: String, data: Data)]? {
        let bytes = [UInt8](png)
        guard bytes.count > 8 else { return nil }
        var result: [(String, Data)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 12 + length <= bytes.count else { return nil }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append((type, Data(bytes[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return result
    }

    private static func append(chunk type: String, _ data: Data, to output: inout Data) {
        PNGChunk.append(type, data, to: &output)
    }

    private static func be32(_ value: UInt32) -> Data { Data(PNGChunk.bigEndian(value)) }
    private static func be16(_ value: UInt16) -> Data { Data([UInt8(value >> 8), UInt8(value & 0xFF)]) }
}
