import Foundation

/// When ``HTTPImageSource`` tries again, and how long it waits first.
///
/// Transport failures (no connection, a dropped or reset connection, an
/// answer cut short, a deadline) and the statuses that mean "try again
/// later" (5xx, 408, 429) are retried; waits grow `delay`, `2·delay`,
/// `4·delay`… (capped at a minute), or follow the server's `Retry-After`
/// when it asks for longer, up to a cap. Pure values and functions: tested
/// without a server.
struct HTTPRetryPolicy: Sendable, Hashable {
    /// Attempts per request, the first one included (at least 1).
    var maximumAttempts: Int
    /// The wait before the second attempt, in seconds (at least 0).
    var delay: TimeInterval
    /// The longest `Retry-After` honoured, in seconds; a longer one ends
    /// the request at once.
    var maximumRetryAfter: TimeInterval

    /// The longest wait this source can express, in seconds (about 31
    /// years): a `Retry-After` beyond it counts as this long, so a hostile
    /// header can never overflow a conversion to nanoseconds or integers.
    static let longestWait: TimeInterval = 1e9

    /// Whether an HTTP status means "try again later".
    static func isRetryable(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }

    /// The wait before attempt `attempt` (2 for the first retry): the
    /// backoff, or `serverWait` if that is longer, in seconds, never more
    /// than ``longestWait``.
    func wait(beforeAttempt attempt: Int, serverWait: TimeInterval?) -> TimeInterval {
        let backoff = min(delay * Double(1 << min(max(attempt - 2, 0), 16)), 60)
        return min(max(backoff, serverWait ?? 0), Self.longestWait)
    }

    /// "1 attempt", "3 attempts".
    var attemptsText: String {
        maximumAttempts == 1 ? "1 attempt" : "\(maximumAttempts) attempts"
    }

    /// The seconds a `Retry-After` value asks for: a number of seconds, or
    /// an HTTP date (RFC 9110 §5.6.7's IMF-fixdate, "Sun, 06 Nov 1994
    /// 08:49:37 GMT"); `nil` if it is neither. Values over ``longestWait``
    /// (however many digits) count as ``longestWait``; a date in the past
    /// is 0.
    static func retryAfterSeconds(_ value: String, now: Date = Date()) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Double parses any number of digits without overflow.
            return min(Double(text) ?? longestWait, longestWait)
        }
        guard let date = httpDate(text) else { return nil }
        return min(max(date.timeIntervalSince(now), 0), longestWait)
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), read by hand: a
    /// `DateFormatter` is neither cheap to make per header nor `Sendable`
    /// to share, and this one format is all RFC 9110 lets a server send.
    static func httpDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].last == ",", parts[5] == "GMT",
              let day = Int(parts[1]), parts[1].count == 2, (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]), parts[3].count == 4 else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard
    /// Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
