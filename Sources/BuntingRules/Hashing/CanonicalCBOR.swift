import BuntingJSON

/// The canonical CBOR encoding (RFC 7049 §3.9) of a JSON value, as the
/// CBOR generation of `fractional` hashes it: whole reals written as
/// integers, other reals in the shortest float width that keeps their value,
/// map keys sorted by length and then bytes.
enum CanonicalCBOR {
    /// Nil when the value nests deeper than `maxDepth`.
    static func encode(_ value: JSON, maxDepth: Int = JSON.defaultMaxDepth) -> [UInt8]? {
        var sortingWork = 0
        return encode(value, maxDepth: maxDepth, sortingWork: &sortingWork)
    }

    /// `encode`, adding to `sortingWork` the work of ordering object members
    /// on the way: per member, its key encoded and about log₂ of its
    /// object's size comparisons.
    static func encode(_ value: JSON, maxDepth: Int = JSON.defaultMaxDepth, sortingWork: inout Int) -> [UInt8]? {
        var output: [UInt8] = []
        guard append(value, to: &output, depth: 0, maxDepth: maxDepth, sortingWork: &sortingWork) else { return nil }
        return output
    }

    private static func append(
        _ value: JSON, to output: inout [UInt8], depth: Int, maxDepth: Int, sortingWork: inout Int
    ) -> Bool {
        guard depth <= maxDepth else { return false }
        switch value {
        case .null:
            output.append(0xf6)
        case .bool(let flag):
            output.append(flag ? 0xf5 : 0xf4)
        case .integer(let number):
            appendInteger(number, to: &output)
        case .real(let number):
            appendReal(number, to: &output)
        case .string(let text):
            appendHead(major: 3, UInt64(text.utf8.count), to: &output)
            output.append(contentsOf: text.utf8)
        case .array(let elements):
            appendHead(major: 4, UInt64(elements.count), to: &output)
            for element in elements {
                guard append(element, to: &output, depth: depth + 1, maxDepth: maxDepth, sortingWork: &sortingWork)
                else { return false }
            }
        case .object(let object):
            sortingWork += object.count * (1 + Int.bitWidth - object.count.leadingZeroBitCount)
            var entries: [(key: [UInt8], value: JSON)] = []
            entries.reserveCapacity(object.count)
            for (key, member) in object {
                var encodedKey: [UInt8] = []
                appendHead(major: 3, UInt64(key.utf8.count), to: &encodedKey)
                encodedKey.append(contentsOf: key.utf8)
                entries.append((encodedKey, member))
            }
            entries.sort { a, b in
                a.key.count != b.key.count ? a.key.count < b.key.count : a.key.lexicographicallyPrecedes(b.key)
            }
            appendHead(major: 5, UInt64(entries.count), to: &output)
            for entry in entries {
                output.append(contentsOf: entry.key)
                guard append(entry.value, to: &output, depth: depth + 1, maxDepth: maxDepth, sortingWork: &sortingWork)
                else { return false }
            }
        }
        return true
    }

    private static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
        if number >= 0 {
            appendHead(major: 0, UInt64(number), to: &output)
        } else {
            appendHead(major: 1, UInt64(-(number + 1)), to: &output)
        }
    }

    /// Whole numbers from -2⁶³ to just under 2⁶⁴ become integers; the rest
    /// take the narrowest of half, single and double precision that holds
    /// them exactly.
    private static func appendReal(_ number: Double, to output: inout [UInt8]) {
        if number.isFinite, number.rounded(.towardZero) == number,
            number >= -9_223_372_036_854_775_808.0, number < 18_446_744_073_709_551_616.0
        {
            if number >= 0 {
                appendHead(major: 0, UInt64(number), to: &output)
            } else {
                appendInteger(Int64(number), to: &output)
            }
            return
        }
        if number.isNaN {
            output.append(contentsOf: [0xf9, 0x7e, 0x00])
            return
        }
        let single = Float(number)
        guard single.isFinite || number.isInfinite, Double(single) == number else {
            output.append(0xfb)
            appendBigEndian(number.bitPattern, bytes: 8, to: &output)
            return
        }
        let half = Float16(number)
        if Double(half) == number {
            output.append(0xf9)
            appendBigEndian(UInt64(half.bitPattern), bytes: 2, to: &output)
        } else {
            output.append(0xfa)
            appendBigEndian(UInt64(single.bitPattern), bytes: 4, to: &output)
        }
    }

    private static func appendHead(major: UInt8, _ argument: UInt64, to output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            output.append(type | UInt8(argument))
        case 24..<0x100:
            output.append(type | 24)
            output.append(UInt8(argument))
        case 0x100..<0x1_0000:
            output.append(type | 25)
            appendBigEndian(argument, bytes: 2, to: &output)
        case 0x1_0000..<0x1_0000_0000:
            output.append(type | 26)
            appendBigEndian(argument, bytes: 4, to: &output)
        default:
            output.append(type | 27)
            appendBigEndian(argument, bytes: 8, to: &output)
        }
    }

    private static func appendBigEndian(_ value: UInt64, bytes: Int, to output: inout [UInt8]) {
        for index in stride(from: bytes - 1, through: 0, by: -1) {
            output.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}
