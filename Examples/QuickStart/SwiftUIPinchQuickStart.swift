#if canImport(SwiftUI, _version: 5.0)                      // the iOS 17 / macOS 14 SDKs
import ParallaxSwiftUI
import SwiftUI

/// A photo grid whose column count follows a pinch (iOS 17): the photo
/// under the fingers stays under them; the count it settles on is kept.
@available(iOS 17, macOS 14, *)
struct PinchablePhotoGrid: View {
    struct Photo: Identifiable {
        let name: String                                  // an asset catalog name
        var id: String { name }
    }

    let photos: [Photo]
    @State private var columns = 3

    var body: some View {
        DensityPinchGrid(photos, columns: $columns, range: 1...6) { photo in
            ParallaxImage(Image(photo.name))              // the grid is its own scroll container
        }
    }
}
#endif
