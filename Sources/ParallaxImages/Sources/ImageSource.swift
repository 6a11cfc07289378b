import Foundation

/// Names one picture a source offers (a file name, a URL path, a server
/// id). Plain text, so it can key caches and travel anywhere; it encodes as
/// that text alone (a `RawRepresentable` string).
public struct ImageID: RawRepresentable, Sendable, Hashable, Codable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    /// The name as the source spells it.
    public var rawValue: String

    /// The picture named `rawValue`. Every string is a valid name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The picture named `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The picture named by a literal, as in `let id: ImageID = "beach.jpg"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Orders names as their text does, so sorted lists read alphabetically.
    public static func < (lhs: ImageID, rhs: ImageID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The name itself.
    public var description: String { rawValue }
}

/// Why a source could not deliver.
public enum ImageSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source has no picture by that name.
    case notFound(ImageID)
    /// The source as a whole cannot be used (a missing folder, a server that
    /// does not answer); the text says what to do about it.
    case unavailable(String)
    /// A transfer failed (after retries, where the source retries).
    case transferFailed(ImageID, String)
    /// The source has something by that name, but not a picture it can
    /// hand out (a folder, a pipe, a file that is not an image, or one too
    /// large); the text says what it is.
    case unreadable(ImageID, String)
    /// The simulated server's injected failure.
    case simulatedFailure(ImageID)
    /// The source was erased while the request was under way.
    case erased(ImageID)
    /// The request was cancelled.
    case cancelled

    /// A sentence saying what went wrong, for a log or an error tile.
    public var description: String {
        switch self {
        case .notFound(let id): return "no image named \(id)"
        case .unavailable(let reason): return reason
        case let .transferFailed(id, reason): return "downloading \(id) failed: \(reason)"
        case let .unreadable(id, reason): return "\(id) \(reason)"
        case .simulatedFailure(let id): return "the simulated server failed \(id) on purpose"
        case .erased(let id): return "\(id) was erased while it downloaded"
        case .cancelled: return "cancelled"
        }
    }
}

/// Where pictures come from: the fetch stage of the pipeline.
///
/// A source lists what it has and hands out encoded bytes; it never
/// decodes. Sources are `Sendable` and safe to call concurrently (actors or
/// immutable values).
public protocol ImageSource: Sendable {
    /// The pictures on offer, in display order.
    func imageIDs() async throws(ImageSourceError) -> [ImageID]
    /// The encoded bytes of `id`.
    func data(for id: ImageID) async throws(ImageSourceError) -> Data
    /// Whether `id` is already stored on this device, so fetching it will be
    /// quick: a surface shows a black placeholder rather than an
    /// illustration while such an image decodes (RolfHendriks' UICollectionView-Demo).
    func isStoredLocally(_ id: ImageID) async -> Bool
    /// A short text that changes whenever the bytes of `id` do: a file's
    /// size and modification time, an HTTP `ETag` or `Last-Modified`. The
    /// disk cache keeps it with each thumbnail and serves a thumbnail only
    /// while it still matches, so an edited photo is never shown stale.
    /// `nil` when the source cannot tell cheaply (or the picture is gone):
    /// the disk cache is then skipped for it. The default is `nil`.
    func fingerprint(for id: ImageID) async -> String?
    /// Whether ``fingerprint(for:)`` asks a server (an HTTP `HEAD`): the
    /// loader then asks it only of a picture whose thumbnail the disk cache
    /// keeps, by default after showing that thumbnail
    /// (`ImageLoader.KeptThumbnailCheck`), and gives it a download slot, as
    /// it would a download; a picture downloaded is filed under the
    /// version its download gave (``versionedData(for:)``, which such a
    /// source should implement). `false` by default (a `stat`, a manifest).
    var fingerprintNeedsRequest: Bool { get }
    /// The bytes of `id`, with the fingerprint of exactly those bytes when
    /// the transfer says it (an HTTP answer's `ETag`), so the disk cache
    /// files a thumbnail under the version it was made from even if the
    /// picture changed since ``fingerprint(for:)`` was asked. The default
    /// returns ``data(for:)`` and `nil` (the earlier fingerprint stands).
    func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?)
    /// The format, pixel size and EXIF orientation of `id`, read from as few
    /// of its first bytes as the source can fetch: what a layout needs to
    /// give each photo its shape before its pixels arrive. The default reads
    /// the whole picture through ``data(for:)``; a folder reads its first
    /// kilobytes, an HTTP source asks for a byte range, a simulated server
    /// asks its backing source.
    /// - Throws: ``ImageSourceError/notFound(_:)``, or
    ///   ``ImageSourceError/unreadable(_:_:)`` when the bytes have no header
    ///   this reads (not a JPEG or PNG, or a damaged one).
    func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader
    /// The headers the source learned with its list, without reading any
    /// picture (an HTTP source's manifest states sizes): what a
    /// ``HeaderProbe`` publishes at once, before reading the others. Empty by
    /// default, and until ``imageIDs()`` has been asked.
    func listedHeaders() async -> [ImageID: ImageHeader]
    /// The previews the source learned with its list, without reading any
    /// picture (a manifest's `thumbhash`, as photo servers such as Immich
    /// serve): what a surface shows from the first frame, before any
    /// picture arrives (file them in the loader's `previews`). Empty by
    /// default, and until ``imageIDs()`` has been asked.
    func listedPreviews() async -> [ImageID: ThumbHash]
    /// The thumbnail a camera or phone embedded in photo `id`'s file
    /// (``EmbeddedThumbnail``), when reading it costs a small local read:
    /// a folder reads the file's first 64 KB. `nil` by default, for a photo
    /// without one, and for any failure (the photo itself reports those).
    func embeddedThumbnail(for id: ImageID) async -> EmbeddedThumbnail?
    /// The header of `id` and when the photo was taken, read together from
    /// the same first bytes (``CaptureDateReader``): what a gallery that
    /// shows a library in the order it was taken asks of each photo. The
    /// default is ``header(for:)`` and no date; a folder reads both from
    /// one opening of the file (and falls back to its modification time).
    /// - Throws: as ``header(for:)`` does.
    func headerAndCaptureDate(for id: ImageID) async throws(ImageSourceError) -> (header: ImageHeader, date: CaptureDate?)
    /// How many photos' headers and dates ``headersAndCaptureDates(for:)``
    /// reads in one go to advantage: 1 (the default) for a source that
    /// reads each on its own (a request per photo); a folder reads dozens
    /// in one job on its file threads, one hop for all of them instead of
    /// several per photo (on a busy machine each hop waits for a core).
    var headerBatchSize: Int { get }
    /// ``headerAndCaptureDate(for:)`` for each of `ids`, in order. The
    /// default asks for each in turn.
    func headersAndCaptureDates(for ids: [ImageID]) async -> [Result<(header: ImageHeader, date: CaptureDate?), ImageSourceError>]
}

extension ImageSource {
    /// The header read from the whole of ``data(for:)``.
    public func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        let bytes = try await data(for: id)
        return try ImageHeader.read(wholeFile: bytes, of: id)
    }

    /// ``header(for:)``, and no date.
    public func headerAndCaptureDate(for id: ImageID) async throws(ImageSourceError) -> (header: ImageHeader, date: CaptureDate?) {
        (try await header(for: id), nil)
    }

    /// 1: each photo's header on its own.
    public var headerBatchSize: Int { 1 }

    /// Each photo's ``headerAndCaptureDate(for:)`` in turn.
    public func headersAndCaptureDates(for ids: [ImageID]) async -> [Result<(header: ImageHeader, date: CaptureDate?), ImageSourceError>] {
        var results: [Result<(header: ImageHeader, date: CaptureDate?), ImageSourceError>] = []
        results.reserveCapacity(ids.count)
        for id in ids {
            do throws(ImageSourceError) {
                results.append(.success(try await headerAndCaptureDate(for: id)))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// None: the source learns no header with its list.
    public func listedHeaders() async -> [ImageID: ImageHeader] { [:] }

    /// None: the source learns no preview with its list.
    public func listedPreviews() async -> [ImageID: ThumbHash] { [:] }

    /// None: reading one would cost a request of its own.
    public func embeddedThumbnail(for id: ImageID) async -> EmbeddedThumbnail? { nil }

    /// No fingerprint: the disk cache is skipped for this source's pictures.
    public func fingerprint(for id: ImageID) async -> String? { nil }

    /// `false`: a fingerprint costs no request.
    public var fingerprintNeedsRequest: Bool { false }

    /// ``data(for:)``'s bytes, with no fingerprint of their own (the one
    /// asked for earlier stands).
    public func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?) {
        (try await data(for: id), nil)
    }
}
