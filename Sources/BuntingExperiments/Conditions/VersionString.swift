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
        case .string(let text) where !text.isEmpty: return padded(text)
        case .integer, .real: return padded(JSValues.string(JSValues.toNumber(value)))
        default: return padded("0")
        }
    }

    /// In one pass over the code units, copied to a buffer of the call's own
    /// (on the stack when small): versions are compared in hot loops.
    static func padded(_ text: String) -> [UInt16] {
        let count = text.utf16.count
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(count, 1)) { buffer in
            copyCodeUnits(of: text, into: buffer)
            return padded(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    static func padded(_ units: UnsafeBufferPointer<UInt16>) -> [UInt16] {
        // `replace(/(^v|\+.*$)/g, "")`: a leading v, and the first `+` after
        // which no line terminator comes.
        let start = units.first == UInt16(ascii: "v") ? 1 : 0
        var afterTerminator = start
        for index in start..<units.count where QueryStringOverride.isLineTerminator(units[index]) {
            afterTerminator = index + 1
        }
        var end = units.count
        for index in afterTerminator..<units.count where units[index] == UInt16(ascii: "+") {
            end = index
            break
        }
        func isSeparator(_ unit: UInt16) -> Bool { unit == UInt16(ascii: ".") || unit == UInt16(ascii: "-") }
        var parts = 1
        for index in start..<max(start, end) where isSeparator(units[index]) { parts += 1 }

        var output: [UInt16] = []
        output.reserveCapacity(max(0, end - start) + 4 * parts + 2)
        var partStart = start
        var index = start
        while true {
            if index == end || (index < end && isSeparator(units[index])) {
                let part = UnsafeBufferPointer(rebasing: units[partStart..<max(partStart, index)])
                if partStart > start { output.append(UInt16(ascii: "-")) }
                let numeric = !part.isEmpty && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                if numeric, part.count < 5 {
                    output.append(contentsOf: repeatElement(UInt16(ascii: " "), count: 5 - part.count))
                }
                output.append(contentsOf: part)
                if index >= end { break }
                partStart = index + 1
            }
            index += 1
        }
        // A version of exactly three parts sorts after its pre-releases.
        if parts == 3 {
            output.append(UInt16(ascii: "-"))
            output.append(UInt16(ascii: "~"))
        }
        return output
    }

    /// Compares two padded versions as JavaScript compares strings.
    static func compare(_ a: [UInt16], _ b: [UInt16]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}
