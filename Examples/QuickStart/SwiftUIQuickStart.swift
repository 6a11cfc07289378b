#if canImport(SwiftUI)
import ParallaxSwiftUI
import SwiftUI

/// A list of photos whose pictures lag a little behind their cells as they
/// scroll (depth parallax, 30 pt either way).
struct PhotoList: View {
    let photos: [String]                                  // asset catalog names

    var body: some View {
        ScrollView {
            LazyVStack(spacing: 12) {
                ForEach(photos, id: \.self) { name in
                    ParallaxImage(Image(name))            // fills its frame, clipped
                        .frame(height: 220)
                        .clipShape(RoundedRectangle(cornerRadius: 16))
                }
            }
            .padding()
        }
        .parallaxScrollContainer()                        // measures the scroll view
    }
}
#endif

#if canImport(SwiftUI, _version: 5.0)
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
