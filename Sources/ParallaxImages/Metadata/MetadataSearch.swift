import Foundation

/// One pass of ``CaptureDateReader`` over the bytes in hand: walks the
/// format's records to its Exif and XMP data, reads the dates there, and
/// keeps the most trusted; or notes the first range it misses.
///
/// Sources are read most trusted first and skipped once a date at least
/// as trusted is known, so a photo with an EXIF `DateTimeOriginal` costs
/// no read of its XMP.
struct MetadataSearch {
    let views: ExcerptViews
    private(set) var best: CaptureDate?
    private(set) var missing: Range<Int>?
    /// IFD0's orientation in the Exif data read, if any.
    private(set) var orientation: ImageOrientation?
    /// The camera and lens in the Exif data read, if it names them.
    private(set) var camera: CameraDescription?

    /// The most bytes of Exif or XMP data read: dates sit near the start of
    /// both; what follows is thumbnails and edit histories.
    static let dataLimit = 256 << 10

    init(views: ExcerptViews) {
        self.views = views
    }

    var result: CaptureDateReader.Reading {
        if let missing { return .needsBytes(missing) }
        return best.map { .found($0) } ?? .notFound
    }

    /// Whether a source that can give a date as trusted as `source` is
    /// worth reading: nothing is missing, and nothing as trusted is known.
    private func wants(_ source: CaptureDate.Source) -> Bool {
        missing == nil && (best.map { $0.source > source } ?? true)
    }

    private mutating func offer(_ date: CaptureDate?) {
        guard let date else { return }
        if best.map({ date.source < $0.source }) ?? true { best = date }
    }

    /// The view of `range` (capped at ``dataLimit``), or `nil` after noting
    /// the range as missing.
    private mutating func data(_ range: Range<Int>) -> ByteView? {
        var end = range.lowerBound + min(range.count, Self.dataLimit)
        if let length = views.knownLength { end = min(end, length) }       // what a file cut short still holds
        guard end > range.lowerBound else { return nil }
        let capped = range.lowerBound..<end
        guard let view = views.view(covering: capped) else {
            missing = capped
            return nil
        }
        return view.slice(capped)
    }

    /// The dates in the TIFF structure at `range` (EXIF's three, each with its offset and fraction).
    private mutating func exif(_ range: Range<Int>, tiffStart: (ByteView) -> Int? = { $0.base }) {
        guard wants(.exifOriginal), let view = data(range), let start = tiffStart(view), start < view.end,
              let tiff = TIFFMetadata(view, range: start..<view.end) else { return }
        offer(tiff)
    }

    /// The three dates of an EXIF structure, each with its offset and fraction.
    private mutating func offer(_ tiff: TIFFMetadata) {
        orientation = orientation ?? tiff.orientation
        if camera == nil, !tiff.camera.isEmpty { camera = tiff.camera }
        for (fields, source) in [(tiff.original, CaptureDate.Source.exifOriginal), (tiff.digitized, .exifDigitized), (tiff.modified, .exifModified)] {
            guard let text = fields.text else { continue }
            offer(CaptureDate(exifText: text, offset: fields.offset, subseconds: fields.subseconds, source: source))
        }
    }

    private mutating func xmp(_ range: Range<Int>) {
        guard wants(.xmpOriginal), let view = data(range) else { return }
        offer(XMPDates.best(in: view))
    }

    // MARK: Formats

    mutating func jpeg() {
        let views = self.views
        var exifRanges: [Range<Int>] = [], xmpRanges: [Range<Int>] = []
        let exifSignature = Array("Exif\0\0".utf8), xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
        let walk = views.walk(from: 2, to: Int.max, headerSize: 4, limit: 256, header: { view, at in
            guard view.u8(at) == 0xFF, let marker = view.u8(at + 1) else { return nil }
            switch marker {
            case 0xFF: return ChainRecord(type: marker, dataStart: at + 1, end: at + 1, dataEnd: at + 1)   // fill byte
            case 0xD0...0xD9, 0x01, 0xDA: return ChainRecord(type: marker, dataStart: at + 2, end: at + 2, dataEnd: at + 2)
            default:
                guard let length = view.u16(at + 2), length >= 2 else { return nil }
                return ChainRecord(type: marker, dataStart: at + 4, end: at + 2 + length, dataEnd: at + 2 + length)
            }
        }, visit: { record in
            guard record.type != 0xDA, record.type != 0xD9 else { return false }   // the image data: metadata comes before
            guard record.type == 0xE1 else { return true }
            let signature = record.dataStart..<min(record.dataEnd, record.dataStart + xmpSignature.count)
            if let view = views.view(covering: signature) {
                // A signature check is made only on bytes the segment holds, so its ranges are never reversed.
                if signature.count >= 6, view.matches(record.dataStart, exifSignature) { exifRanges.append((record.dataStart + 6)..<record.dataEnd) }
                if signature.count == xmpSignature.count, view.matches(record.dataStart, xmpSignature) {
                    xmpRanges.append((record.dataStart + xmpSignature.count)..<record.dataEnd)
                }
            } else if exifRanges.isEmpty {
                exifRanges.append(record.dataStart..<record.dataEnd)   // read it to tell what it is
            }
            return true
        })
        if case .needsBytes(let range) = walk, exifRanges.isEmpty { missing = range; return }
        for range in exifRanges.prefix(1) {
            exif(range, tiffStart: { view in
                // A range read to tell what it is starts at the signature.
                view.matches(range.lowerBound, exifSignature) ? range.lowerBound + 6 : range.lowerBound
            })
        }
        if case .needsBytes(let range) = walk, missing == nil, wants(.xmpOriginal) { missing = range; return }
        for range in xmpRanges.prefix(1) { xmp(range) }
    }

    /// The most bytes read from the end of a PNG for the metadata some
    /// writers put after the image data (ImageMagick 6 writes `eXIf` there,
    /// and `tIME` before it).
    static let pngTailLength = 32 << 10

    mutating func png() {
        let views = self.views
        var early = PNGMetadataChunks()
        let walk = views.walk(from: 8, to: Int.max, headerSize: 8, limit: 256, header: PNGMetadataChunks.header,
                              visit: { early.collect($0, views: views) })
        if case .needsBytes(let range) = walk { missing = range; return }
        offer(early)
        // Nothing better than tIME before the image data: look after it, in the file's last bytes,
        // when the file's length says where they are.
        guard missing == nil, early.reachedImageData, best.map({ $0.source >= .pngModified }) ?? true,
              let length = views.knownLength else { return }
        let tailRange = max(8, length - Self.pngTailLength)..<length
        guard let tail = views.view(covering: tailRange)?.slice(tailRange) else { missing = tailRange; return }
        guard let chain = PNGMetadataChunks.chainStart(in: tail, fileLength: length) else { return }
        var late = PNGMetadataChunks(stopsAtImageData: false)
        _ = views.walk(from: chain, to: length, headerSize: 8, limit: 64, header: PNGMetadataChunks.header,
                       visit: { late.collect($0, views: views) })
        offer(late)
    }

    /// The dates in the metadata chunks `chunks` found, most trusted first.
    private mutating func offer(_ chunks: PNGMetadataChunks) {
        if let range = chunks.exif { exif(range) }
        for text in chunks.texts where text.content == nil || wants(text.content == .exif ? .exifOriginal : .xmpOriginal) {
            guard let view = data(text.range) else {
                if missing != nil { return }
                continue
            }
            guard let content = text.content ?? PNGTextChunks.content(type: text.type, head: view) else { continue }
            let source: CaptureDate.Source = content == .exif ? .exifOriginal : .xmpOriginal
            // An Exif profile's first part, then (no date in it, and more to read) the whole of it. Only
            // Exif: a value cut off at the end of the part lies outside it and is not read, where an XMP
            // date cut short ("2024" of "2024-06-15") would still read as a date.
            let limits = content == .exif ? [PNGTextChunks.quickLimit, PNGTextChunks.limit] : [PNGTextChunks.limit]
            for limit in limits where wants(source) {
                guard let (payload, isWhole) = PNGTextChunks.payload(type: text.type, data: view, limit: limit) else { break }
                payload.withUnsafeBufferPointer { buffer in
                    let bytes = ByteView(buffer)
                    switch content {
                    case .exif: if let tiff = TIFFMetadata(bytes, range: 0..<buffer.count) { offer(tiff) }
                    case .xmp: offer(XMPDates.best(in: bytes))
                    }
                }
                if isWhole { break }                                // there is no more to read
            }
        }
        if missing == nil { offer(chunks.modified) }
    }

    mutating func webp() {
        guard let riffSize = views.first.u32(4, littleEndian: true) else { return }
        var exifRange: Range<Int>?, xmpRange: Range<Int>?
        let walk = views.walk(from: 12, to: 8 + riffSize, headerSize: 8, limit: 64, header: { view, at in
            guard let type = view.u32(at), let size = view.u32(at + 4, littleEndian: true) else { return nil }
            return ChainRecord(type: type, dataStart: at + 8, end: at + 8 + size + (size & 1), dataEnd: at + 8 + size)
        }, visit: { record in
            if record.type == fourCC("EXIF") { exifRange = exifRange ?? record.dataStart..<record.dataEnd }
            if record.type == fourCC("XMP ") { xmpRange = xmpRange ?? record.dataStart..<record.dataEnd }
            return exifRange == nil || xmpRange == nil
        })
        if case .needsBytes(let range) = walk, exifRange == nil { missing = range; return }
        // Some writers keep JPEG's "Exif\0\0" before the TIFF header.
        if let exifRange { exif(exifRange, tiffStart: { $0.matches(exifRange.lowerBound, Array("Exif\0\0".utf8)) ? exifRange.lowerBound + 6 : exifRange.lowerBound }) }
        if case .needsBytes(let range) = walk, missing == nil, xmpRange == nil, wants(.xmpOriginal) { missing = range; return }
        if let xmpRange { xmp(xmpRange) }
    }

    mutating func heif() {
        var metaBox: ISOBox?
        let walk = views.walk(from: 0, to: Int.max, headerSize: 8, limit: 64, header: { view, at in
            guard let size = view.u32(at), let type = view.u32(at + 4) else { return nil }
            let end: Int
            switch size {
            case 0: end = Int.max
            case 1: guard let size64 = view.u64(at + 8), size64 >= 16, size64 <= Int.max - at else { return nil }; end = at + size64
            default: guard size >= 8 else { return nil }; end = at + size
            }
            return ChainRecord(type: type, dataStart: at + (size == 1 ? 16 : 8), end: end, dataEnd: end)
        }, visit: { record in
            guard record.type == fourCC("meta") else { return record.end != Int.max }
            metaBox = ISOBox(type: record.type, start: record.dataStart - 8, contentStart: record.dataStart, end: record.end)
            return false
        })
        if case .needsBytes(let range) = walk { missing = range; return }
        // A meta box of megabytes is not a photo's (a phone's is a few kilobytes).
        guard let metaBox, metaBox.end - metaBox.start <= 4 << 20 else { return }
        guard let view = views.view(covering: metaBox.start..<metaBox.end) else {
            if metaBox.end <= views.knownLength ?? .max { missing = metaBox.start..<metaBox.end }
            return
        }
        guard case .found(let meta) = HEIFMetaBox.parse(view, meta: metaBox) else { return }
        if let exifItem = meta.itemTypes.filter({ $0.value == fourCC("Exif") }).keys.min(), let range = meta.locations[exifItem] {
            // The Exif item's data: the offset of the TIFF header after its first four bytes, then the TIFF structure.
            exif(range, tiffStart: { view in
                view.u32(range.lowerBound).flatMap { $0 <= range.count - 4 ? range.lowerBound + 4 + $0 : nil }
            })
        }
        if let xmpItem = meta.xmpItems.min(), let range = meta.locations[xmpItem] { xmp(range) }
    }
}
