#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxHosting
import ParallaxImages

/// What the detail view draws this frame, worked out from the
/// ``PhotoViewer``: how dark the grid behind is, and each photo on screen
/// (the one shown and, while paging, its neighbours) with every picture of
/// it there is, from the softest to the sharpest.
struct ViewerScene {
    /// One photo on screen.
    struct Photo {
        var id: ImageID
        /// The whole photo's frame on screen.
        var frame: CGRect
        /// What shows of it (the tile's part while the transition starts, else the window).
        var clip: CGRect
        var opacity: Double
        /// A ThumbHash picture of the whole photo, drawn where nothing sharper is.
        var preview: PixelImage?
        /// The tile's thumbnail (a `fill` crop of the photo) and where that crop lies on screen.
        var thumbnail: (image: PixelImage, key: ThumbnailKey, rect: CGRect)?
        /// The whole photo at the window's size.
        var screen: (image: PixelImage, key: ThumbnailKey)?
        /// The part on screen, sharp, when zoomed in, and where it lies.
        var region: (image: PixelImage, key: ThumbnailKey, rect: CGRect)?
        /// Why the photo cannot be shown.
        var failure: String?
    }

    /// The black over the grid, 0…1.
    var dimming: Double
    var photos: [Photo]
    /// The information panel's lines, when shown.
    var info: [String]?
    /// Whether the photo is fully open: the grid behind is not drawn.
    var coversGrid: Bool
    /// The grid's item whose tile the photo is lifted from (drawn empty).
    var liftedItem: Int?
}

extension PhotoViewer {
    /// This frame's scene; `nil` when the viewer is closed.
    var scene: ViewerScene? {
        guard phase != .closed else { return nil }
        var photos: [ViewerScene.Photo] = []
        let current = currentFrames
        photos.append(photo(item: item, id: id, frame: current.frame, clip: current.clip, opacity: current.opacity,
                            zoomed: !zoom.isFitted && phase == .open))
        if pageOffset != 0 {
            for step in [-1, 1] {
                let neighbour = item + step
                guard neighbour >= 0, neighbour < grid.photoCount, let neighbourID = grid.photoID(at: neighbour) else { continue }
                let size = pictures.screenPicture(of: neighbourID).map { CGSize(width: $0.sourceWidth, height: $0.sourceHeight) }
                    ?? grid.pictureSize(of: neighbour) ?? CGSize(width: 4, height: 3)
                let page = bounds.offsetBy(dx: pageOffset + CGFloat(step) * (bounds.width + Self.pageGap), dy: 0)
                let frame = PhotoZoomTransition.fittedFrame(aspectRatio: size.width / size.height, in: page)
                photos.append(photo(item: neighbour, id: neighbourID, frame: frame, clip: bounds, opacity: 1, zoomed: false))
            }
        }
        return ViewerScene(dimming: Double(openness), photos: photos, info: showsInfo && phase == .open ? currentInfoLines() : nil,
                           coversGrid: coversGrid, liftedItem: liftedItem)
    }

    /// The photo's frame, clip and opacity: along the transition while it
    /// runs, faded where it is when it closes onto no tile, else zoomed and
    /// moved by the paging offset.
    private var currentFrames: (frame: CGRect, clip: CGRect, opacity: Double) {
        switch phase {
        case .opening, .closing, .seekingTile:
            // Seeking the tile after closing mid-opening: the photo holds where the opening left it.
            if let transition {
                let frames = transition.frames(at: openness)
                return (frames.picture, frames.clip.intersection(bounds), 1)
            }
            return (zoom.frame, bounds, phase == .seekingTile ? 1 : Double(openness))
        default:
            return (zoom.frame.offsetBy(dx: pageOffset, dy: 0), bounds, 1)
        }
    }

    private func photo(item: Int, id: ImageID, frame: CGRect, clip: CGRect, opacity: Double, zoomed: Bool) -> ViewerScene.Photo {
        var photo = ViewerScene.Photo(id: id, frame: frame, clip: clip, opacity: opacity, preview: grid.preview(of: id))
        let decoded = pictures.screenPicture(of: id)
        if let decoded {
            photo.screen = (decoded.image, ThumbnailKey(id: id, size: pictures.screenSize))
        } else if let tile = (item == self.item ? tile : nil) ?? grid.tile(of: item), let image = tile.image,
                  let key = tile.imageKey, tile.contentFrame.width > 0, tile.contentFrame.height > 0 {
            // The tile's thumbnail is the photo's centre crop to the tile's shape: where that crop lies in the photo.
            let aspect = frame.height > 0 ? frame.width / frame.height : 1
            let whole = PhotoZoomTransition.filledFrame(aspectRatio: aspect, covering: tile.contentFrame)
            let crop = CGRect(x: (tile.contentFrame.minX - whole.minX) / whole.width,
                              y: (tile.contentFrame.minY - whole.minY) / whole.height,
                              width: tile.contentFrame.width / whole.width, height: tile.contentFrame.height / whole.height)
            photo.thumbnail = (image, key, Self.place(crop, in: frame))
        }
        if zoomed, let region = pictures.region, region.id == id,
           let size = try? ThumbnailSize(width: region.image.width, height: region.image.height) {
            let key = ThumbnailKey(id: ImageID("\(id.rawValue)#region-\(region.serial)"), size: size)
            photo.region = (region.image, key, Self.place(region.rect, in: frame))
        }
        photo.failure = decoded == nil ? pictures.entries[id]?.failure : nil
        return photo
    }

    /// `unit` (fractions of a photo) on screen, for the photo at `frame`.
    static func place(_ unit: CGRect, in frame: CGRect) -> CGRect {
        CGRect(x: frame.minX + unit.minX * frame.width, y: frame.minY + unit.minY * frame.height,
               width: unit.width * frame.width, height: unit.height * frame.height)
    }

    /// ``infoLines``, made again only when what they say changes (another
    /// photo, its bytes or metadata read, another zoom): not formatted anew
    /// every frame the panel shows.
    private func currentInfoLines() -> [String] {
        let entry = pictures.entries[id]
        let key = InfoKey(id: id, pictureSize: zoom.pictureSize, percent: Int((zoom.screenPixelsPerPhotoPixel * 100).rounded()),
                          byteCount: entry?.data?.count, hasDate: entry?.captureDate != nil, camera: entry?.camera)
        if let cached = infoCache, cached.key == key { return cached.lines }
        let lines = infoLines
        infoCache = (key, lines)
        return lines
    }

    /// The information panel: name, date taken, size in pixels and bytes,
    /// camera and lens where the metadata names them, and folder.
    var infoLines: [String] {
        let entry = pictures.entries[id]
        let path = id.rawValue
        let name = (path as NSString).lastPathComponent
        let folder = (path as NSString).deletingLastPathComponent
        var lines = [name]
        if let date = entry?.captureDate {
            lines.append("Taken " + Self.dateFormatter.string(from: date.date) + (date.hasUTCOffset ? "" : " (camera's clock)"))
        } else if let modified = grid.fileModificationTime(of: item) {
            lines.append("File changed " + Self.dateFormatter.string(from: Date(timeIntervalSince1970: TimeInterval(modified)))
                         + " (its metadata has no date)")
        } else {
            lines.append("Date taken unknown")
        }
        var size = "\(Int(zoom.pictureSize.width)) × \(Int(zoom.pictureSize.height)) pixels"
        let megapixels = zoom.pictureSize.width * zoom.pictureSize.height / 1_000_000
        size += String(format: " (%.1f MP)", Double(megapixels))
        if let bytes = entry?.data?.count {
            size += " · " + ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
        }
        lines.append(size)
        if let camera = entry?.camera?.cameraName { lines.append("Camera: \(camera)") }
        if let lens = entry?.camera?.lensName { lines.append("Lens: \(lens)") }
        lines.append("Folder: " + (folder.isEmpty ? "(the library's top)" : folder))
        lines.append(String(format: "Zoom %.0f %% of the photo's pixels", Double((zoom.screenPixelsPerPhotoPixel * 100).rounded())))
        return lines
    }

    /// Capture dates are wall-clock times kept as if in UTC (``CaptureDate``): shown as such.
    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMMM yyyy, HH:mm"
        return formatter
    }()
}

/// What the information panel's lines depend on.
struct InfoKey: Equatable {
    var id: ImageID
    var pictureSize: CGSize
    var percent: Int
    var byteCount: Int?
    var hasDate: Bool
    var camera: CameraDescription?
}
