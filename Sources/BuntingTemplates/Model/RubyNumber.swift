/// Ruby's readings of numbers in text, which Liquid's filters use: `to_i`
/// (leading digits, `'7,42'` is 7), `Integer()` (the whole text, or an
/// error) and `to_number` (a decimal when the text is one, else `to_i`).
enum RubyNumber {
    /// Ruby's `String#to_i`: leading whitespace, a sign, then digits (single
    /// underscores between them allowed); anything else ends the number, and
    /// no digits read as 0. nil when the digits do not fit in 64 bits.
    static func leadingInteger(_ text: String) -> Int64? {
        var iterator = text.utf8.makeIterator()
        var byte = iterator.next()
        while let current = byte, MarkupScanner.isWhitespace(current) { byte = iterator.next() }
        var negative = false
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            byte = iterator.next()
        }
        var magnitude: UInt64 = 0
        var lastWasDigit = false
        while let current = byte {
            if ExpressionLexer.isDigit(current) {
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(current - UInt8(ascii: "0")))
                if overflow1 || overflow2 { return nil }
                magnitude = sum
                lastWasDigit = true
            } else if current == UInt8(ascii: "_"), lastWasDigit {
                lastWasDigit = false
            } else {
                break
            }
            byte = iterator.next()
        }
        return signed(magnitude, negative: negative)
    }

    private static func signed(_ magnitude: UInt64, negative: Bool) -> Int64? {
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// Ruby's `Integer(text)`: the whole text (spaces around it allowed) is
    /// an integer, decimal or with a `0x`, `0b`, `0o` or `0` (octal) prefix,
    /// underscores allowed between digits. nil otherwise.
    static func wholeInteger(_ text: String) -> Int64?? {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, MarkupScanner.isWhitespace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, MarkupScanner.isWhitespace(last) { bytes = bytes.dropLast() }
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var radix: UInt64 = 10
        if bytes.count >= 2, bytes.first == UInt8(ascii: "0") {
            let marker = bytes[bytes.startIndex + 1] | 0x20
            switch marker {
            case UInt8(ascii: "x"): radix = 16; bytes = bytes.dropFirst(2)
            case UInt8(ascii: "b"): radix = 2; bytes = bytes.dropFirst(2)
            case UInt8(ascii: "o"): radix = 8; bytes = bytes.dropFirst(2)
            case UInt8(ascii: "d"): radix = 10; bytes = bytes.dropFirst(2)
            default: radix = 8; bytes = bytes.dropFirst(1)
            }
        }
        guard !bytes.isEmpty, bytes.first != UInt8(ascii: "_"), bytes.last != UInt8(ascii: "_") else { return .none }
        var magnitude: UInt64 = 0
        var previousWasUnderscore = false
        for byte in bytes {
            if byte == UInt8(ascii: "_") {
                if previousWasUnderscore { return .none }
                previousWasUnderscore = true
                continue
            }
            previousWasUnderscore = false
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return .none
            }
            guard digit < radix else { return .none }
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            // An integer, but past 64 bits: .some(nil).
            if overflow1 || overflow2 { return .some(nil) }
            magnitude = sum
        }
        return .some(signed(magnitude, negative: negative))
    }

    /// Liquid's `to_integer` (the arguments of `slice`, `truncate`, `limit`,
    /// `offset`): an integer, or text that is one as a whole; anything else
    /// (a decimal, nil, an array) is an error.
    static func integer(_ value: Value, at offset: Int) throws(TemplateOffsetError) -> Int64 {
        switch value {
        case .integer(let number): return number
        case .string(let text):
            switch wholeInteger(text) {
            case .some(.some(let number)): return number
            case .some(.none): throw .limit("the integer '\(text)' does not fit in 64 bits", at: offset)
            case .none: break
            }
        default: break
        }
        throw .invalid("invalid integer: \(value.inspected)", at: offset)
    }
}

extension Int64 {
    /// The value as an `Int`, saturating (Int is 64 bits on Bunting's platforms).
    var clampedToInt: Int { Int(clamping: self) }
}
