import Foundation
import ParallaxImages
import ParallaxLayout

/// How loading names the photo of an item, without keeping the object
/// that knows alive: the closure gets that object (the `owner`, held
/// weakly) as its argument, so it never needs to capture it.
///
/// A parallax controller lives as long as its scroll view, which its view
/// controller's view keeps; a naming closure that captured the view
/// controller would keep it alive through its own view, for ever. Here
/// the closure is given the owner, and once the owner is gone it names
/// nothing:
///
/// ```swift
/// controller.followLoading(loading, owner: self) { owner, index in owner.photos[index.item].id }
/// ```
///
/// Complexity: O(1) besides the closure.
@MainActor
public final class ItemImageNaming {
    private weak var owner: AnyObject?
    private let name: @MainActor (AnyObject, ItemIndex) -> ImageID?

    /// Names items through `name`, given `owner` while it lives.
    public init<Owner: AnyObject>(owner: Owner, _ name: @escaping @MainActor (Owner, ItemIndex) -> ImageID?) {
        self.owner = owner
        self.name = { owner, index in
            // Only ever called with the owner stored above, which is an `Owner`.
            guard let owner = owner as? Owner else { return nil }
            return name(owner, index)
        }
    }

    /// Whether the owner still lives.
    public var isOwnerAlive: Bool { owner != nil }

    /// The photo of the item at `index`: `nil` for none, and always once
    /// the owner is gone.
    public func imageID(for index: ItemIndex) -> ImageID? {
        guard let owner else { return nil }
        return name(owner, index)
    }
}
