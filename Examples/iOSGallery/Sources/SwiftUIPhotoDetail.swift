#if canImport(SwiftUI) && canImport(UIKit)
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import ParallaxSwiftUI
import SwiftUI

/// The SwiftUI screen's photo, fitted to the screen: zoomed in from its
/// tile on iOS 18 (`parallaxZoomDestination`, matched by the tile's
/// `parallaxZoomSource`), shown as a plain full-screen cover before.
///
/// A horizontal swipe (or VoiceOver's actions) pages to the next or
/// previous photo, a swipe down or the close button closes it. The zoom
/// returns to the photo shown when it closes: its identifier is the
/// transition's source identifier, so SwiftUI zooms back to that tile if
/// the grid has it on screen, and to the screen's centre otherwise (SwiftUI
/// has no hook to scroll the grid first, as UIKit's provider has).
///
/// What shows first: the screen-sized photo if it is in memory (neighbours
/// are loaded ahead as a photo arrives), else the photo's preview (a
/// ThumbHash from the manifest, or the one the loader made), else black,
/// until the photo arrives and fades in.
struct SwiftUIPhotoDetail: View {
    let photos: [ImageID]
    let loader: ImageLoader
    let zoom: Namespace.ID
    @State var paging: DetailPaging
    /// The photo last loaded, and which it is.
    @State private var shown: ShownPhoto?

    @Environment(\.dismiss) private var dismiss
    @Environment(\.displayScale) private var displayScale

    var body: some View {
        let id = currentID
        GeometryReader { proxy in
            picture(of: id)
                .frame(width: proxy.size.width, height: proxy.size.height)
                .task(id: LoadKey(id: id, size: proxy.size)) { await load(id, size: proxy.size) }
        }
        .background(Color.black)
        .ignoresSafeArea()
        .overlay(alignment: .topTrailing) {
            Button { dismiss() } label: {
                Image(systemName: "xmark.circle.fill")
                    .font(.title)
                    .foregroundStyle(.white.opacity(0.8))
            }
            .padding()
            .accessibilityLabel(Text("Close"))
        }
        .contentShape(Rectangle())
        .gesture(DragGesture(minimumDistance: 24).onEnded(swiped))
        .accessibilityElement(children: .contain)
        .accessibilityAction(named: Text("Next photo")) { _ = paging.pageForward() }
        .accessibilityAction(named: Text("Previous photo")) { _ = paging.pageBackward() }
        .parallaxZoomDestination(sourceID: id, in: zoom)
    }

    private var currentID: ImageID {
        photos.indices.contains(paging.current.item) ? photos[paging.current.item] : ""
    }

    /// The loaded photo, the preview, or black.
    @ViewBuilder
    private func picture(of id: ImageID) -> some View {
        if let shown, shown.id == id, let image = shown.pixels.makeCGImage() {
            Image(decorative: image, scale: displayScale)
                .resizable()
                .scaledToFit()
                .transition(.opacity)
                .accessibilityLabel(Text(name(of: id)))
        } else if let preview = loader.previews.image(for: id)?.makeCGImage() {
            Image(decorative: preview, scale: 1)
                .resizable()
                .scaledToFit()
                .accessibilityLabel(Text(name(of: id)))
        } else {
            Color.black
                .accessibilityLabel(Text(name(of: id)))
        }
    }

    private func name(of id: ImageID) -> String { (id.rawValue as NSString).deletingPathExtension }

    private func swiped(_ value: DragGesture.Value) {
        let dx = value.translation.width, dy = value.translation.height
        if abs(dx) > abs(dy) {
            _ = dx < 0 ? paging.pageForward() : paging.pageBackward()
        } else if dy > 80 {
            dismiss()
        }
    }

    /// Loads the photo fitted in `size` at the screen's scale (at once from
    /// memory, with a fade otherwise), then its neighbours ahead.
    @MainActor
    private func load(_ id: ImageID, size: CGSize) async {
        guard let photoKey = key(for: id, size: size) else { return }
        if let cached = loader.memoryCache.image(for: photoKey) {
            shown = ShownPhoto(id: id, pixels: cached)
        } else {
            guard let loaded = try? await loader.image(for: photoKey, priority: .visible), !Task.isCancelled else { return }
            withAnimation(.easeIn(duration: 0.25)) { shown = ShownPhoto(id: id, pixels: loaded.image) }
        }
        let neighbours = [paging.next, paging.previous].compactMap { index in
            index.flatMap { photos.indices.contains($0.item) ? key(for: photos[$0.item], size: size) : nil }
        }
        await loader.prefetch(neighbours)
    }

    private func key(for id: ImageID, size: CGSize) -> ThumbnailKey? {
        guard let thumbnail = try? ThumbnailSize(points: size, scale: displayScale, mode: .fit) else { return nil }
        return ThumbnailKey(id: id, size: thumbnail)
    }
}

/// A photo the detail view loaded.
private struct ShownPhoto: Sendable {
    var id: ImageID
    var pixels: PixelImage
}

/// What the detail view's load depends on.
private struct LoadKey: Hashable {
    var id: ImageID
    var width: CGFloat
    var height: CGFloat

    init(id: ImageID, size: CGSize) {
        self.id = id
        width = size.width
        height = size.height
    }
}
#endif
