#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import ParallaxHosting
import SwiftUI

/// Where a scroll view is, kept where no view reads it while it scrolls:
/// a reference a view holds in its state (no view observes it), written
/// once a scrolled frame and read only when something happens (a pinch
/// begins, a hand-off waits for the scroll view). Writing it invalidates
/// nothing, so scrolling rebuilds no view.
@MainActor
final class GridScrollReadout {
    /// The content offset the scroll view last reported.
    var contentOffset: CGPoint = .zero
    /// Whether a report has arrived.
    var hasReported = false
    /// The edges of the scroll view its bars cover, as
    /// ``SwiftUI/View/parallaxScrollContainer()`` measures them.
    var insets = ParallaxCore.EdgeInsets.zero
}

/// What a content view reports of the scroll view it is in, once a
/// scrolled frame: its offset, and the band of content worth building,
/// which changes only a few times a screen (``ScrollBand``).
struct GridScrollReport: Sendable, Equatable {
    var contentOffset: CGPoint
    var band: ScrollBand

    /// The report for content of `contentSize` showing `visible` (its
    /// coordinates) of a vertical scroll view.
    init(visible: CGRect, contentSize: CGSize) {
        contentOffset = visible.origin
        band = ScrollBand(visible: visible, axis: .vertical, contentExtent: contentSize.height)
    }
}

#if canImport(SwiftUI, _version: 5.0)
@available(iOS 17, macOS 14, tvOS 17, visionOS 1, *)
extension View {
    /// Reports the scroll view this content is directly inside: `offset`
    /// once a scrolled frame (write no state that a view reads from it), and
    /// `band` only when the band of content to build changes.
    ///
    /// With Xcode 16's SDKs this is Apple's `onGeometryChange(for:of:action:)`
    /// (back-deployed to iOS 16), which runs its transform as geometry
    /// changes and its action only when the derived value does, with no
    /// view body; with older SDKs a preference read by a background, whose
    /// action runs when the value changes.
    @MainActor
    func reportingGridScroll(offset: @escaping @MainActor (CGPoint) -> Void,
                             band: @escaping @MainActor (ScrollBand) -> Void) -> some View {
        #if canImport(SwiftUICore)
        onGeometryChange(for: ScrollBand.self) { proxy in
            GridScrollReport(visible: proxy.bounds(of: .scrollView) ?? .zero, contentSize: proxy.size).band
        } action: { newBand in
            band(newBand)
        }
        .onGeometryChange(for: CGPoint.self) { proxy in
            proxy.bounds(of: .scrollView)?.origin ?? .zero
        } action: { newOffset in
            offset(newOffset)
        }
        #else
        background(
            GeometryReader { proxy in
                Color.clear.preference(key: GridScrollReportKey.self,
                                       value: GridScrollReport(visible: proxy.bounds(of: .scrollView) ?? .zero,
                                                               contentSize: proxy.size))
            }
            .onPreferenceChangeOnMainActor(GridScrollReportKey.self) { report in
                guard let report else { return }
                offset(report.contentOffset)
                band(report.band)
            }
        )
        #endif
    }
}

#if !canImport(SwiftUICore)
/// Carries the report from the content's background (SDKs before Xcode 16).
private struct GridScrollReportKey: PreferenceKey {
    static let defaultValue: GridScrollReport? = nil

    static func reduce(value: inout GridScrollReport?, nextValue: () -> GridScrollReport?) {
        value = value ?? nextValue()
    }
}
#endif
#endif
#endif
