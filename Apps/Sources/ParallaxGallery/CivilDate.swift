/// A day of the proleptic Gregorian calendar, from wall-clock seconds,
/// without `Calendar` (which costs microseconds a call; a library has
/// 100,000 photos): Howard Hinnant's `civil_from_days` and
/// `days_from_civil`.
package struct CivilDate: Sendable, Hashable {
    package var year: Int
    /// 1 to 12.
    package var month: Int
    /// 1 to 31.
    package var day: Int

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `seconds` (since 1970-01-01 00:00 of the same clock) falls on.
    package init(wallClockSeconds seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        self.init(dayNumber: Int(days))
    }

    /// The day `dayNumber` days after 1970-01-01.
    package init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01.
    package var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December"]
    private static let weekdayNames = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]

    /// "June 2024".
    package var monthTitle: String { "\(Self.monthNames[month - 1]) \(year)" }

    /// "Tuesday 4 June 2024".
    package var dayTitle: String {
        let weekday = Self.weekdayNames[((dayNumber % 7) + 7) % 7]
        return "\(weekday) \(day) \(Self.monthNames[month - 1]) \(year)"
    }
}
