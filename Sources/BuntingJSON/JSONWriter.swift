/// Writes a `JSON` value as compact text in Swift, byte for byte as jansson's
/// dump writes it with Bunting's flags (`JSON.encode(appendingTo:)`), for the
/// values that hold no real number.
///
/// Jansson's dump builds a tree of the value first (an allocation per value,
/// a hash table per object) and checks every array and object for cycles as
/// it writes: writing a changeUser snapshot of 20,000 flags spent about three
/// quarters of its instructions there. What it writes is simple where no
/// real is involved: `null`, `true`, `false`, integers in decimal, strings
/// with `"` and `\` escaped by a backslash, the control characters below
/// U+0020 as `\b \f \n \r \t` or `\u00XX` (capital hex), everything else
/// (`/`, U+007F, non-ASCII) as it is; keys in insertion order, no white
/// space. Reals are left to jansson, whose precision is one per dump (the
/// most any real of the value needs), so a real changes how the others of
/// the same value are written.
enum JSONWriter {
    /// Appends the text of `value` to `output` and answers true, or answers
    /// false at the first real (what was appended by then is the caller's
    /// to remove).
    ///
    /// With `shortestReals`, reals that jansson's dump writes as Swift's
    /// shortest round-trip text are written too (`ShortestReals`); it answers
    /// false at the first other one.
    static func write(_ value: JSON, to output: inout [UInt8], shortestReals: Bool = false) -> Bool {
        switch value {
        case .null:
            output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) // null
        case .bool(let flag):
            if flag {
                output.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) // true
            } else {
                output.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) // false
            }
        case .integer(let number):
            writeInteger(number, to: &output)
        case .real(let number):
            guard shortestReals, let text = ShortestReals.text(of: number) else { return false }
            output.append(contentsOf: text.utf8)
        case .string(let text):
            writeString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                guard write(element, to: &output, shortestReals: shortestReals) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in members {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                guard write(member, to: &output, shortestReals: shortestReals) else { return false }
            }
            output.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// Decimal, as `%lld` writes it.
    static func writeInteger(_ number: Int64, to output: inout [UInt8]) {
        if number >= 0, number < 10 {
            output.append(UInt8(ascii: "0") + UInt8(number))
            return
        }
        // Digits from the end of a 20-byte scratch (the longest is "-9223372036854775808").
        var magnitude = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var at = 20
            repeat {
                at -= 1
                digits[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                at -= 1
                digits[at] = UInt8(ascii: "-")
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at..<20]))
        }
    }

    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, to: &output) }) {
            _ = done
        } else {
            writeEscaped(Array(text.utf8), to: &output)
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Runs of bytes that need no escape are appended whole.
    private static func writeEscaped<Bytes: RandomAccessCollection>(_ bytes: Bytes, to output: inout [UInt8])
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var runStart = bytes.startIndex
        var at = bytes.startIndex
        while at < bytes.endIndex {
            let byte = bytes[at]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                at += 1
                continue
            }
            if runStart < at { output.append(contentsOf: bytes[runStart..<at]) }
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            default:
                output.append(contentsOf: [
                    UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)],
                ])
            }
            at += 1
            runStart = at
        }
        if runStart < bytes.endIndex { output.append(contentsOf: bytes[runStart..<bytes.endIndex]) }
    }

    /// Jansson writes `\u` escapes with `%04X`.
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
