import BuntingJSON
import BuntingRules

/// The JavaScript SDK's `paddedVersionString`: versions made comparable as
/// plain strings. A leading `v` and a `+build` suffix are dropped, the rest
/// split on `.` and `-`, `~` appended to a three-part version (so that a
/// release sorts after its pre-releases), numeric parts padded to five
/// characters with spaces, and the parts joined with `-`. A number is read
/// as JavaScript prints it; anything else that is not a non-empty string is "0".
enum VersionString {
    static func padded(_ value: JSON) -> [UInt16] {
        switch value {
        case .string(let text) where !text.isEmpty: return padded(Array(text.utf16))
        case .integer, .real: return padded(Array(JSValues.string(JSValues.toNumber(value)).utf16))
        default: return padded(Array("0".utf16))
        }
    }

    static func padded(_ input: [UInt16]) -> [UInt16] {
        var text = input[...]
        // `replace(/(^v|\+.*$)/g, "")`: a leading v, and the first `+` after
        // which no line terminator comes.
        if text.first == UInt16(ascii: "v") { text = text.dropFirst() }
        var lastTerminator = -1
        for (offset, unit) in text.enumerated() where QueryStringOverride.isLineTerminator(unit) { lastTerminator = offset }
        for (offset, unit) in text.enumerated() where unit == UInt16(ascii: "+") && offset > lastTerminator {
            text = text.prefix(offset)
            break
        }
        var parts = text.split(omittingEmptySubsequences: false) { $0 == UInt16(ascii: ".") || $0 == UInt16(ascii: "-") }
        if parts.count == 3 { parts.append([UInt16(ascii: "~")][...]) }
        var output: [UInt16] = []
        output.reserveCapacity(text.count + 16)
        for (index, part) in parts.enumerated() {
            if index > 0 { output.append(UInt16(ascii: "-")) }
            let numeric = !part.isEmpty && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            if numeric, part.count < 5 {
                output.append(contentsOf: repeatElement(UInt16(ascii: " "), count: 5 - part.count))
            }
            output.append(contentsOf: part)
        }
        return output
    }

    /// Compares two padded versions as JavaScript compares strings.
    static func compare(_ a: [UInt16], _ b: [UInt16]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}
