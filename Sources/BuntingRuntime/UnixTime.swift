/// A moment as scripts and people write it, wherever Bunting takes a time
/// (`eval --at`, `serve --clock manual=TIME`, `setClock`): Unix seconds
/// (`1764600000`, `1764600000.25`) or an RFC 3339 date-time
/// (`2026-12-08T09:00:00Z`, `2026-12-08 10:00:00.5+01:00`). One reading for
/// all of them, so that a time that works in one place works in every other.
public enum UnixTime {
    /// The years RFC 3339 can write (0000–9999), as Unix seconds.
    public static let earliest = -62_167_219_200.0
    public static let latest = 253_402_300_799.0

    /// What the text names, in Unix seconds; nil when it is neither form or
    /// lies outside the years 0000–9999.
    public static func parse(_ text: String) -> Double? {
        if let seconds = Double(text) {
            return seconds.isFinite && seconds >= earliest && seconds <= latest ? seconds : nil
        }
        return dateTime(Array(text.utf8))
    }

    /// What `parse` says when it refuses, for error messages.
    public static let expected = "Unix seconds or an RFC 3339 date-time such as 2026-12-08T09:00:00Z"

    /// `2026-12-08T09:00:00Z`, with a fraction (to the microsecond) when there is one.
    public static func rfc3339(_ seconds: Double) -> String {
        let clamped = min(max(seconds, earliest), latest)
        var whole = Int64(clamped.rounded(.down))
        var micros = Int64(((clamped - Double(whole)) * 1_000_000).rounded())
        if micros == 1_000_000 {
            whole += 1
            micros = 0
        }
        let days = floorDivide(whole, 86_400)
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micros > 0 {
            var fraction = pad(micros, 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    // MARK: - RFC 3339

    /// `full-date ("T" / "t" / " ") full-time`, the offset required.
    private static func dateTime(_ bytes: [UInt8]) -> Double? {
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2),
            reader.skip("T") || reader.skip("t") || reader.skip(" "),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2), reader.skip(":"),
            let second = reader.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60 // 60: a leap second, read as the next minute's first
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            var scale = 0.1
            var any = false
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                any = true
            }
            guard any else { return nil }
        }
        var offset: Int64 = 0
        if reader.skip("Z") || reader.skip("z") {
            offset = 0
        } else {
            let sign: Int64
            if reader.skip("+") { sign = 1 } else if reader.skip("-") { sign = -1 } else { return nil }
            guard let hours = reader.number(digits: 2), reader.skip(":"), let minutes = reader.number(digits: 2),
                hours <= 23, minutes <= 59
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard reader.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return seconds >= earliest && seconds <= latest ? seconds : nil
    }

    private struct DigitReader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                return nil
            }
            defer { index += 1 }
            return Int64(bytes[index] - UInt8(ascii: "0"))
        }

        /// Exactly `digits` digits.
        mutating func number(digits: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }

    // MARK: - The proleptic Gregorian calendar (Howard Hinnant's algorithms)

    private static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
