#if canImport(SwiftUI) && canImport(UIKit)
import ParallaxCore
import ParallaxImages
import ParallaxSwiftUI
import SwiftUI

/// The same photos in SwiftUI: a list of rows whose pictures move with
/// depth parallax, loaded through the same pipeline at exactly the size the
/// parallax image shows them (its overscan included), with a cross-fade
/// for anything that was not in memory.
struct SwiftUIGalleryScreen: View {
    let photos: [ImageID]
    let loader: ImageLoader

    var body: some View {
        GeometryReader { proxy in
            ScrollView {
                LazyVStack(spacing: 8) {
                    ForEach(photos, id: \.self) { id in
                        PhotoRow(id: id, loader: loader, viewportSize: proxy.size)
                    }
                }
            }
            .parallaxScrollContainer()
        }
        .background(Color.black)
    }
}

/// One photo, as wide as the screen and half as tall (RolfHendriks' UICollectionView-Demo's list).
private struct PhotoRow: View {
    let id: ImageID
    let loader: ImageLoader
    let viewportSize: CGSize

    @Environment(\.displayScale) private var displayScale
    @State private var image: Image?
    @State private var failure: String?

    private var rowSize: CGSize { CGSize(width: viewportSize.width, height: viewportSize.width / 2) }

    var body: some View {
        ZStack(alignment: .bottomLeading) {
            Color.black
            if let image {
                ParallaxImage(image, effect: .listDefault).transition(.opacity)
            } else if let failure {
                Text(failure).font(.caption).foregroundStyle(.secondary).padding()
            } else if let hash = loader.previews.hash(for: id) {
                // The photo's preview (the bundled manifest's, or one made by an earlier decode) until it arrives.
                ParallaxImage(nil as PixelImage?, preview: .thumbHash(hash), effect: .listDefault)
            }
            Text((id.rawValue as NSString).deletingPathExtension)
                .font(.headline)
                .foregroundStyle(.white)
                .shadow(color: .black, radius: 1)
                .padding(8)
        }
        .frame(width: rowSize.width, height: rowSize.height)
        .clipped()
        // Cancelled when the row leaves (its request is dropped) and run again when the size changes
        // (a rotation): the current picture stays until the sharper one arrives.
        .task(id: thumbnailKey) { await load(thumbnailKey) }
    }

    /// The picture at the size ParallaxImage shows it: the row plus the effect's overscan.
    private var thumbnailKey: ThumbnailKey? {
        let scroller = ParallaxScroller(effect: .listDefault)
        let contentSize = scroller.placement(forItemFrame: CGRect(origin: .zero, size: rowSize),
                                             in: CGRect(origin: .zero, size: viewportSize)).contentSize
        guard let size = try? ThumbnailSize(points: contentSize, scale: displayScale) else { return nil }
        return ThumbnailKey(id: id, size: size)
    }

    private func load(_ key: ThumbnailKey?) async {
        guard let key else { return }
        do throws(ImageLoadingError) {
            let loaded = try await loader.image(for: key)
            guard let cgImage = loaded.image.makeCGImage() else { return }
            withAnimation(.easeIn(duration: loaded.origin == .memory ? 0 : 0.25)) {
                image = Image(decorative: cgImage, scale: displayScale)
            }
        } catch {
            if error != .cancelled { failure = error.description }
        }
    }
}
#endif
