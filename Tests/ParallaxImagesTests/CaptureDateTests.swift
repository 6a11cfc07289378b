import Foundation
import Testing
@testable import ParallaxImages

/// ``CaptureDate``'s reading of EXIF and ISO 8601 date texts.
@Suite("Capture date texts")
struct CaptureDateTests {
    /// Seconds since 1970 of a UTC time, by Foundation's calendar (the reference the arithmetic is checked against).
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    @Test func exifTextWithAndWithoutOffsetAndFraction() throws {
        let plain = try #require(CaptureDate(exifText: "2024:06:15 14:30:05", offset: nil, subseconds: nil, source: .exifOriginal))
        #expect(plain.date == Self.utc(2024, 6, 15, 14, 30, 5) && !plain.hasUTCOffset && plain.source == .exifOriginal)
        let exact = try #require(CaptureDate(exifText: "2024:06:15 14:30:05", offset: "+02:00", subseconds: "25", source: .exifOriginal))
        #expect(exact.date == Self.utc(2024, 6, 15, 12, 30, 5).addingTimeInterval(0.25) && exact.hasUTCOffset)
        #expect(CaptureDate(exifText: "2024:06:15 00:10:00", offset: "-05:30", subseconds: nil, source: .exifOriginal)?.date == Self.utc(2024, 6, 15, 5, 40))
        // A padded or malformed offset or fraction is ignored, not the date.
        let loose = try #require(CaptureDate(exifText: "2024:06:15 14:30:05\0", offset: "   :  ", subseconds: "x", source: .exifDigitized))
        #expect(loose.date == Self.utc(2024, 6, 15, 14, 30, 5) && !loose.hasUTCOffset)
    }

    @Test func unknownAndImpossibleDatesAreNone() {
        for text in ["0000:00:00 00:00:00", "    :  :     :  :  ", "", "2024:13:01 00:00:00", "2023:02:29 10:00:00",
                     "2024:04:31 10:00:00", "2024:06:15 24:00:00", "2024:06:15 12:60:00", "1799:12:31 23:59:59",
                     "2201:01:01 00:00:00", "24:06:15 12:00:00", "2024:06:15", "99999999999:01:01 00:00:00"] {
            #expect(CaptureDate(exifText: text, offset: nil, subseconds: nil, source: .exifOriginal) == nil, "\(text)")
        }
        #expect(CaptureDate(exifText: "2024:02:29 10:00:00", offset: nil, subseconds: nil, source: .exifOriginal) != nil)
        #expect(CaptureDate(exifText: "2000:02:29 10:00:00", offset: nil, subseconds: nil, source: .exifOriginal) != nil)
        #expect(CaptureDate(exifText: "1900:02:29 10:00:00", offset: nil, subseconds: nil, source: .exifOriginal) == nil)
        #expect(CaptureDate(exifText: "1800:01:01 00:00:00", offset: nil, subseconds: nil, source: .exifOriginal)?.date == Self.utc(1800, 1, 1))
    }

    @Test func iso8601AsXMPWritesIt() throws {
        let cases: [(String, Date, Bool)] = [
            ("2018-05-06T07:08:09Z", Self.utc(2018, 5, 6, 7, 8, 9), true),
            ("2020-02-29T23:10:00+05:30", Self.utc(2020, 2, 29, 17, 40), true),
            ("2020-02-29T23:10:00-0100", Self.utc(2020, 3, 1, 0, 10), true),
            ("2015-06-21T02:05:56", Self.utc(2015, 6, 21, 2, 5, 56), false),
            ("2015-06-21T02:05:56.52", Self.utc(2015, 6, 21, 2, 5, 56).addingTimeInterval(0.52), false),
            ("2015-06-21T02:05", Self.utc(2015, 6, 21, 2, 5), false),
            ("2015-06-21", Self.utc(2015, 6, 21), false),
            (" 2015-06-21T02:05:56+01:00\n", Self.utc(2015, 6, 21, 1, 5, 56), true),
        ]
        for (text, date, hasOffset) in cases {
            let parsed = try #require(CaptureDate(iso8601: text, source: .xmpOriginal), "\(text)")
            #expect(abs(parsed.date.timeIntervalSince(date)) < 1e-6 && parsed.hasUTCOffset == hasOffset, "\(text)")
        }
        for text in ["2015", "2015-06", "2015-06-21T02", "2015-13-01", "2015-06-21T02:05:56+25:00", "2015-06-21T02:05:56+1", "June 2015"] {
            #expect(CaptureDate(iso8601: text, source: .xmpOriginal) == nil, "\(text)")
        }
    }

    @Test func theDayArithmeticMatchesFoundationsCalendarAcrossTheRange() {
        var day = Self.utc(1800, 1, 1)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        while day < Self.utc(2200, 12, 31) {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            #expect(CaptureDate.instant(parts.year!, parts.month!, parts.day!, 0, 0, 0) == day.timeIntervalSince1970)
            day = day.addingTimeInterval(86_400 * 13)
        }
    }

    @Test func datesSortByInstantThenSource() {
        let a = CaptureDate(date: Date(timeIntervalSince1970: 10), hasUTCOffset: true, source: .xmpOriginal)
        let b = CaptureDate(date: Date(timeIntervalSince1970: 10), hasUTCOffset: false, source: .exifOriginal)
        let c = CaptureDate(date: Date(timeIntervalSince1970: 9), hasUTCOffset: false, source: .fileModified)
        #expect([a, b, c].sorted() == [c, b, a])
        #expect(CaptureDate.Source.allCases.sorted() == CaptureDate.Source.allCases)
    }
}
