#if canImport(SwiftUI) && canImport(UIKit)
import ParallaxCore
import ParallaxImages
import ParallaxSwiftUI
import SwiftUI

/// The same photos in SwiftUI: a list of rows whose pictures move with
/// depth parallax, each loaded by its own row while the row is on screen
/// (cancelled when it leaves), through the same pipeline, at exactly the
/// size the row shows it (its overscan included), with a cross-fade for
/// anything that was not in memory.
struct SwiftUIGalleryScreen: View {
    let photos: [ImageID]
    let loader: ImageLoader

    @State private var loading: ParallaxImageLoading?

    var body: some View {
        GeometryReader { proxy in
            ScrollView {
                LazyVStack(spacing: 8) {
                    ForEach(photos, id: \.self) { id in
                        PhotoRow(id: id, photoHeight: proxy.size.width / 2)
                    }
                }
            }
            .parallaxScrollContainer()
        }
        .background(Color.black)
        .modifier(LoadingProvider(loading: loading))
        .task { if loading == nil { loading = ParallaxImageLoading(loader: loader) } }
    }
}

/// Hands the screen's loading to its photos once it exists.
private struct LoadingProvider: ViewModifier {
    let loading: ParallaxImageLoading?

    func body(content: Content) -> some View {
        if let loading {
            content.parallaxImageLoading(loading)
        } else {
            content
        }
    }
}

/// One photo, as wide as the screen and half as tall (RolfHendriks' UICollectionView-Demo's list), with its
/// name under it: the name wraps and grows with Dynamic Type instead of being clipped by the photo's frame.
private struct PhotoRow: View {
    let id: ImageID
    let photoHeight: CGFloat

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            ParallaxLoadedImage(id, label: Text(name), effect: .listDefault)
                .frame(height: photoHeight)
                .clipped()
            Text(name)
                .font(.headline)
                .foregroundStyle(.white)
                .fixedSize(horizontal: false, vertical: true)    // never truncated at large text sizes
                .padding(.horizontal, 8)
                .accessibilityHidden(true)                       // the photo's label says it
        }
    }

    private var name: String { (id.rawValue as NSString).deletingPathExtension }
}
#endif
