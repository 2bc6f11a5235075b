/// A moment as a calendar date and a time of day in some UTC offset
/// (proleptic Gregorian calendar), and back.
struct CivilTime: Equatable {
    var year: Int64
    /// 1...12
    var month: Int
    /// 1...31
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    /// The civil time `seconds` after the epoch, in local time `offset` seconds east of UTC.
    init(unixSeconds seconds: Int64, offset: Int) {
        let local = seconds + Int64(offset)
        var days = local / 86_400
        var rest = local % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        (year, month, day) = Self.civil(fromDays: days)
        hour = Int(rest / 3600)
        minute = Int(rest % 3600 / 60)
        second = Int(rest % 60)
    }

    init(year: Int64, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Seconds after the epoch of this civil time read in `offset`.
    func unixSeconds(offset: Int) -> Int64 {
        Self.days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            - Int64(offset)
    }

    var daysSinceEpoch: Int64 { Self.days(year: year, month: month, day: day) }

    /// 0 = Sunday … 6 = Saturday.
    var weekday: Int {
        let value = (daysSinceEpoch + 4) % 7
        return Int(value < 0 ? value + 7 : value)
    }

    /// 1...366
    var dayOfYear: Int {
        Int(daysSinceEpoch - Self.days(year: year, month: 1, day: 1)) + 1
    }

    static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(_ month: Int, year: Int64) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's algorithm).
    static func days(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
