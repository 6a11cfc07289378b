/// A seedable random number generator (Steele, Lea and Flood's SplitMix64),
/// so that the benchmarks' block sizes and photo shapes are the same on every
/// run; the system generator cannot be seeded. (ParallaxKit's own copy is a
/// test fixture, not part of its API.)
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
