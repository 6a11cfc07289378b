#if canImport(UIKit) && !os(watchOS)
import Foundation
import ParallaxImages
import UIKit

/// Relieves every loader a ``ParallaxImageView`` has used when the system
/// asks the app for memory: all thumbnails and rendered previews on a
/// memory warning, all but a tenth when the app goes to the background
/// (``ImageLoader/relieve(_:)`` decides what goes). Loaders are held
/// weakly: one the app lets go of is never kept alive for this.
///
/// `ParallaxImageView` registers its requester's loader on its own; an app
/// that loads through a loader without an image view registers it with
/// ``watch(_:)``.
@MainActor
public final class MemoryWarnings {
    /// The one observer of the app's memory notifications.
    public static let shared = MemoryWarnings()

    private final class WeakLoader {
        weak var loader: ImageLoader?
        init(_ loader: ImageLoader) { self.loader = loader }
    }

    private var loaders: [ObjectIdentifier: WeakLoader] = [:]
    private var observers: [NSObjectProtocol] = []

    private init() {}

    /// Relieves `loader` under memory pressure from now on. O(1); watching
    /// a loader again changes nothing.
    public func watch(_ loader: ImageLoader) {
        startObservingIfNeeded()
        let key = ObjectIdentifier(loader)
        guard loaders[key]?.loader == nil else { return }
        loaders[key] = WeakLoader(loader)
    }

    /// Relieves every watched loader under `pressure` (what the
    /// notifications do; an app may call it for its own signals).
    public func relieve(_ pressure: MemoryPressure) {
        loaders = loaders.filter { $0.value.loader != nil }
        for entry in loaders.values {
            guard let loader = entry.loader else { continue }
            Task { await loader.relieve(pressure) }
        }
    }

    private func startObservingIfNeeded() {
        guard observers.isEmpty else { return }
        let center = NotificationCenter.default
        #if os(iOS) || os(tvOS) || os(visionOS)
        observers.append(center.addObserver(forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main) { _ in
            Task { @MainActor in MemoryWarnings.shared.relieve(.critical) }
        })
        #endif
        observers.append(center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { _ in
            Task { @MainActor in MemoryWarnings.shared.relieve(.background) }
        })
    }
}
#endif
