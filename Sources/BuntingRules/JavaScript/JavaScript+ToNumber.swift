import BuntingJSON

extension JavaScript {
    /// `ToNumber`: null is 0, booleans are 0 and 1, strings are parsed as
    /// JavaScript parses numeric literals (white space trimmed, empty is 0,
    /// anything else NaN), arrays go through their string form, objects are NaN.
    package static func toNumber(_ value: JSON) -> Double {
        switch value {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .integer(let number): return Double(number)
        case .real(let number): return number
        case .string(let text): return number(parsing: text)
        case .array(let elements):
            return elements.isEmpty ? 0 : number(parsing: toString(value))
        case .object: return .nan
        }
    }

    /// `StringToNumber`: a decimal literal with optional sign, fraction and
    /// exponent, `Infinity`, or an unsigned `0x`/`0o`/`0b` integer, surrounded by
    /// optional white space. Swift's `Double(_:)` accepts more (`inf`, `nan`,
    /// hexadecimal fractions), so the grammar is checked here first.
    package static func number(parsing text: String) -> Double {
        // Trimmed over the UTF-8 bytes: in linear time, whatever the white space.
        let body: [UInt8] = withBytes(of: text) { bytes in
            var start = 0
            var end = bytes.count
            while start < end {
                // ASCII white space, the usual kind, without decoding.
                if bytes[start] == 0x20 || (bytes[start] >= 0x09 && bytes[start] <= 0x0D) {
                    start += 1
                } else if bytes[start] >= 0x80, let length = whiteSpaceLength(bytes, at: start) {
                    start += length
                } else {
                    break
                }
            }
            while end > start {
                if bytes[end - 1] == 0x20 || (bytes[end - 1] >= 0x09 && bytes[end - 1] <= 0x0D) {
                    end -= 1
                    continue
                }
                guard bytes[end - 1] >= 0x80 else { break }
                var last = end - 1
                while last > start, bytes[last] & 0xC0 == 0x80 { last -= 1 }
                guard whiteSpaceLength(bytes, at: last) != nil else { break }
                end = last
            }
            return Array(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        if body.isEmpty { return 0 }

        let bytes = body
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            switch bytes[1] | 0x20 {
            case UInt8(ascii: "x"): return integer(bytes.dropFirst(2), radix: 16)
            case UInt8(ascii: "o"): return integer(bytes.dropFirst(2), radix: 8)
            case UInt8(ascii: "b"): return integer(bytes.dropFirst(2), radix: 2)
            default: break
            }
        }
        var unsigned = bytes[...]
        var negative = false
        if let sign = unsigned.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            unsigned = unsigned.dropFirst()
        }
        if unsigned.elementsEqual("Infinity".utf8) { return negative ? -.infinity : .infinity }
        guard isDecimalLiteral(unsigned), let parsed = Double(String(decoding: bytes, as: UTF8.self)) else {
            return .nan
        }
        return parsed
    }

    /// The length in bytes of the white space character at `index` of valid
    /// UTF-8; nil when there is none there.
    private static func whiteSpaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return isWhiteSpace(Unicode.Scalar(lead)) ? 1 : nil }
        guard lead >= 0xC2 else { return nil }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        guard let scalar = Unicode.Scalar(value), isWhiteSpace(scalar) else { return nil }
        return length
    }

    /// `StrUnsignedDecimalLiteral`: digits with an optional fraction (either
    /// side of the point may be empty, not both) and an optional exponent.
    private static func isDecimalLiteral(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        var digits = 0
        while index < bytes.endIndex, isDigit(bytes[index]) { index += 1; digits += 1 }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.endIndex, isDigit(bytes[index]) { index += 1; digits += 1 }
        }
        guard digits > 0 else { return false }
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            var exponentDigits = 0
            while index < bytes.endIndex, isDigit(bytes[index]) { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return false }
        }
        return index == bytes.endIndex
    }

    private static func integer(_ digits: ArraySlice<UInt8>, radix: Int) -> Double {
        guard !digits.isEmpty else { return .nan }
        var result = 0.0
        for byte in digits {
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
            default: return .nan
            }
            guard value < radix else { return .nan }
            result = result * Double(radix) + Double(value)
        }
        return result
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// JavaScript's `WhiteSpace` and `LineTerminator` code points.
    package static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A,
            0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }
}
