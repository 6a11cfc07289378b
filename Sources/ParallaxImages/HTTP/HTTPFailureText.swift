import Foundation

/// What a failed request means to a caller of ``HTTPImageSource``, in one
/// sentence that names the URL and says what to do where there is
/// something to do.
enum HTTPFailureText {
    /// The error for a failed read of the index at `url`.
    static func indexError(_ failure: HTTPImageSource.FetchFailure, url: URL, attempts: String) -> ImageSourceError {
        switch failure {
        case .cancelled:
            return .cancelled
        case .status(let status) where status == 404 || status == 410:
            return .unavailable("there is no image index at \(url.absoluteString) (HTTP \(status)); check the base URL and the index path")
        case .status(let status) where status == 401 || status == 403:
            return .unavailable("the image index at \(url.absoluteString) answered HTTP \(status): the server wants a login or forbids the listing")
        case .status(let status):
            return .unavailable("the image index at \(url.absoluteString) answered HTTP \(status)")
        case .exhausted(let reason):
            return .unavailable("could not load the image index from \(url.absoluteString) (\(reason), \(attempts)); check that the server is running and reachable")
        case .final(let reason):
            return .unavailable("could not load the image index from \(url.absoluteString): \(reason)")
        }
    }

    /// The error for a failed fetch of the photo `id` at `url`.
    static func photoError(_ failure: HTTPImageSource.FetchFailure, id: ImageID, url: URL, attempts: String) -> ImageSourceError {
        switch failure {
        case .cancelled: return .cancelled
        case .status(let status) where status == 404 || status == 410: return .notFound(id)
        case .status(let status): return .transferFailed(id, "\(url.absoluteString) answered HTTP \(status)")
        case .exhausted(let reason): return .transferFailed(id, "\(reason) (\(url.absoluteString), \(attempts))")
        case .final(let reason): return .transferFailed(id, "\(reason) (\(url.absoluteString))")
        }
    }
}
