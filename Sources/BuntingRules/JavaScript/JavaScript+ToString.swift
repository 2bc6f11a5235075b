import BuntingJSON

extension JavaScript {
    /// `ToString`: arrays join their elements with commas (null elements
    /// become empty), objects are `[object Object]`, numbers are written as
    /// JavaScript writes them.
    package static func toString(_ value: JSON) -> String {
        switch value {
        case .string(let text): return text
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return string(from: number)
        case .real(let number): return string(from: number)
        case .array:
            var output: [UInt8] = []
            appendJoined(value, to: &output, depth: 0)
            return String(decoding: output, as: UTF8.self)
        case .object: return "[object Object]"
        }
    }

    /// `Array.prototype.join(",")`, recursively, into UTF-8 bytes (a byte
    /// buffer and digits written in place: an array of numbers becomes a
    /// string several times faster than by appending strings). Nesting deeper
    /// than JSON's parse limit is cut off rather than recursed into, so that a
    /// value built in code cannot exhaust the stack.
    private static func appendJoined(_ value: JSON, to output: inout [UInt8], depth: Int) {
        switch value {
        case .null: return
        case .integer(let number) where number.magnitude <= 9_007_199_254_740_992:
            appendDigits(of: number, to: &output)
        case .string(let text):
            output.append(contentsOf: text.utf8)
        case .array(let elements):
            guard depth < JSON.defaultMaxDepth else { return }
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                appendJoined(element, to: &output, depth: depth + 1)
            }
        default:
            output.append(contentsOf: toString(value).utf8)
        }
    }

    /// The decimal digits of `number`, with its sign.
    private static func appendDigits(of number: Int64, to output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        // Up to 20 digits, written backwards into a small local buffer.
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: buffer[position...])
        }
    }

    static func string(from integer: Int64) -> String {
        // Beyond 2^53 JavaScript would round to a double first.
        if integer.magnitude <= 9_007_199_254_740_992 { return String(integer) }
        return string(from: Double(integer))
    }

    /// `Number::toString(10)`: the shortest digits that read back to the same
    /// double, in plain notation from 1e-6 up to 1e21 and exponent notation
    /// (`1e+21`, `1.5e-7`) outside that range.
    package static func string(from number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number == 0 { return "0" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number < 0 { return "-" + string(from: -number) }
        if number < 9_007_199_254_740_992, number.rounded(.towardZero) == number {
            return String(Int64(number))
        }
        let (digits, pointPosition) = shortestDigits(of: number)
        return format(digits: digits, pointPosition: pointPosition)
    }

    /// The shortest round-trip decimal digits of a positive finite double and
    /// where the decimal point goes: value = 0.d1d2d3… × 10^pointPosition.
    /// Swift's `description` already computes the shortest, closest digits, as
    /// ECMAScript requires; only its layout differs.
    private static func shortestDigits(of number: Double) -> (digits: [UInt8], pointPosition: Int) {
        var digits: [UInt8] = []
        var integerDigits = 0
        var seenPoint = false
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in number.description.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                } else {
                    digits.append(byte)
                    if !seenPoint { integerDigits += 1 }
                }
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-"): if inExponent { exponentSign = -1 }
            default: break
            }
        }
        var pointPosition = integerDigits + exponentSign * exponent
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            pointPosition -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        return (digits, pointPosition)
    }

    /// ECMAScript's layout rules for `Number::toString`, steps 6–12.
    private static func format(digits: [UInt8], pointPosition n: Int) -> String {
        let k = digits.count
        var output: [UInt8] = []
        if k <= n && n <= 21 {
            output = digits + [UInt8](repeating: UInt8(ascii: "0"), count: n - k)
        } else if 0 < n && n <= 21 {
            output = Array(digits[..<n]) + [UInt8(ascii: ".")] + Array(digits[n...])
        } else if -6 < n && n <= 0 {
            output = Array("0.".utf8) + [UInt8](repeating: UInt8(ascii: "0"), count: -n) + digits
        } else {
            let exponent = n - 1
            output = [digits[0]]
            if k > 1 { output += [UInt8(ascii: ".")] + Array(digits[1...]) }
            output += Array("e\(exponent < 0 ? "-" : "+")\(exponent.magnitude)".utf8)
        }
        return String(decoding: output, as: UTF8.self)
    }
}
