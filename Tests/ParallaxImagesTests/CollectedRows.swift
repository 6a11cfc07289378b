#if canImport(CParallaxCodecs)
import CParallaxCodecs

/// The rows a C decode hands to ``sink`` (`context`: an unretained
/// ``CollectedRows``), gathered into one RGBA buffer: what the codec tests
/// compare decoders by.
final class CollectedRows {
    var pixels: [UInt8]
    /// Rows handed over so far.
    var handedOver = 0
    let width: Int

    init(width: Int, height: Int) {
        self.width = width
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// This object as a sink's context, for as long as it is kept alive.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Copies each row into ``pixels``; never asks the decode to stop.
    static let sink: pk_row_sink = { context, y, _, _, count, rgba in
        guard let context, let rgba else { return 1 }
        let rows = Unmanaged<CollectedRows>.fromOpaque(context).takeUnretainedValue()
        for index in 0..<(Int(count) * 4) { rows.pixels[Int(y) * rows.width * 4 + index] = rgba[index] }
        rows.handedOver += 1
        return 0
    }
}
#endif
