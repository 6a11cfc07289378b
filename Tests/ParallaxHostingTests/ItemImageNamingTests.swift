import Foundation
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing

/// The shapes UIKit gives the cycle: a view controller owns its view (here, the scroll view), the scroll view keeps
/// its parallax controller, and the controller keeps loading's naming.
@MainActor
private final class FakeParallaxController {
    var naming: ItemImageNaming?
}

@MainActor
private final class FakeScrollViewForCycle {
    let controller = FakeParallaxController()
}

@MainActor
private final class FakeViewController {
    let scrollView = FakeScrollViewForCycle()
    let photos = [ImageID("a.jpg"), ImageID("b.jpg")]

    func followLoading() {
        // The app's closure reads the view controller through its argument: nothing captures `self`.
        scrollView.controller.naming = ItemImageNaming(owner: self) { owner, index in
            owner.photos.indices.contains(index.item) ? owner.photos[index.item] : nil
        }
    }
}

@MainActor
@Suite("ItemImageNaming: loading's naming never keeps the view controller alive")
struct ItemImageNamingTests {
    @Test("the controller releases a view controller its naming reads")
    func noCycle() {
        var viewController: FakeViewController? = FakeViewController()
        weak let released = viewController
        viewController?.followLoading()
        let naming = viewController?.scrollView.controller.naming
        #expect(naming?.imageID(for: ItemIndex(item: 1)) == ImageID("b.jpg"))
        #expect(naming?.imageID(for: ItemIndex(item: 9)) == nil)
        viewController = nil
        #expect(released == nil, "the view controller went away with its scroll view and controller")
        #expect(naming?.isOwnerAlive == false)
        #expect(naming?.imageID(for: ItemIndex(item: 1)) == nil, "once the owner is gone, nothing is named")
    }
}
