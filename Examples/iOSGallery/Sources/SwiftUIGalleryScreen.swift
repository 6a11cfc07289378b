#if canImport(SwiftUI) && canImport(UIKit)
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
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
///
/// A tapped photo opens full screen (`SwiftUIPhotoDetail`): on iOS 18 it
/// zooms from the picture as its tile draws it (`parallaxZoomSource`),
/// before that the cover slides up.
struct SwiftUIGalleryScreen: View {
    let photos: [ImageID]
    let loading: ParallaxImageLoading
    @Namespace private var zoom
    @State private var opened: OpenedPhoto?

    var body: some View {
        photoViews
            .background(Color.black)
            .parallaxImageLoading(loading)
            .fullScreenCover(item: $opened) { opened in
                SwiftUIPhotoDetail(photos: photos, loader: loading.loader, zoom: zoom, paging: opened.paging)
            }
    }

    /// The grid where the system has it (and the SDK: `PhotoGrid`), the list otherwise.
    @ViewBuilder private var photoViews: some View {
        if #available(iOS 17, *) {
            PhotoGrid(photos: photos.enumerated().map { GalleryPhoto(id: $1, index: $0) }, zoom: zoom, open: open)
        } else {
            PhotoList(photos: photos, zoom: zoom, open: open)
        }
    }

    private func open(_ index: Int) {
        opened = DetailPaging(opening: ItemIndex(item: index), itemCounts: [photos.count]).map(OpenedPhoto.init)
    }
}

/// The photo the detail view opened with, and its paging.
struct OpenedPhoto: Identifiable {
    var paging: DetailPaging

    var id: ItemIndex { paging.opened }
}

/// A photo of the grid, identified by its image.
struct GalleryPhoto: Identifiable {
    let id: ImageID
    /// Its position among the photos.
    let index: Int

    var name: String { (id.rawValue as NSString).deletingPathExtension }
}

/// Before iOS 17: one photo a row; a tap opens it.
struct PhotoList: View {
    let photos: [ImageID]
    let zoom: Namespace.ID
    let open: (Int) -> Void

    var body: some View {
        GeometryReader { proxy in
            ScrollView {
                LazyVStack(spacing: 8) {
                    ForEach(Array(photos.enumerated()), id: \.element) { index, id in
                        PhotoRow(id: id, photoHeight: proxy.size.width / 2, zoom: zoom)
                            .onTapGesture { open(index) }
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
    let zoom: Namespace.ID

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            ParallaxLoadedImage(id, label: Text(name), effect: .listDefault)
                .parallaxZoomSource(id: id, in: zoom)
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
