#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// Something a layout had to adjust while placing items. Layouts never
/// log; they record what they did so the app can decide what to say.
public enum LayoutDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// An item asked for more columns than the layout has; it was placed at
    /// column 0, clipped to the width (RFQuiltLayout's rule).
    case clippedToWidth(ItemIndex, requested: Int, available: Int)
    /// An item's size was unusable (zero, negative or not finite) and was
    /// replaced by the default.
    case invalidItemSize(ItemIndex, String)
    /// An item's aspect ratio was outside ``ItemAspectRatio/range`` and was
    /// placed at the range's nearer end.
    case clampedAspectRatio(ItemIndex, String)

    /// A sentence saying which item was adjusted and how, for a log.
    public var description: String {
        switch self {
        case let .clippedToWidth(index, requested, available):
            return "item \(index) spans \(requested) blocks but the quilt has \(available) columns: clipped"
        case let .invalidItemSize(index, size):
            return "item \(index) has an unusable size \(size): used the default"
        case let .clampedAspectRatio(index, size):
            return "item \(index) has an extreme aspect ratio \(size): clamped to 1:64…64:1"
        }
    }
}
