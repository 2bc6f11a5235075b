/// A POSIX TZ rule (`PST8PDT,M3.2.0,M11.1.0`), as TZif files carry in their
/// footer for the times after their last listed transition.
struct PosixTimeZone: Sendable {
    enum DateRule: Sendable {
        /// `Jn`: day 1…365, February 29 never counted.
        case julianNoLeap(Int)
        /// `n`: day 0…365, February 29 counted.
        case zeroBased(Int)
        /// `Mm.w.d`: day d (0 = Sunday) of week w (5 = the last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    struct Transition: Sendable {
        var date: DateRule
        /// Seconds after local midnight (may be negative or past a day).
        var time: Int
    }

    var standard: TimeZoneRules.LocalTimeType
    var daylight: TimeZoneRules.LocalTimeType?
    var start: Transition?
    var end: Transition?

    /// Parses a TZ string; nil when it is not one.
    init?(_ text: String) {
        var scanner = Substring(text).utf8
        guard let standardName = Self.name(&scanner), let standardOffset = Self.offset(&scanner) else { return nil }
        standard = TimeZoneRules.LocalTimeType(offset: -standardOffset, isDST: false, abbreviation: standardName)
        guard !scanner.isEmpty else { return }
        guard let daylightName = Self.name(&scanner) else { return nil }
        var daylightOffset = standard.offset + 3600
        if let first = scanner.first, first != UInt8(ascii: ",") {
            guard let offset = Self.offset(&scanner) else { return nil }
            daylightOffset = -offset
        }
        daylight = TimeZoneRules.LocalTimeType(offset: daylightOffset, isDST: true, abbreviation: daylightName)
        if scanner.isEmpty {
            // No rule: the United States' since 2007, as glibc assumes.
            start = Transition(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            end = Transition(date: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
            return
        }
        guard scanner.popFirst() == UInt8(ascii: ","), let start = Self.transition(&scanner),
            scanner.popFirst() == UInt8(ascii: ","), let end = Self.transition(&scanner), scanner.isEmpty
        else { return nil }
        self.start = start
        self.end = end
    }

    func localTime(at seconds: Int64) -> TimeZoneRules.LocalTimeType {
        guard let daylight, let start, let end else { return standard }
        let year = CivilTime(unixSeconds: seconds, offset: standard.offset).year
        let startsAt = Self.day(start.date, year: year) * 86_400 + Int64(start.time) - Int64(standard.offset)
        let endsAt = Self.day(end.date, year: year) * 86_400 + Int64(end.time) - Int64(daylight.offset)
        let inDaylight =
            startsAt < endsAt
            ? (seconds >= startsAt && seconds < endsAt)
            : !(seconds >= endsAt && seconds < startsAt)
        return inDaylight ? daylight : standard
    }

    /// Days after the epoch of a rule's date in `year`.
    static func day(_ rule: DateRule, year: Int64) -> Int64 {
        let january1 = CivilTime.days(year: year, month: 1, day: 1)
        switch rule {
        case .julianNoLeap(let day):
            return january1 + Int64(day - 1) + (CivilTime.isLeap(year) && day >= 60 ? 1 : 0)
        case .zeroBased(let day):
            return january1 + Int64(day)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilTime(year: year, month: month, day: 1)
            var day = 1 + (weekday - first.weekday + 7) % 7 + 7 * (week - 1)
            let length = CivilTime.daysInMonth(month, year: year)
            while day > length { day -= 7 }
            return CivilTime.days(year: year, month: month, day: day)
        }
    }

    // MARK: - Parsing

    private static func name(_ scanner: inout Substring.UTF8View) -> String? {
        if scanner.first == UInt8(ascii: "<") {
            scanner = scanner.dropFirst()
            guard let close = scanner.firstIndex(of: UInt8(ascii: ">")) else { return nil }
            let name = String(decoding: scanner[..<close], as: UTF8.self)
            scanner = scanner[scanner.index(after: close)...]
            return name.isEmpty ? nil : name
        }
        var end = scanner.startIndex
        while end < scanner.endIndex, ExpressionLexer.isIdentifierStart(scanner[end]), scanner[end] != UInt8(ascii: "_")
        {
            end = scanner.index(after: end)
        }
        let name = String(decoding: scanner[..<end], as: UTF8.self)
        scanner = scanner[end...]
        return name.count >= 3 ? name : nil
    }

    /// `[+-]hh[:mm[:ss]]`, in seconds (POSIX's sign: positive is west).
    private static func offset(_ scanner: inout Substring.UTF8View) -> Int? {
        var sign = 1
        if let first = scanner.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            scanner = scanner.dropFirst()
        }
        guard let seconds = clock(&scanner) else { return nil }
        return sign * seconds
    }

    private static func clock(_ scanner: inout Substring.UTF8View) -> Int? {
        var parts: [Int] = []
        repeat {
            if !parts.isEmpty { scanner = scanner.dropFirst() }
            var value = 0
            var digits = 0
            while let byte = scanner.first, ExpressionLexer.isDigit(byte), digits < 3 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                scanner = scanner.dropFirst()
            }
            guard digits > 0 else { return nil }
            parts.append(value)
        } while parts.count < 3 && scanner.first == UInt8(ascii: ":")
        guard parts[0] <= 167, parts.count < 2 || parts[1] < 60, parts.count < 3 || parts[2] < 60 else { return nil }
        return parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
    }

    private static func transition(_ scanner: inout Substring.UTF8View) -> Transition? {
        func number() -> Int? {
            var value = 0
            var digits = 0
            while let byte = scanner.first, ExpressionLexer.isDigit(byte), digits < 4 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                scanner = scanner.dropFirst()
            }
            return digits > 0 ? value : nil
        }
        let date: DateRule
        switch scanner.first {
        case UInt8(ascii: "J"):
            scanner = scanner.dropFirst()
            guard let day = number(), (1...365).contains(day) else { return nil }
            date = .julianNoLeap(day)
        case UInt8(ascii: "M"):
            scanner = scanner.dropFirst()
            guard let month = number(), scanner.popFirst() == UInt8(ascii: "."), let week = number(),
                scanner.popFirst() == UInt8(ascii: "."), let weekday = number(),
                (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday)
            else { return nil }
            date = .monthWeekDay(month: month, week: week, weekday: weekday)
        default:
            guard let day = number(), (0...365).contains(day) else { return nil }
            date = .zeroBased(day)
        }
        var time = 7200
        if scanner.first == UInt8(ascii: "/") {
            scanner = scanner.dropFirst()
            guard let seconds = offset(&scanner) else { return nil }
            time = seconds
        }
        return Transition(date: date, time: time)
    }
}
