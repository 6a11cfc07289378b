#if canImport(SwiftUI) && canImport(CoreGraphics) && canImport(ImageIO)   // where pictures become CGImages
import CoreGraphics
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import SwiftUI

/// A photo from the ParallaxImages pipeline that loads while its cell is
/// on screen: the SwiftUI counterpart of UIKit's `ParallaxImageView`.
///
///     ParallaxLoadedImage(photo.id, preview: .thumbHash(photo.thumbhash), label: Text(photo.title))
///         .frame(height: 220)
///
/// It asks the ``ParallaxImageLoading`` of the environment
/// (``SwiftUI/View/parallaxImageLoading(_:)``) for the thumbnail at exactly
/// the size it draws it (its frame plus the effect's overscan, times the
/// screen scale), in a `task(id:)` tied to the view and that size: the
/// request is cancelled when the view leaves (a cell scrolled away) or
/// asks for another size (a rotation, a column change), as UIKit's reused
/// cells are. What it shows is `CellImageLoad`'s rule: a thumbnail in
/// memory in the first frame, with no fade; otherwise the preview (the
/// loader's, or `preview` from the app's model), then the thumbnail with a
/// cross-fade; the same photo at a new size keeps the old one until the
/// new one arrives. Inside a ``DensityPinchGrid`` the request carries the
/// item's planned priority.
///
/// Only the photo on screen is held (by the view's state and the loader's
/// bounded memory cache), never every photo of the model.
///
/// Complexity: O(1) per body, besides a one-time conversion per picture.
public struct ParallaxLoadedImage: View {
    private let id: ImageID
    private let preview: ImagePreview?
    private let label: Text?
    private let effect: ParallaxEffect
    private let axis: ScrollAxis
    private let intensity: CGFloat

    @Environment(\.parallaxImageLoading) private var loading
    @Environment(\.parallaxItemIndex) private var itemIndex
    @Environment(\.parallaxViewportSize) private var viewportSize
    @Environment(\.displayScale) private var displayScale
    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    /// The view's size, measured once per resize (never per scrolled frame).
    @State private var size: CGSize = .zero
    /// What the view shows for the photo it last loaded.
    @State private var shown: Shown?

    /// The photo `id`, shown as `preview` until it arrives (when the
    /// loader knows no better preview), described by `label` for VoiceOver
    /// (`nil`: decorative), moving by `effect` along `axis` times
    /// `intensity`.
    public init(_ id: ImageID, preview: ImagePreview? = nil, label: Text? = nil,
                effect: ParallaxEffect = .default, axis: ScrollAxis = .vertical, intensity: CGFloat = 1) {
        self.id = id
        self.preview = preview
        self.label = label
        self.effect = effect
        self.axis = axis
        self.intensity = intensity
    }

    public var body: some View {
        let key = thumbnailKey
        picture(for: display(for: key))
            .frame(maxWidth: .infinity, maxHeight: .infinity)
            .modifier(SizeReader(size: $size))
            .task(id: key) { await load(key) }
    }

    /// What to draw now: what the last request gave for this photo, or what
    /// is there without waiting (a memory hit, a preview).
    private func display(for key: ThumbnailKey?) -> ImageDisplay? {
        if let shown, shown.id == id { return shown.display }
        guard let key, let loading else { return nil }
        return loading.cellLoad.immediateDisplay(of: key, from: loading.loader)
    }

    @ViewBuilder
    private func picture(for display: ImageDisplay?) -> some View {
        switch display {
        case .image(let image, _):
            ParallaxImage(image, label: label, effect: effect, axis: axis, intensity: intensity)
                .transition(.opacity)
        case .placeholder(.preview(let image)):
            ParallaxImage(image, label: label, effect: effect, axis: axis, intensity: intensity)
        case .failure(let message):
            Color.gray.opacity(0.3)
                .overlay { Image(systemName: "exclamationmark.triangle").foregroundStyle(.secondary) }
                .accessibilityElement(children: .ignore)
                .accessibilityLabel(label.map { Text("\($0), \(message)") } ?? Text(message))
        case .placeholder, nil:
            ParallaxImage(nil as PixelImage?, preview: preview, label: label, effect: effect, axis: axis,
                          intensity: intensity)
        }
    }

    /// The thumbnail at the size this view draws it: its frame plus the
    /// effect's overscan (a window effect's content is as long as the
    /// viewport), times the screen scale. `nil` before the view is measured.
    private var thumbnailKey: ThumbnailKey? {
        // The same rule a grid's loading plan preloads with (ParallaxHosting), so its preloads are found.
        let scroller = ParallaxScroller(effect: effect, axis: axis, intensity: intensity)
        guard let thumbnail = scroller.thumbnailSize(forCell: size, viewportSize: viewportSize, scale: displayScale)
        else { return nil }
        return ThumbnailKey(id: id, size: thumbnail)
    }

    /// Loads `key` for as long as this view shows it (the task is cancelled
    /// when the view leaves or the key changes).
    @MainActor
    private func load(_ key: ThumbnailKey?) async {
        guard let key, let loading else { return }
        let showing = shown?.id == key.id && shown?.isImage == true ? key.id : nil
        if let now = loading.cellLoad.immediateDisplay(of: key, showing: showing, from: loading.loader) {
            shown = Shown(id: key.id, display: now)
            if case .image = now { return }
        }
        let priority = loading.priority(for: itemIndex)
        guard let final = await loading.cellLoad.load(key, priority: priority, showing: showing, from: loading.loader)
        else { return }
        var fade: TimeInterval = 0
        if case .image(_, let duration) = final { fade = duration }
        withAnimation(reduceMotion || fade == 0 ? nil : .easeIn(duration: fade)) {
            shown = Shown(id: key.id, display: final)
        }
    }
}

/// What a ``ParallaxLoadedImage`` shows, and for which photo.
private struct Shown {
    var id: ImageID
    var display: ImageDisplay

    var isImage: Bool {
        if case .image = display { return true }
        return false
    }
}

/// Keeps a view's size in a binding, written only when it changes: Apple's
/// `onGeometryChange(for:of:action:)` with Xcode 16's SDKs (back-deployed
/// to iOS 16), a background's preference before.
private struct SizeReader: ViewModifier {
    @Binding var size: CGSize

    func body(content: Content) -> some View {
        #if canImport(SwiftUICore)
        content.onGeometryChange(for: CGSize.self) { $0.size } action: { size = $0 }
        #else
        content.background(
            GeometryReader { proxy in Color.clear.preference(key: SizeKey.self, value: proxy.size) }
                .onPreferenceChangeOnMainActor(SizeKey.self) { size = $0 }
        )
        #endif
    }
}

#if !canImport(SwiftUICore)
private struct SizeKey: PreferenceKey {
    static let defaultValue = CGSize.zero

    static func reduce(value: inout CGSize, nextValue: () -> CGSize) {}
}
#endif
#endif
