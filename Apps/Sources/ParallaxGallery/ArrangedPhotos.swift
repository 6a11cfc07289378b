import ParallaxImages

/// The photos in the order shown: `photos[item]` is the photo at position
/// `item`. A view over an arrangement's order and the timeline's IDs
/// (``PhotoTimeline``), made in O(1): building an array of 100,000 IDs at
/// every re-sort (a date read, a batch found) cost the frame loop 5-14 ms
/// each time, a retain and a release per photo.
///
/// Made on demand and dropped at once (``GalleryModel/photos``): a view
/// kept while the timeline grows would make the next growth copy its IDs.
///
/// Complexity: O(1) to make and to subscript.
package struct ArrangedPhotos: RandomAccessCollection, Sendable {
    /// The photo number at each position.
    let order: [Int32]
    /// Every photo's ID, by number.
    let ids: [ImageID]

    package var startIndex: Int { 0 }
    package var endIndex: Int { order.count }
    package subscript(position: Int) -> ImageID { ids[Int(order[position])] }
}
