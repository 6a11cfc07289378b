/// How urgently a thumbnail is wanted: first by the range of the viewport
/// its item is in, then by how far the item is from where the user looks.
///
/// Ranges follow Texture's (AsyncDisplayKit's) interface states: what is on
/// screen, where the current fling will come to rest, what is about to
/// scroll in, what was just left behind, and everything else. A request's
/// priority can change while it waits (``ImageLoader/follow(_:)``), and
/// waiting work is always served most urgent first.
///
/// `a < b` means `a` is *less* urgent than `b`.
public struct LoadPriority: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The viewport range an item is in, least urgent first.
    public enum Range: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// In no range: scrolled past, or passing the screen too fast to
        /// be shown. Loaded last (or cancelled, under the cancel policy).
        case outside = 0
        /// Just behind the viewport, against the scroll direction.
        case behind
        /// Ahead of the viewport in the scroll direction.
        case ahead
        /// On screen where the current fling will come to rest.
        case landing
        /// On screen now, and staying long enough to be shown.
        case visible

        /// Whether `lhs` is less urgent than `rhs`.
        public static func < (lhs: Range, rhs: Range) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The range's name, as in `landing`.
        public var description: String {
            switch self {
            case .outside: return "outside"
            case .behind: return "behind"
            case .ahead: return "ahead"
            case .landing: return "landing"
            case .visible: return "visible"
            }
        }
    }

    /// The range the item is in.
    public var range: Range
    /// How far (in points) the item is from the part of the screen its
    /// range is measured from; within a range, nearer is more urgent. Never
    /// negative; `NaN` counts as infinitely far.
    public var distance: Double

    /// A priority in `range`, `distance` points away.
    public init(_ range: Range, distance: Double = 0) {
        self.range = range
        self.distance = distance.isNaN ? .infinity : max(distance, 0)
    }

    /// On screen.
    public static let visible = LoadPriority(.visible)
    /// About to scroll in: the priority of ``ImageLoader/prefetch(_:)``.
    public static let prefetch = LoadPriority(.ahead)
    /// Wanted by no range.
    public static let outside = LoadPriority(.outside)

    /// Whether the user is about to look at it (``Range/visible`` or
    /// ``Range/landing``): such work never waits for a download slot.
    public var isUrgent: Bool { range >= .landing }

    /// Whether `lhs` is less urgent than `rhs`: a lower range, or the same
    /// range farther away.
    public static func < (lhs: LoadPriority, rhs: LoadPriority) -> Bool {
        lhs.range != rhs.range ? lhs.range < rhs.range : lhs.distance > rhs.distance
    }

    /// The range and the distance, as in `ahead at 420 pt`; the range alone
    /// at distance 0.
    public var description: String {
        if distance == 0 { return range.description }
        // `distance` can be infinite (or huge), which `Int(_:)` cannot hold.
        guard distance < 1e15 else { return "\(range), infinitely far" }
        return "\(range) at \(Int(distance.rounded())) pt"
    }
}

/// What a surface wants loaded now, and how urgently: the items of its
/// viewport's ranges (see ``LoadPriority/Range``), handed to
/// ``ImageLoader/follow(_:)`` whenever the viewport moves into new items.
public struct LoadPlan: Sendable, Hashable {
    /// One thumbnail and its priority.
    public struct Entry: Sendable, Hashable {
        /// The thumbnail wanted.
        public var key: ThumbnailKey
        /// How urgently it is wanted.
        public var priority: LoadPriority

        /// `key`, wanted at `priority`.
        public init(key: ThumbnailKey, priority: LoadPriority) {
            self.key = key
            self.priority = priority
        }
    }

    /// The thumbnails, in any order.
    public var entries: [Entry]

    /// A plan of `entries` (none by default), in any order. A key listed
    /// more than once is loaded at its most urgent priority.
    public init(entries: [Entry] = []) { self.entries = entries }

    /// Adds `key` at `priority`.
    public mutating func append(_ key: ThumbnailKey, priority: LoadPriority) {
        entries.append(Entry(key: key, priority: priority))
    }
}
