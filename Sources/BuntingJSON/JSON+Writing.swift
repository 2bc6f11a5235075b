/// The compact text of values without reals, written in Swift: the same
/// bytes jansson writes (compact, keys in order, strings escaped as its
/// `dump_string` does without `JSON_ENSURE_ASCII` or `JSON_ESCAPE_SLASH`),
/// without building a jansson tree first. Small values (a flag, a reply's
/// members) are written by the thousand, and making the tree, a node and a
/// hash table per value, cost more than writing it.
///
/// Reals are left to jansson: it writes every real of a value with one
/// precision (see `JSON.encode(appendingTo:)`), and that form is kept.
extension JSON {
    /// Appends the text and returns true, or leaves `output` as it was and
    /// returns false when the value holds a real.
    func writeWithoutReals(appendingTo output: inout [UInt8]) -> Bool {
        let start = output.count
        guard write(to: &output) else {
            output.removeSubrange(start...)
            return false
        }
        return true
    }

    /// False at the first real (what was written so far is the caller's to drop).
    private func write(to output: inout [UInt8]) -> Bool {
        switch self {
        case .null:
            output.append(contentsOf: Self.nullText)
        case .bool(let flag):
            output.append(contentsOf: flag ? Self.trueText : Self.falseText)
        case .integer(let number):
            Self.write(number, to: &output)
        case .real:
            return false
        case .string(let text):
            Self.write(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                guard element.write(to: &output) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in members {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                Self.write(key, to: &output)
                output.append(UInt8(ascii: ":"))
                guard member.write(to: &output) else { return false }
            }
            output.append(UInt8(ascii: "}"))
        }
        return true
    }

    private static let nullText = Array("null".utf8)
    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    /// Decimal digits, as `%lld` writes them.
    private static func write(_ number: Int64, to output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so that Int64.min has one; 20 digits at most.
        var rest = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var end = digits.count
            repeat {
                end -= 1
                digits[end] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[end...]))
        }
    }

    /// A string between quotes: `"` and `\` escaped, the control characters
    /// as `\b \f \n \r \t` or `\u00XX` (upper-case hex), everything else, NUL
    /// aside, as its UTF-8 bytes.
    private static func write(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var plainFrom = 0
            for (position, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<position]))
                plainFrom = position + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
