/// FNV-1a, 64 bits, over the concatenation of `parts`: fast, and plenty to
/// catch torn or corrupted files (this is an integrity check, not security).
func fnv1a64(_ parts: [UInt8]...) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for part in parts {
        part.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
    }
    return hash
}
