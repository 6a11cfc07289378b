import Foundation

/// Which redirects ``HTTPImageSource`` follows.
///
/// A listing or a photo URL that redirects somewhere else is a way for a
/// server to make the gallery fetch what the user never named (another
/// host, another port on the same machine, a `file:` URL), so by default
/// only redirects that stay on the origin of the source's base URL (same
/// scheme, host and port, RFC 6454) are followed; ``allowing(_:)`` names
/// more origins. A redirect to a scheme other than `http` or `https` is
/// never followed, whatever is allowed.
public struct HTTPRedirectPolicy: Sendable, Hashable {
    /// The origins followed besides the base URL's own, as
    /// `scheme://host:port` with the port always written.
    public private(set) var allowedOrigins: Set<String>

    /// Same origin only: the default.
    public static let sameOrigin = HTTPRedirectPolicy(allowedOrigins: [])

    /// Same origin, and the origins of `urls` (their paths are ignored):
    /// for a photo server that hands pictures off to a CDN, say.
    public static func allowing(_ urls: [URL]) -> HTTPRedirectPolicy {
        HTTPRedirectPolicy(allowedOrigins: Set(urls.compactMap(origin(of:))))
    }

    /// Whether a redirect to `target`, from a source whose base URL is
    /// `base`, may be followed; `nil` if so, else why not.
    func refusal(of target: URL, base: URL) -> String? {
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "the server redirected to \(target.absoluteString), which is not an http or https URL; not followed"
        }
        guard let origin = Self.origin(of: target) else {
            return "the server redirected to \(target.absoluteString), which names no host; not followed"
        }
        if origin == Self.origin(of: base) || allowedOrigins.contains(origin) { return nil }
        return "the server redirected to another origin (\(origin)); not followed (HTTPRedirectPolicy.allowing(_:) names origins to follow)"
    }

    /// `scheme://host:port` of an http(s) URL, lowercased, with the default
    /// port written out; `nil` for other URLs.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }
}
