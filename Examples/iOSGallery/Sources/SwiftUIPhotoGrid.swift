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
/// (`imageID`), for the size its cells draw at (`imageEffect`).
@available(iOS 17, *)
struct PhotoGrid: View {
    let photos: [GalleryPhoto]
    @State private var columns = 3

    var body: some View {
        DensityPinchGrid(photos, columns: $columns, range: 1...6, imageID: { $0.id },
                         imageEffect: .gridDefault) { photo in
            ParallaxLoadedImage(photo.id, label: Text(photo.name), effect: .gridDefault)
        }
    }
}
#elseif canImport(SwiftUI) && canImport(UIKit)
import SwiftUI

/// Built with an SDK older than iOS 17's: the list.
@available(iOS 17, *)
struct PhotoGrid: View {
    let photos: [GalleryPhoto]

    var body: some View {
        PhotoList(photos: photos.map(\.id))
    }
}
#endif
