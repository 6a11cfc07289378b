#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxLayout
import SwiftUI

#if canImport(SwiftUI, _version: 5.0)
/// The pinch: the gesture, the overlay that draws it, the settle and the
/// hand-off back to the scroll view (see ``DensityPinchGrid``).
@available(iOS 17, macOS 14, *)
extension DensityPinchGrid {
    func magnify(size: CGSize) -> some Gesture {
        MagnifyGesture()
            .updating($isMagnifying) { _, magnifying, _ in magnifying = true }
            .onChanged { value in
                if handOff.phase != .pinching { begin(at: value.startLocation, size: size) }
                pinch?.change(scale: value.magnification, focus: value.startLocation)
            }
            .onEnded { value in endPinch(velocity: value.velocity, cancelled: false) }
    }

    /// The fingers came down at `focus` (the scroll view's coordinates).
    func begin(at focus: CGPoint, size: CGSize) {
        // Where the scroll view is, or is being sent (never where a hand-off has not got it to yet).
        var offset = handOff.startingOffset(reported: readout.contentOffset)
        var restingColumns = columns
        var shown = restingLayout(size: size)
        // A pinch that begins while the last one settles: that one rests at once, where it was heading.
        // (Locals, not the state just written: a state's new value may only be read on the next update.)
        if var settling = pinch, let rest = settling.finishSettling() {
            restingColumns = settling.columns
            offset = rest
            columns = restingColumns
            remember(settling, size: pinchSize)
            if pinchSize == size, let layout = try? settling.restingLayout(containerSize: size, itemCounts: [data.count])
                as? ParallaxLayout.GridLayout {
                shown = layout
            }
        }
        let configuration = self.configuration
        let shownColumns = restingColumns, shownCount = data.count
        // It begins on the grid shown, which an earlier pinch may have aligned.
        var columnPinch = ColumnPinch(columns: restingColumns, range: range) { n, size, counts throws(LayoutError) in
            if n == shownColumns, counts == [shownCount], size == shown.containerSize { return shown }
            return try Self.makeLayout(columns: n, configuration: configuration, count: counts.first ?? 0, size: size)
        }
        let viewport = ScrollViewport(size: size, contentOffset: offset)
        if columnPinch.begin(viewport: viewport, focus: focus, containerSize: size, itemCounts: [data.count]) {
            pinch = columnPinch
            pinchSize = size
            settleStart = nil
            handOff.beginPinch()
            bandLoading.released(at: offset.y, towards: nil)     // scrolling stops under a pinch
        } else {
            pinch = nil
            settleStart = nil
            handOff.cancel()
        }
    }

    /// The fingers lifted (or the system cancelled the gesture): the
    /// overlay settles on the nearer count.
    func endPinch(velocity: CGFloat, cancelled: Bool) {
        guard handOff.phase == .pinching else { return }
        pinch?.end(scaleVelocity: velocity, cancelled: cancelled, at: 0)
        handOff.endPinch()
        settleStart = Date()
    }

    /// VoiceOver's zoom: one column fewer (larger photos) or more, with the
    /// first visible photo kept on screen through the same hand-off as a
    /// pinch's.
    func zoom(_ direction: AccessibilityZoomGestureAction.Direction, size: CGSize) {
        guard handOff.phase == .idle else { return }
        let current = min(max(columns, range.lowerBound), range.upperBound)
        let next = min(max(direction == .zoomIn ? current - 1 : current + 1, range.lowerBound), range.upperBound)
        guard next != current else { return }
        let before = restingLayout(size: size)
        var first: ItemIndex?
        before.forEachItem(in: CGRect(origin: readout.contentOffset, size: size)) { index, _ in
            if first == nil || index < first! { first = index }
        }
        columns = next
        guard let after = try? Self.makeLayout(columns: next, configuration: configuration, count: data.count, size: size),
              let first, let frame = after.frame(of: first) else { return }
        _ = handOff.rest(at: CGPoint(x: 0, y: frame.minY - readout.insets.top), contentSize: after.contentSize,
                         viewport: ScrollViewport(size: size, insets: readout.insets), reported: readout.contentOffset)
    }

    /// The cells while a pinch runs or settles, or while the scroll view is
    /// being handed the rest, in the scroll view's coordinates; each
    /// display frame moves the settle on, or counts against the hand-off.
    func pinchOverlay(size: CGSize, layout: ParallaxLayout.GridLayout) -> some View {
        TimelineView(.animation(paused: settleStart == nil && handOff.request == nil)) { timeline in
            let shown = overlayCells(size: size, layout: layout)
            let viewport = CGRect(origin: .zero, size: size)
            ZStack(alignment: .topLeading) {
                ForEach(shown.cells) { placed in
                    let frame = placed.frame.offsetBy(dx: -shown.offset.x, dy: -shown.offset.y)
                    cellView(placed, at: frame)
                        // Parallax inside follows the cell's frame in the viewport, as the scroll view's would.
                        .environment(\.parallaxPin, ParallaxPin(itemFrame: frame, viewport: viewport))
                }
            }
            .frame(width: size.width, height: size.height, alignment: .topLeading)
            .clipped()
            .onChange(of: timeline.date) { _, date in advance(to: date, size: size) }
        }
    }

    /// What the overlay shows: the pinch's interpolated cells at its
    /// offset, or, while the scroll view is handed the rest, the resting
    /// grid at the offset it is sent to.
    func overlayCells(size: CGSize, layout: ParallaxLayout.GridLayout)
        -> (cells: [PlacedCell<Data.Element.ID>], offset: CGPoint) {
        if let pinch, pinch.isActive {
            var cells: [PlacedCell<Data.Element.ID>] = []
            let data = self.data
            pinch.forEachItem { index, frame in
                guard index.item < data.count else { return }
                cells.append(PlacedCell(id: data[data.startIndex + index.item].id, index: index.item, frame: frame))
            }
            return (cells, pinch.contentOffset ?? .zero)
        }
        let offset = handOff.request?.target ?? readout.contentOffset
        return (placedCells(of: layout, in: CGRect(origin: offset, size: size)), offset)
    }

    /// Moves a settle to `date`; once it rests, the scroll view is sent to
    /// the count and offset it chose, and the hand-off waits for it. During
    /// the hand-off, counts the frame.
    func advance(to date: Date, size: CGSize) {
        guard let start = settleStart, var columnPinch = pinch else {
            if handOff.request != nil { _ = handOff.frameElapsed() }
            return
        }
        var resting = columnPinch                               // to ask where it rests, once it does
        if columnPinch.advance(to: date.timeIntervalSince(start)) {
            pinch = columnPinch
            return
        }
        let offset = resting.finishSettling() ?? readout.contentOffset
        remember(columnPinch, size: pinchSize)
        columns = columnPinch.columns
        pinch = nil
        settleStart = nil
        let layout = (try? columnPinch.restingLayout(containerSize: size, itemCounts: [data.count]))
        _ = handOff.rest(at: offset, contentSize: layout?.contentSize ?? .zero,
                         viewport: ScrollViewport(size: size, insets: readout.insets), reported: readout.contentOffset)
    }
}
#endif
#endif
