/// A photo's preview as an app's own model holds it (a photo service's API
/// sends one with every photo: Immich's `thumbhash`, base64), for a view
/// to show until the photo arrives.
///
/// ```swift
/// cell.parallaxView.setImage(photo.id, preview: .thumbHash(photo.thumbhash), using: requests)
/// ```
///
/// Text that is not a hash gives no preview (the view shows its usual
/// placeholder), never an error: a server's field is not trusted.
public struct ImagePreview: Sendable, Hashable {
    /// The hash, or `nil` when the text given was not one.
    public let hash: ThumbHash?

    /// The preview of `hash`.
    public static func thumbHash(_ hash: ThumbHash) -> ImagePreview { ImagePreview(hash: hash) }

    /// The preview a base64 ThumbHash gives (`nil` text, or text that is
    /// not one: no preview).
    public static func thumbHash(_ base64: String?) -> ImagePreview {
        ImagePreview(hash: base64.flatMap { ThumbHash(base64: $0) })
    }
}
