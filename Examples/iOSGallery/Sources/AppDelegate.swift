#if canImport(UIKit)
import UIKit

/// The example gallery: RolfHendriks' UICollectionView-Demo's photo browser rebuilt on ParallaxKit.
/// A grid ↔ list switch that keeps the photo you were looking at, depth
/// parallax in every cell, photos from a simulated server (0–2 s latency)
/// with placeholders and cross-fades, and a small SwiftUI screen.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        let store = PhotoStore(photoFolder: Bundle.main.resourceURL?.appendingPathComponent("Photos"))
        window.rootViewController = UINavigationController(rootViewController: GalleryViewController(store: store))
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}
#endif
