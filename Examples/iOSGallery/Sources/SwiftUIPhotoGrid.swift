// DensityPinchGrid (MagnifyGesture) comes with the iOS 17 SDK, as the Observation module does; with an
// older SDK the "grid" is the list. (`canImport(SwiftUI, _version: 5.0)` says the same, but in a module
// where another file has already loaded SwiftUI its version cannot be read, and the check is ignored.)
#if canImport(Observation) && canImport(SwiftUI) && canImport(UIKit)
import ParallaxCore
import ParallaxImages
import ParallaxSwiftUI
import SwiftUI

/// Three columns to start with; pinch between one (the list) and six.
/// VoiceOver's zoom action changes the count too. The grid loads ahead
/// (`imageID`), for the size its cells draw at (`imageEffect`). A tap
/// opens the photo; each picture is a zoom transition's source.
@available(iOS 17, *)
struct PhotoGrid: View {
    let photos: [GalleryPhoto]
    let zoom: Namespace.ID
    let open: (Int) -> Void
    @State private var columns = 3

    var body: some View {
        DensityPinchGrid(photos, columns: $columns, range: 1...6, imageID: { $0.id },
                         imageEffect: .gridDefault) { photo in
            ParallaxLoadedImage(photo.id, label: Text(photo.name), effect: .gridDefault)
                .parallaxZoomSource(id: photo.id, in: zoom)
                .onTapGesture { open(photo.index) }
                .accessibilityAddTraits(.isButton)
        }
    }
}
#elseif canImport(SwiftUI) && canImport(UIKit)
import SwiftUI

/// Built with an SDK older than iOS 17's: the list.
@available(iOS 17, *)
struct PhotoGrid: View {
    let photos: [GalleryPhoto]
    let zoom: Namespace.ID
    let open: (Int) -> Void

    var body: some View {
        PhotoList(photos: photos.map(\.id), zoom: zoom, open: open)
    }
}
#endif
