#if canImport(SwiftUI) && canImport(UIKit)
import ParallaxCore
import ParallaxImages
import ParallaxSwiftUI
import SwiftUI

/// The same photos in SwiftUI: on iOS 17 a grid whose column count follows
/// a pinch (`DensityPinchGrid`), before it a list of rows. Every picture
/// moves with depth parallax and is loaded by its own cell while the cell
/// is on screen (cancelled when it leaves), through the same pipeline, at
/// exactly the size the cell shows it (its overscan included), with a
/// cross-fade for anything that was not in memory. The grid plans loading
/// ahead: two screens in the direction of travel, and the screen where a
/// fling will stop.
///
/// `loading` is made by whoever shows the screen, before its first frame,
/// so photos already in memory are in that frame.
struct SwiftUIGalleryScreen: View {
    let photos: [ImageID]
    let loading: ParallaxImageLoading

    var body: some View {
        photoViews
            .background(Color.black)
            .parallaxImageLoading(loading)
    }

    /// The grid where the system has it (and the SDK: `PhotoGrid`), the list otherwise.
    @ViewBuilder private var photoViews: some View {
        if #available(iOS 17, *) {
            PhotoGrid(photos: photos.map(GalleryPhoto.init))
        } else {
            PhotoList(photos: photos)
        }
    }
}

/// A photo of the grid, identified by its image.
struct GalleryPhoto: Identifiable {
    let id: ImageID

    var name: String { (id.rawValue as NSString).deletingPathExtension }
}

/// Before iOS 17: one photo a row.
struct PhotoList: View {
    let photos: [ImageID]

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
