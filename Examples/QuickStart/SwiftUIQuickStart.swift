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
