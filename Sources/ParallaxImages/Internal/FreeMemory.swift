import Foundation

/// Gives the memory the allocator holds free back to the system, where the
/// platform's allocator keeps it otherwise: glibc's `malloc_trim(0)` on
/// Linux (looked up once, so a C library without it, such as musl, simply
/// has none). Apple's allocator returns free pages on its own: nothing to do.
///
/// Decodes allocate and free tens of megabytes each (whole files, codec
/// buffers, resampler rows); glibc keeps what they freed in its arenas, so
/// after a burst of decodes a gallery at rest held about 100 MB more than it
/// used (measured over the gallery's 3,000-photo session). A trim takes about 12 ms
/// for a 500 MB process and may hold the allocator's locks meanwhile, so the
/// loader runs it off the frame's thread, and only once it has been idle
/// for a while.
enum FreeMemory {
    #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        .map { unsafeBitCast($0, to: Trim.self) }
    #endif

    /// Whether this platform's allocator can be asked to give memory back.
    static var isAvailable: Bool {
        #if canImport(Glibc)
        return trim != nil
        #else
        return false
        #endif
    }

    /// Asks the allocator to give its free memory back. Blocking: call it on
    /// a thread of its own (the file threads' background lane).
    static func returnToSystem() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}
