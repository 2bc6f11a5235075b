/// Ruby's `Time#strftime`, which Liquid's `date` filter calls: conversions
/// with flags (`-` no padding, `_` spaces, `0` zeros, `^` upper case, `#`
/// swapped case, `:` for `%z`) and widths. A width past the limit is an
/// error rather than a string of that size.
enum Strftime {
    struct WidthTooLarge: Error {
        let width: Int
    }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    static func format(_ format: String, _ time: ZonedTime, maxWidth: Int) -> Result<String, WidthTooLarge> {
        var output = ""
        var scalars = Array(format.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            let start = scalars
            var flags: Set<Unicode.Scalar> = []
            var colons = 0
            while let flag = scalars.first, "-_0^#".unicodeScalars.contains(flag) {
                flags.insert(flag)
                scalars = scalars.dropFirst()
            }
            var width: Int?
            while let digit = scalars.first, digit.properties.numericType == .decimal, digit.isASCII {
                let value = Int(digit.value - 48)
                let current = width ?? 0
                // Stop growing well past the limit: the error needs only to know it is too wide.
                width = current > maxWidth ? current : current * 10 + value
                scalars = scalars.dropFirst()
            }
            while scalars.first == ":" {
                colons += 1
                scalars = scalars.dropFirst()
            }
            if let width, width > maxWidth { return .failure(WidthTooLarge(width: width)) }
            guard let conversion = scalars.popFirst() else {
                output += "%" + String(String.UnicodeScalarView(start))
                break
            }
            let piece = Conversion(flags: flags, width: width, colons: colons)
            switch piece.render(conversion, time, maxWidth: maxWidth) {
            case .success(let text?): output += text
            case .success(nil):
                // Not a conversion: written as it stands.
                output += "%" + String(String.UnicodeScalarView(start[..<scalars.startIndex]))
            case .failure(let error): return .failure(error)
            }
        }
        return .success(output)
    }

    /// `+hhmm`, `+hh:mm` (one colon) or `+hh:mm:ss` (two).
    static func offsetText(_ offset: Int, colons: Int) -> String {
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        let hours = two(magnitude / 3600)
        let minutes = two(magnitude % 3600 / 60)
        switch colons {
        case 0: return sign + hours + minutes
        case 1: return sign + hours + ":" + minutes
        default: return sign + hours + ":" + minutes + ":" + two(magnitude % 60)
        }
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private struct Conversion {
        var flags: Set<Unicode.Scalar>
        var width: Int?
        var colons: Int

        func render(_ conversion: Unicode.Scalar, _ time: ZonedTime, maxWidth: Int) -> Result<String?, WidthTooLarge> {
            let civil = time.civil
            let hour12 = civil.hour % 12 == 0 ? 12 : civil.hour % 12
            switch conversion {
            case "Y": return .success(number(civil.year, digits: 4))
            case "C": return .success(number(floorDivide(civil.year, 100), digits: 2))
            case "y": return .success(number(modulo(civil.year, 100), digits: 2))
            case "m": return .success(number(Int64(civil.month), digits: 2))
            case "d": return .success(number(Int64(civil.day), digits: 2))
            case "e": return .success(number(Int64(civil.day), digits: 2, pad: " "))
            case "j": return .success(number(Int64(civil.dayOfYear), digits: 3))
            case "H": return .success(number(Int64(civil.hour), digits: 2))
            case "k": return .success(number(Int64(civil.hour), digits: 2, pad: " "))
            case "I": return .success(number(Int64(hour12), digits: 2))
            case "l": return .success(number(Int64(hour12), digits: 2, pad: " "))
            case "M": return .success(number(Int64(civil.minute), digits: 2))
            case "S": return .success(number(Int64(civil.second), digits: 2))
            case "L", "N":
                // Fractions: the width is the number of digits (3 and 9 by default).
                let digits = width ?? (conversion == "L" ? 3 : 9)
                var text = String(time.instant.nanoseconds)
                text = String(repeating: "0", count: max(0, 9 - text.count)) + text
                if digits <= 9 { return .success(String(text.prefix(digits))) }
                return .success(text + String(repeating: "0", count: digits - 9))
            case "s": return .success(number(time.instant.seconds, digits: 1))
            case "Q":
                let (millis, overflow) = time.instant.seconds.multipliedReportingOverflow(by: 1000)
                return .success(
                    number(
                        overflow ? time.instant.seconds : millis + Int64(time.instant.nanoseconds / 1_000_000),
                        digits: 1))
            case "u": return .success(number(Int64(civil.weekday == 0 ? 7 : civil.weekday), digits: 1))
            case "w": return .success(number(Int64(civil.weekday), digits: 1))
            case "U": return .success(number(Int64((civil.dayOfYear - 1 + 7 - civil.weekday) / 7), digits: 2))
            case "W": return .success(number(Int64((civil.dayOfYear - 1 + 7 - (civil.weekday + 6) % 7) / 7), digits: 2))
            case "G": return .success(number(isoWeek(civil).year, digits: 4))
            case "g": return .success(number(modulo(isoWeek(civil).year, 100), digits: 2))
            case "V": return .success(number(Int64(isoWeek(civil).week), digits: 2))
            case "A": return .success(text(Strftime.weekdays[civil.weekday]))
            case "a": return .success(text(String(Strftime.weekdays[civil.weekday].prefix(3))))
            case "B": return .success(text(Strftime.months[civil.month - 1]))
            case "b", "h": return .success(text(String(Strftime.months[civil.month - 1].prefix(3))))
            case "p": return .success(text(civil.hour < 12 ? "AM" : "PM", swapLowers: true))
            case "P": return .success(text(civil.hour < 12 ? "am" : "pm"))
            case "z":
                var body = Strftime.offsetText(time.offset, colons: colons)
                if let width, width > body.count {
                    let sign = body.removeFirst()
                    let padding = flags.contains("_") ? " " : "0"
                    body = String(repeating: padding, count: width - body.count - 1) + body
                    return .success(flags.contains("_") ? body.replacingLeadingSpaces(with: sign) : String(sign) + body)
                }
                return .success(body)
            case "Z": return .success(text(time.abbreviation))
            case "n": return .success(text("\n"))
            case "t": return .success(text("\t"))
            case "%": return .success(text("%"))
            case "c": return composite("%a %b %e %H:%M:%S %Y", time, maxWidth: maxWidth)
            case "D", "x": return composite("%m/%d/%y", time, maxWidth: maxWidth)
            case "F": return composite("%Y-%m-%d", time, maxWidth: maxWidth)
            case "T", "X": return composite("%H:%M:%S", time, maxWidth: maxWidth)
            case "R": return composite("%H:%M", time, maxWidth: maxWidth)
            case "r": return composite("%I:%M:%S %p", time, maxWidth: maxWidth)
            case "v": return composite("%e-%^b-%4Y", time, maxWidth: maxWidth)
            case "+": return composite("%a %b %e %H:%M:%S %Z %Y", time, maxWidth: maxWidth)
            default: return .success(nil)
            }
        }

        private func composite(_ format: String, _ time: ZonedTime, maxWidth: Int) -> Result<String?, WidthTooLarge> {
            Strftime.format(format, time, maxWidth: maxWidth).map { text(cased($0)) }
        }

        /// A number padded to its width (zeros by default, or `pad`).
        private func number(_ value: Int64, digits: Int, pad: Character = "0") -> String {
            var body = String(value.magnitude)
            let sign = value < 0 ? "-" : ""
            if flags.contains("-") { return sign + body }
            let padding: Character = flags.contains("_") ? " " : (flags.contains("0") ? "0" : pad)
            let target = max((width ?? digits) - sign.count, 0)
            if body.count < target {
                let fill = String(repeating: padding, count: target - body.count)
                return padding == " " ? fill + sign + body : sign + fill + body
            }
            body = sign + body
            return body
        }

        /// Text padded with spaces to its width (zeros with the `0` flag).
        private func text(_ value: String, swapLowers: Bool = false) -> String {
            var body = value
            if flags.contains("^") {
                body = body.uppercased()
            } else if flags.contains("#") {
                // Ruby's `#` swaps the case: for AM/PM that gives am/pm.
                body = swapLowers ? body.lowercased() : body.uppercased()
            }
            guard let width, !flags.contains("-"), width > body.count else { return body }
            let padding = flags.contains("0") ? "0" : " "
            return String(repeating: padding, count: width - body.count) + body
        }

        private func cased(_ value: String) -> String {
            flags.contains("^") ? value.uppercased() : value
        }

        private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
            let quotient = value / divisor
            return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient
        }

        private func modulo(_ value: Int64, _ divisor: Int64) -> Int64 {
            let remainder = value % divisor
            return remainder < 0 ? remainder + divisor : remainder
        }

        /// ISO 8601 week-numbering year and week.
        private func isoWeek(_ civil: CivilTime) -> (year: Int64, week: Int) {
            let isoWeekday = civil.weekday == 0 ? 7 : civil.weekday
            let thursday = civil.daysSinceEpoch - Int64(isoWeekday) + 4
            let (year, _, _) = CivilTime.civil(fromDays: thursday)
            let week = Int((thursday - CivilTime.days(year: year, month: 1, day: 1)) / 7) + 1
            return (year, week)
        }
    }
}

private extension String {
    /// Puts `sign` just before the first non-space character.
    func replacingLeadingSpaces(with sign: Character) -> String {
        guard let first = firstIndex(where: { $0 != " " }) else { return String(sign) + self }
        var result = self
        if first > startIndex {
            result.replaceSubrange(result.index(before: first)..<first, with: String(sign))
            return result
        }
        return String(sign) + self
    }
}
