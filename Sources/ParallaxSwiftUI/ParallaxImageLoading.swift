#if canImport(SwiftUI)
import Foundation
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import SwiftUI
#if canImport(UIKit)
import UIKit
#endif

/// The pipeline behind every ``ParallaxLoadedImage`` of a screen: the
/// loader, how a cell shows what it loads, and the loading plan whose
/// priorities their requests carry.
///
/// Make one per screen (or app) before the screen's first frame (where
/// the screen is made, or an app-wide model), not in a `task`: cells built
/// before it exists cannot show even a photo in memory. Hand it to the
/// views with ``SwiftUI/View/parallaxImageLoading(_:)``; a
/// ``DensityPinchGrid`` given `imageID` plans its ``viewport`` ahead:
///
///     let loading: ParallaxImageLoading          // made with the screen
///
///     DensityPinchGrid(photos, columns: $columns, imageID: { $0.id }) { photo in
///         ParallaxLoadedImage(photo.id)
///     }
///     .parallaxImageLoading(loading)
///
/// Pictures stay where the pipeline keeps them: the loader's memory cache
/// (bounded; 15 % of the device's memory by default) and a bounded cache of
/// their `CGImage`s, never an app's model. On iOS a memory warning empties
/// both, as UIKit's `MemoryWarnings` does for `ParallaxImageView`.
///
/// Complexity: O(1) per request besides the loader's work.
@MainActor
public final class ParallaxImageLoading {
    /// The pipeline thumbnails come from.
    public let loader: ImageLoader
    /// How a cell shows a request's stages (the cross-fade).
    public let cellLoad: CellImageLoad
    /// The loading plan requests take their priority from. A surface that
    /// knows its layout (``DensityPinchGrid``, or the app's own) updates it
    /// as it scrolls; without updates every request is `LoadPriority.visible`.
    public let viewport: ViewportLoading
    #if canImport(UIKit) && !os(watchOS)
    private var memoryWarnings: NSObjectProtocol?
    #endif

    /// Loading through `loader`, fading thumbnails that had to load in
    /// over `fadeDuration` seconds, planning `ranges` ahead and behind.
    public init(loader: ImageLoader, fadeDuration: TimeInterval = 0.25, ranges: LoadingRanges = LoadingRanges()) {
        self.loader = loader
        self.cellLoad = CellImageLoad(fadeDuration: fadeDuration)
        self.viewport = ViewportLoading(loader: loader, ranges: ranges)
        #if canImport(UIKit) && !os(watchOS)
        memoryWarnings = NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main
        ) { [loader] _ in
            PixelPictures.relieve()
            Task { await loader.relieve(.critical) }
        }
        #endif
    }

    deinit {
        #if canImport(UIKit) && !os(watchOS)
        if let memoryWarnings { NotificationCenter.default.removeObserver(memoryWarnings) }
        #endif
    }

    /// The priority to request the item at `index` with (its place in the
    /// current plan), or `LoadPriority.visible` for a view outside a grid.
    func priority(for index: ItemIndex?) -> LoadPriority {
        index.map { viewport.priority(for: $0) } ?? .visible
    }
}

extension View {
    /// Hands `loading` to every ``ParallaxLoadedImage`` inside this view.
    public func parallaxImageLoading(_ loading: ParallaxImageLoading) -> some View {
        environment(\.parallaxImageLoading, loading)
    }
}

extension EnvironmentValues {
    /// The loading of the ``ParallaxLoadedImage`` views inside; `nil`:
    /// they show their preview only.
    var parallaxImageLoading: ParallaxImageLoading? {
        get { self[ParallaxImageLoadingKey.self] }
        set { self[ParallaxImageLoadingKey.self] = newValue }
    }

    /// The item a cell of ``DensityPinchGrid`` shows, for its loading
    /// priority; `nil` outside the grid.
    var parallaxItemIndex: ItemIndex? {
        get { self[ParallaxItemIndexKey.self] }
        set { self[ParallaxItemIndexKey.self] = newValue }
    }
}

private struct ParallaxImageLoadingKey: EnvironmentKey {
    static let defaultValue: ParallaxImageLoading? = nil
}

private struct ParallaxItemIndexKey: EnvironmentKey {
    static let defaultValue: ItemIndex? = nil
}
#endif
