import Foundation
import ParallaxImages

/// The previews the loader makes, kept for the next launch: each photo's
/// first decoded thumbnail gives it a ThumbHash (`PreviewStore`), which
/// the library's index stores beside its shape and date, so the next
/// launch shows every photo's preview from its first frame.
extension GalleryModel {
    /// How often the previews made are handed to the index: rarely enough
    /// to cost nothing a frame, soon enough that a session cut short keeps
    /// nearly all of them.
    static let previewFilingInterval: TimeInterval = 1

    /// Hands the previews made since the last time to the index writer, at
    /// most every ``previewFilingInterval`` (`now == nil`: at once).
    func filePreviews(now: TimeInterval?) {
        guard let writer = library.indexWriter else { return }
        if let now {
            if let last = lastPreviewFiling, now - last < Self.previewFilingInterval { return }
            lastPreviewFiling = now
        }
        let made = loader.previews.takeMadeHashes()
        guard !made.isEmpty else { return }
        let previous = previewFiling
        previewFiling = Task {
            await previous?.value
            await writer.record(previews: made)
        }
    }

    /// Writes everything this session learnt of the library (shapes, dates,
    /// previews) into its index and returns once it is written: call it
    /// before the app quits, after the loader is idle.
    package func saveForNextLaunch() async {
        guard let writer = library.indexWriter else { return }
        await previewFiling?.value
        await writer.record(previews: loader.previews.takeMadeHashes())
        await writer.flushAndWait()
    }
}
