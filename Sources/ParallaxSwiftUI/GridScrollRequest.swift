#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxHosting
import SwiftUI

/// A request to move a grid's scroll view to a content offset: a new
/// ``serial`` is a new request, even to the same point.
struct GridScrollAsk: Sendable, Equatable {
    var serial: Int
    var point: CGPoint

    init?(_ request: PinchHandOff.ScrollRequest?) {
        guard let request else { return nil }
        serial = request.serial
        point = request.requested
    }
}

#if canImport(SwiftUI, _version: 5.0)
/// Moves the scroll view inside the modified view when a new
/// ``GridScrollAsk`` arrives: from iOS 18 and macOS 15 with a
/// `ScrollPosition` scrolled to the point (Apple's
/// `ScrollPosition.scrollTo(point:)`), before that with
/// `ScrollViewProxy.scrollTo` of a marker the grid places at the point
/// (plus the top and left insets, since that aligns to the safe area). The
/// caller checks where the scroll view went (``PinchHandOff``), so an API
/// that lands elsewhere is corrected, never trusted.
@available(iOS 17, macOS 14, *)
struct GridScrollRequester: ViewModifier {
    var ask: GridScrollAsk?
    var markerID: String
    var proxy: ScrollViewProxy

    func body(content: Content) -> some View {
        #if canImport(SwiftUICore)                          // the Xcode 16 SDKs, where ScrollPosition is
        if #available(iOS 18.0, macOS 15.0, *) {
            content.modifier(PositionScrollRequester(ask: ask))
        } else {
            markerRequests(content)
        }
        #else
        markerRequests(content)
        #endif
    }

    private func markerRequests(_ content: Content) -> some View {
        content.onChange(of: ask) { _, ask in
            guard ask != nil else { return }
            proxy.scrollTo(markerID, anchor: .topLeading)
        }
    }
}

#if canImport(SwiftUICore)
/// ``GridScrollRequester`` from iOS 18: a scroll position bound to the
/// scroll view, scrolled to each request's point.
@available(iOS 18.0, macOS 15.0, *)
private struct PositionScrollRequester: ViewModifier {
    var ask: GridScrollAsk?
    @State private var position = ScrollPosition()

    func body(content: Content) -> some View {
        content
            .scrollPosition($position)
            .onChange(of: ask) { _, ask in
                guard let ask else { return }
                position.scrollTo(point: ask.point)
            }
    }
}
#endif
#endif
#endif
