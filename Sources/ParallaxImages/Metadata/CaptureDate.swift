import Foundation

/// When a photo was taken, as its metadata (or, failing that, its file)
/// records it, and how sure that is.
///
/// Cameras write the wall-clock time without a time zone (EXIF before 2.31
/// has no field for one). A date without an offset is kept as that
/// wall-clock time read as if it were UTC: photos from one camera sort in
/// the order they were taken and show the time the camera showed, and
/// ``hasUTCOffset`` says the instant is not exact (it may be off by the
/// photographer's time zone when compared with a date that has an offset).
public struct CaptureDate: Sendable, Hashable, Comparable {
    /// Where a date came from, most trusted first: ``CaptureDateReader``
    /// prefers an earlier source when a file holds several.
    public enum Source: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// EXIF `DateTimeOriginal`: when the shutter was pressed.
        case exifOriginal
        /// XMP `exif:DateTimeOriginal` or `photoshop:DateCreated`.
        case xmpOriginal
        /// EXIF `DateTimeDigitized`: when the picture was stored (the same
        /// for a digital camera; the scan for a scanned print).
        case exifDigitized
        /// XMP `xmp:CreateDate`.
        case xmpCreated
        /// EXIF `DateTime` in IFD0: when the file was last changed, which
        /// many editors set.
        case exifModified
        /// PNG `tIME`: the image's last modification, in UTC.
        case pngModified
        /// The file's modification time: what is left when the file says nothing.
        case fileModified

        public static func < (lhs: Source, rhs: Source) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The instant; for a date without an offset, its wall-clock time read as UTC.
    public var date: Date
    /// Whether the metadata gave a UTC offset (or the source is UTC by
    /// definition), so that ``date`` is an exact instant.
    public var hasUTCOffset: Bool
    /// Where the date came from.
    public var source: Source

    /// A date as given; ``CaptureDateReader`` makes these from a file's bytes.
    public init(date: Date, hasUTCOffset: Bool, source: Source) {
        self.date = date
        self.hasUTCOffset = hasUTCOffset
        self.source = source
    }

    /// Ordered by ``date``, then by ``source`` (so that the order is total
    /// and the same on every run).
    public static func < (lhs: CaptureDate, rhs: CaptureDate) -> Bool {
        (lhs.date, lhs.source.rawValue, lhs.hasUTCOffset ? 1 : 0) < (rhs.date, rhs.source.rawValue, rhs.hasUTCOffset ? 1 : 0)
    }

    /// The years a photo's date may lie in: outside them a date is a
    /// camera's unset clock or garbage, and no date is better than a wrong one.
    static let plausibleYears = 1800...2200

    /// The date in EXIF's `"YYYY:MM:DD HH:MM:SS"` form, with its optional
    /// offset (`"+02:00"`, `"-0530"`, `"Z"`) and fraction of a second
    /// (`"25"` is .25 s); `nil` for blanks, zeros ("0000:00:00 00:00:00"
    /// means unknown) and impossible dates.
    init?(exifText text: String, offset: String?, subseconds: String?, source: Source) {
        let fields = Self.numbers(in: text)
        guard fields.count >= 6, fields[0].width == 4,
              let instant = Self.instant(fields[0].value, fields[1].value, fields[2].value,
                                         fields[3].value, fields[4].value, fields[5].value) else { return nil }
        var seconds = instant
        var hasOffset = false
        if let offset, let minutes = Self.offsetMinutes(offset.trimmingCharacters(in: .whitespaces)) {
            seconds -= Double(minutes * 60)
            hasOffset = true
        }
        if let subseconds, let fraction = Self.fraction(subseconds.trimmingCharacters(in: .whitespaces)) { seconds += fraction }
        self.init(date: Date(timeIntervalSince1970: seconds), hasUTCOffset: hasOffset, source: source)
    }

    /// The date in ISO 8601 form as XMP writes it: `"2024-06-15"`,
    /// `"2024-06-15T14:30"`, `"2024-06-15T14:30:05.25+02:00"`, `"…Z"`.
    init?(iso8601 text: String, source: Source) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let utf8 = Array(trimmed.utf8)
        guard utf8.count >= 10, utf8[4] == UInt8(ascii: "-") else { return nil }
        // The date and time digits, then what follows the time: a fraction and an offset.
        var offsetStart = utf8.count
        if utf8.count > 10 {
            offsetStart = utf8[11...].firstIndex { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") } ?? utf8.count
        }
        let main = String(decoding: utf8[..<offsetStart], as: UTF8.self)
        var fractionText: String?
        var wallClock = main
        if let dot = main.firstIndex(of: ".") {
            fractionText = String(main[main.index(after: dot)...])
            wallClock = String(main[..<dot])
        }
        let fields = Self.numbers(in: wallClock)
        guard fields.count >= 3, fields[0].width == 4, fields.count != 4 else { return nil }
        let value = { (i: Int) in i < fields.count ? fields[i].value : 0 }
        guard var seconds = Self.instant(value(0), value(1), value(2), value(3), value(4), value(5)) else { return nil }
        var hasOffset = false
        if offsetStart < utf8.count {
            guard let minutes = Self.offsetMinutes(String(decoding: utf8[offsetStart...], as: UTF8.self)) else { return nil }
            seconds -= Double(minutes * 60)
            hasOffset = true
        }
        if let fractionText, let fraction = Self.fraction(fractionText) { seconds += fraction }
        self.init(date: Date(timeIntervalSince1970: seconds), hasUTCOffset: hasOffset, source: source)
    }

    /// The runs of digits in `text`, with how many digits each has.
    private static func numbers(in text: String) -> [(value: Int, width: Int)] {
        var result: [(value: Int, width: Int)] = []
        var value = 0, width = 0
        for byte in text.utf8.prefix(64) {
            if (0x30...0x39).contains(byte) {
                guard width < 9 else { return [] }
                value = value * 10 + Int(byte - 0x30)
                width += 1
            } else if width > 0 {
                result.append((value, width))
                value = 0
                width = 0
            }
        }
        if width > 0 { result.append((value, width)) }
        return result
    }

    /// Seconds since 1970 of a UTC wall-clock time, or `nil` for an
    /// impossible one (month 13, February 30, hour 24, a year outside
    /// ``plausibleYears``). A leap second (60) is allowed.
    static func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Double? {
        guard plausibleYears.contains(year), (1...12).contains(month), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// Minutes east of UTC in `"+02:00"`, `"-0530"`, `"+02"` or `"Z"`.
    private static func offsetMinutes(_ text: String) -> Int? {
        if text == "Z" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isASCII), let number = Int(digits) else { return nil }
        let hours = digits.count == 2 ? number : number / 100, minutes = digits.count == 2 ? 0 : number % 100
        guard hours <= 18, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 60 + minutes)
    }

    /// The fraction of a second that `digits` spell after a decimal point.
    private static func fraction(_ digits: String) -> Double? {
        guard !digits.isEmpty, digits.count <= 9, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let value = Double("0." + digits) else { return nil }
        return value
    }
}
