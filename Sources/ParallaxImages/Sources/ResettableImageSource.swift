/// A source whose downloads can be forgotten or erased, like the
/// simulated server; the loader forwards its own reload and erase.
public protocol ResettableImageSource: ImageSource {
    /// Forgets every download: each picture downloads again.
    func reloadAll() async
    /// Removes everything; the list must be fetched again.
    func eraseAll() async
}

extension SimulatedImageServer: ResettableImageSource {}
