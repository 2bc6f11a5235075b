/// Reading a date written as text, for the `date` and `time_zone` filters:
/// the forms people and systems write (ISO 8601, `March 14, 2016`,
/// `14 Mar 2016 10:00`, RFC 2822), not every guess of Ruby's `Time.parse`.
/// A date without a zone is UTC (Ruby would take the host's zone, which a
/// device-independent render cannot). Text that is none of these is left
/// as it is by the filters.
enum DateParsing {
    static func parse(_ text: String, now: Double) -> ZonedTime? {
        let scalars = Array(text.lowercased().unicodeScalars)
        guard scalars.count <= 100 else { return nil }
        if let time = numericDate(scalars) { return time }
        return wordDate(scalars, now: now)
    }

    // MARK: - 2016-03-14[T10:00[:00[.5]]][Z|+01:00]

    private static func numericDate(_ scalars: [Unicode.Scalar]) -> ZonedTime? {
        var reader = ScalarReader(scalars: scalars)
        reader.skipSpaces()
        guard let year = reader.number(maxDigits: 4), year.digits == 4 else { return nil }
        guard let separator = reader.take(anyOf: "-/") else { return nil }
        guard let month = reader.number(maxDigits: 2), reader.take(anyOf: String(separator)) != nil,
            let day = reader.number(maxDigits: 2)
        else { return nil }
        var civil = CivilTime(year: year.value, month: Int(month.value), day: Int(day.value))
        var nanoseconds = 0
        reader.skipSpaces()
        if reader.take(anyOf: "t") != nil || (reader.peekIsDigit) {
            guard let clock = reader.clock() else { return nil }
            (civil.hour, civil.minute, civil.second, nanoseconds) = clock
        }
        reader.skipSpaces()
        let zone = reader.zone()
        if case .some(nil) = zone { return nil }
        reader.skipSpaces()
        guard reader.atEnd else { return nil }
        return make(civil, nanoseconds: nanoseconds, zone: zone ?? nil)
    }

    // MARK: - March 14, 2016 10:00 / Tue, 10 Aug 2010 01:20:19 +0400

    private static func wordDate(_ scalars: [Unicode.Scalar], now: Double) -> ZonedTime? {
        var reader = ScalarReader(scalars: scalars)
        var year: Int64?
        var month: Int?
        var day: Int?
        var clock: (Int, Int, Int, Int)?
        var zone: Zone?
        while true {
            reader.skip { $0 == " " || $0 == "," || $0 == "\t" }
            if reader.atEnd { break }
            if reader.peekIsDigit {
                let mark = reader.position
                if let time = reader.clock() {
                    guard clock == nil else { return nil }
                    clock = time
                    reader.skipSpaces()
                    if let meridian = reader.word(), meridian == "am" || meridian == "pm" {
                        guard clock!.0 >= 1, clock!.0 <= 12 else { return nil }
                        clock!.0 = clock!.0 % 12 + (meridian == "pm" ? 12 : 0)
                    } else {
                        reader.position = mark
                        _ = reader.clock()
                    }
                    continue
                }
                reader.position = mark
                guard let number = reader.number(maxDigits: 4) else { return nil }
                _ = reader.word().map { suffix in suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th" }
                if number.digits == 4 || number.value > 31 {
                    guard year == nil else { return nil }
                    year = number.value
                } else if day == nil {
                    day = Int(number.value)
                } else if year == nil {
                    year = number.value
                } else {
                    return nil
                }
                continue
            }
            if let found = reader.zone() {
                guard zone == nil, let found else { return nil }
                zone = found
                continue
            }
            guard let word = reader.word() else { return nil }
            _ = reader.take(anyOf: ".")
            if let index = months.firstIndex(where: { $0 == word || ($0.hasPrefix(word) && word.count >= 3) }) {
                guard month == nil else { return nil }
                month = index + 1
            } else if weekdays.contains(where: { $0 == word || ($0.hasPrefix(word) && word.count >= 3) }) {
                continue
            } else {
                return nil
            }
        }
        guard let month, let day else { return nil }
        let currentYear = ZonedTime(unixTime: now)?.civil.year ?? 1970
        var civil = CivilTime(year: year ?? currentYear, month: month, day: day)
        var nanoseconds = 0
        if let clock { (civil.hour, civil.minute, civil.second, nanoseconds) = clock }
        return make(civil, nanoseconds: nanoseconds, zone: zone)
    }

    static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]
    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// A zone written in a date: its offset, its name as shown, and whether it is UTC.
    struct Zone {
        var offset: Int
        var abbreviation: String
        var isUTC: Bool
    }

    private static func make(_ civil: CivilTime, nanoseconds: Int, zone: Zone?) -> ZonedTime? {
        guard (1...12).contains(civil.month), civil.day >= 1,
            civil.day <= CivilTime.daysInMonth(civil.month, year: civil.year),
            civil.hour < 24, civil.minute < 60, civil.second <= 60
        else { return nil }
        let zone = zone ?? Zone(offset: 0, abbreviation: "UTC", isUTC: true)
        let seconds = civil.unixSeconds(offset: zone.offset)
        guard abs(Double(seconds)) < ZonedTime.maxSeconds else { return nil }
        return ZonedTime(
            instant: .init(seconds: seconds, nanoseconds: nanoseconds), offset: zone.offset,
            abbreviation: zone.abbreviation, isUTC: zone.isUTC)
    }
}

/// A cursor over the scalars of a date.
private struct ScalarReader {
    let scalars: [Unicode.Scalar]
    var position = 0

    var atEnd: Bool { position >= scalars.count }
    var peekIsDigit: Bool { !atEnd && Self.isDigit(scalars[position]) }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 97 && scalar.value <= 122 }

    mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
        while !atEnd, predicate(scalars[position]) { position += 1 }
    }

    mutating func skipSpaces() { skip { $0 == " " || $0 == "\t" } }

    mutating func take(anyOf characters: String) -> Unicode.Scalar? {
        guard !atEnd, characters.unicodeScalars.contains(scalars[position]) else { return nil }
        defer { position += 1 }
        return scalars[position]
    }

    mutating func number(maxDigits: Int) -> (value: Int64, digits: Int)? {
        var value: Int64 = 0
        var digits = 0
        while !atEnd, Self.isDigit(scalars[position]), digits < maxDigits {
            value = value * 10 + Int64(scalars[position].value - 48)
            digits += 1
            position += 1
        }
        if !atEnd, Self.isDigit(scalars[position]) { return nil }
        return digits > 0 ? (value, digits) : nil
    }

    mutating func word() -> String? {
        let start = position
        while !atEnd, Self.isLetter(scalars[position]) { position += 1 }
        guard position > start else { return nil }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    /// `HH:MM[:SS[.fraction]]`.
    mutating func clock() -> (Int, Int, Int, Int)? {
        let start = position
        guard let hour = number(maxDigits: 2), take(anyOf: ":") != nil, let minute = number(maxDigits: 2),
            minute.digits == 2
        else {
            position = start
            return nil
        }
        var second: Int64 = 0
        var nanoseconds = 0
        if take(anyOf: ":") != nil {
            guard let value = number(maxDigits: 2), value.digits == 2 else {
                position = start
                return nil
            }
            second = value.value
            if take(anyOf: ".") != nil {
                var scale = 100_000_000
                var digits = 0
                while !atEnd, Self.isDigit(scalars[position]) {
                    if digits < 9 { nanoseconds += Int(scalars[position].value - 48) * scale }
                    scale /= 10
                    digits += 1
                    position += 1
                }
                guard digits > 0 else { return nil }
            }
        }
        return (Int(hour.value), Int(minute.value), Int(second), nanoseconds)
    }

    /// `Z`, `UTC`, `GMT`, a US zone abbreviation, or `±hh[:]mm`: .some(zone);
    /// nothing zone-like: nil (the position is left as it was).
    mutating func zone() -> DateParsing.Zone?? {
        let start = position
        if let sign = take(anyOf: "+-") {
            guard let digits = number(maxDigits: 4), digits.digits == 2 || digits.digits == 4 else {
                position = start
                return nil
            }
            var hours = digits.value
            var minutes: Int64 = 0
            if digits.digits == 4 {
                hours = digits.value / 100
                minutes = digits.value % 100
            } else if take(anyOf: ":") != nil {
                guard let value = number(maxDigits: 2), value.digits == 2 else { return .some(nil) }
                minutes = value.value
            }
            guard hours <= 18, minutes < 60 else { return .some(nil) }
            let offset = (sign == "-" ? -1 : 1) * Int(hours * 3600 + minutes * 60)
            return .some(
                DateParsing.Zone(offset: offset, abbreviation: Strftime.offsetText(offset, colons: 0), isUTC: false))
        }
        guard let word = word() else { return nil }
        let known: [String: Int] = [
            "z": 0, "utc": 0, "gmt": 0, "ut": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
            "pst": -8, "pdt": -7,
        ]
        guard let hours = known[word] else {
            position = start
            return nil
        }
        let isUTC = hours == 0
        return .some(
            DateParsing.Zone(offset: hours * 3600, abbreviation: isUTC ? "UTC" : word.uppercased(), isUTC: isUTC))
    }
}
