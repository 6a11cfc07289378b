import Foundation

/// Where the loader announces thumbnails it replaced under the surfaces
/// showing them (``ImageLoader/replacedThumbnails()``): each subscriber's
/// stream gets every key from the moment it subscribed until it stops
/// listening.
final class ThumbnailReplacementFeed: Sendable {
    private let subscribers = Locked<(next: Int, streams: [Int: AsyncStream<ThumbnailKey>.Continuation])>((0, [:]))

    /// A stream of the keys replaced from now on, until its consumer stops.
    func subscribe() -> AsyncStream<ThumbnailKey> {
        // The build closure rather than `makeStream(of:)`, which the iOS 16 SDK does not have.
        var made: AsyncStream<ThumbnailKey>.Continuation?
        let stream = AsyncStream(ThumbnailKey.self, bufferingPolicy: .unbounded) { made = $0 }
        guard let continuation = made else { return stream }
        let number = subscribers.withLock { state in
            state.next += 1
            state.streams[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] (_: AsyncStream<ThumbnailKey>.Continuation.Termination) in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: number) }
        }
        return stream
    }

    /// Tells every subscriber that `key`'s thumbnail was replaced.
    func announce(_ key: ThumbnailKey) {
        let streams = subscribers.withLock { Array($0.streams.values) }
        for stream in streams { stream.yield(key) }
    }
}
