import BuntingRules

/// `?<experimentKey>=<i>` in the page URL forces variation i, as the
/// JavaScript SDK's `getQueryStringOverride` reads it: the text after the
/// first `?` up to any next `?`, without its `#` part, split on `&`, the
/// first pair whose key is the experiment key, its value read by `parseInt`.
public enum QueryStringOverride {
    public static func variation(experimentKey: String, url: String, variationCount: Int) -> Int? {
        guard !url.isEmpty else { return nil }
        let units = Array(url.utf16)
        guard let question = units.firstIndex(of: UInt16(ascii: "?")) else { return nil }
        var search = units[(question + 1)...]
        if let nextQuestion = search.firstIndex(of: UInt16(ascii: "?")) { search = search[..<nextQuestion] }
        guard !search.isEmpty else { return nil }
        // `replace(/#.*/, "")`: `.` stops at a line terminator.
        var query = Array(search)
        if let hash = query.firstIndex(of: UInt16(ascii: "#")) {
            var end = hash + 1
            while end < query.count, !isLineTerminator(query[end]) { end += 1 }
            query.removeSubrange(hash..<end)
        }
        let key = Array(experimentKey.utf16)
        for pair in query.split(separator: UInt16(ascii: "&"), omittingEmptySubsequences: false) {
            let parts = pair.split(separator: UInt16(ascii: "="), maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.first.map({ Array($0) == key }) ?? key.isEmpty else { continue }
            // The first pair with the key decides, whatever its value.
            guard parts.count > 1, let value = parseInt(Array(parts[1])) else { return nil }
            guard value >= 0, value < Double(variationCount) else { return nil }
            return Int(value)
        }
        return nil
    }

    /// `parseInt(text)` (radix 10, or 16 after `0x`): leading white space and
    /// a sign, then the longest run of digits; nil for NaN.
    static func parseInt(_ units: [UInt16]) -> Double? {
        var index = 0
        while index < units.count, let scalar = Unicode.Scalar(units[index]), isWhiteSpaceOrTerminator(scalar) {
            index += 1
        }
        var negative = false
        if index < units.count, units[index] == UInt16(ascii: "-") || units[index] == UInt16(ascii: "+") {
            negative = units[index] == UInt16(ascii: "-")
            index += 1
        }
        var radix = 10.0
        if index + 1 < units.count, units[index] == UInt16(ascii: "0"), units[index + 1] | 0x20 == UInt16(ascii: "x") {
            radix = 16
            index += 2
        }
        var value = 0.0
        var digits = 0
        while index < units.count, let digit = digitValue(units[index]), Double(digit) < radix {
            value = value * radix + Double(digit)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    private static func digitValue(_ unit: UInt16) -> Int? {
        switch unit {
        case UInt16(ascii: "0")...UInt16(ascii: "9"): return Int(unit - UInt16(ascii: "0"))
        case UInt16(ascii: "a")...UInt16(ascii: "z"): return Int(unit - UInt16(ascii: "a")) + 10
        case UInt16(ascii: "A")...UInt16(ascii: "Z"): return Int(unit - UInt16(ascii: "A")) + 10
        default: return nil
        }
    }

    static func isLineTerminator(_ unit: UInt16) -> Bool {
        unit == 0x0A || unit == 0x0D || unit == 0x2028 || unit == 0x2029
    }

    private static func isWhiteSpaceOrTerminator(_ scalar: Unicode.Scalar) -> Bool {
        JavaScript.isWhiteSpace(scalar)
    }
}
