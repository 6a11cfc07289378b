import Foundation
import ParallaxImages

/// What an image view shows for the thumbnail it asked for, in the order a
/// request goes through them (RolfHendriks' UICollectionView-Demo's photo browser).
public enum ImageDisplay: Sendable, Hashable {
    /// Nothing yet: show a placeholder.
    case placeholder(ImagePlaceholder)
    /// The thumbnail. Fade it in over `fadeDuration` seconds: 0 for a
    /// memory-cache hit (it is there at once, a fade would only flicker),
    /// the cross-fade duration for anything that had to load.
    case image(PixelImage, fadeDuration: TimeInterval)
    /// Loading failed; `message` says why (a view may offer a retry).
    case failure(String)
}

/// Which placeholder a cell shows while its picture loads.
public enum ImagePlaceholder: Sendable, Hashable {
    /// A preview of the photo itself (rendered from its ThumbHash: its
    /// colours and shapes, soft): better than either placeholder below,
    /// shown whenever the photo's preview is known. Draw it as the
    /// thumbnail would be drawn (same frame, filling it, scaled smoothly);
    /// the thumbnail then cross-fades over it.
    case preview(PixelImage)
    /// The picture must be downloaded: an illustration, as RolfHendriks' UICollectionView-Demo does,
    /// because the wait may be long.
    case uncached
    /// The picture is on this device and only has to decode (a fraction of
    /// a second): plain black, so the photo appears without a flash of
    /// artwork.
    case cached
}
