import BuntingJSON

/// A version as flagd's `sem_ver` reads it: an optional `v`/`V`, then
/// SemVer 2.0.0 (`major.minor.patch[-prerelease][+build]`), or a partial
/// version without prerelease or build (`"1"` is `1.0.0`, `"1.2"` is
/// `1.2.0`), as the flagd daemon's semver package reads it. (flagd-core's
/// Python also pads `"1.2-rc.1"` to `1.2.0-rc.1`; the daemon refuses it.)
/// A number in the context is read as Python writes it: `2` and `2.0` are
/// `2.0.0`, `1.5` is `1.5.0`; negative numbers and `-0.0` are not versions.
///
/// Most versions are three numbers that fit in 64 bits, without prerelease:
/// those are held as the numbers alone, compared directly, and copied
/// without reference counting. The others keep their parts in `Details`.
struct SemanticVersion: Sendable {
    /// A numeric identifier of any length: small ones as integers, the rest
    /// as their digits (never with leading zeros, so longer is larger).
    enum Number: Sendable, Comparable {
        case small(UInt64)
        case large([UInt8])

        static func < (lhs: Number, rhs: Number) -> Bool {
            switch (lhs, rhs) {
            case (.small(let a), .small(let b)): return a < b
            case (.small, .large): return true
            case (.large, .small): return false
            case (.large(let a), .large(let b)):
                return a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
            }
        }
    }

    /// The parts of a version that is not three small numbers.
    final class Details: Sendable {
        let major: Number
        let minor: Number
        let patch: Number
        /// The prerelease's bytes after the `-` (`rc.1`), checked; empty for a
        /// release version. Kept whole, not split into identifiers, so that a
        /// long prerelease costs one allocation.
        let prerelease: [UInt8]

        init(major: Number, minor: Number, patch: Number, prerelease: [UInt8]) {
            self.major = major
            self.minor = minor
            self.patch = patch
            self.prerelease = prerelease
        }
    }

    /// The numbers when `details` is nil.
    private let major: UInt64
    private let minor: UInt64
    private let patch: UInt64
    private let details: Details?

    /// Strings and numbers are read as versions; other values are not versions.
    init?(_ value: JSON) {
        switch value {
        case .string(let text): self.init(text)
        case .integer(let number):
            guard number >= 0 else { return nil }
            self.init(String(number))
        case .real(let number):
            guard let text = Self.text(of: number) else { return nil }
            self.init(text)
        default: return nil
        }
    }

    /// A real as flagd-core writes it before reading it as a version
    /// (Python's `str`): the digits JavaScript writes too, except that a
    /// negative sign (also of -0.0) or an exponent (from 1e16 up, below 1e-4)
    /// makes it no version. Nil for those.
    private static func text(of number: Double) -> String? {
        guard number.sign == .plus, number.isFinite, number < 1e16 else { return nil }
        if number.rounded(.towardZero) == number { return String(Int64(number)) }
        return JavaScript.string(from: number)
    }

    init?(_ text: String) {
        // Most versions are plain numbers: read them straight, and parse in
        // full (prerelease, build, errors) only what that does not cover.
        let numbers = JavaScript.withBytes(of: text) { Self.plainNumbers($0) }
        if let (major, minor, patch) = numbers {
            self.major = major
            self.minor = minor
            self.patch = patch
            details = nil
            return
        }
        guard let parsed = JavaScript.withBytes(of: text, { Self.parse($0) }) else { return nil }
        self = parsed
    }

    /// The numbers of `[v]major[.minor[.patch]]` when each is 0 or has no
    /// leading zero and fits in 64 bits; nil for anything else, which may
    /// still be a version (`parse` decides).
    private static func plainNumbers(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64)? {
        var index = 0
        if let first = bytes.first, first | 0x20 == UInt8(ascii: "v") { index = 1 }
        var numbers: (UInt64, UInt64, UInt64) = (0, 0, 0)
        for part in 0..<3 {
            let start = index
            var value: UInt64 = 0
            while index < bytes.count, isDigit(bytes[index]) {
                // 19 digits always fit; longer numbers go to the full parse.
                guard index - start < 19 else { return nil }
                value = value * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > start, bytes[start] != UInt8(ascii: "0") || index - start == 1 else { return nil }
            switch part {
            case 0: numbers.0 = value
            case 1: numbers.1 = value
            default: numbers.2 = value
            }
            if index == bytes.count { return numbers }
            guard part < 2, bytes[index] == UInt8(ascii: ".") else { return nil }
            index += 1
        }
        return nil
    }

    private init(major: Number, minor: Number, patch: Number, prerelease: [UInt8]) {
        if case .small(let major) = major, case .small(let minor) = minor, case .small(let patch) = patch,
            prerelease.isEmpty
        {
            self.major = major
            self.minor = minor
            self.patch = patch
            details = nil
        } else {
            self.major = 0
            self.minor = 0
            self.patch = 0
            details = Details(major: major, minor: minor, patch: patch, prerelease: prerelease)
        }
    }

    /// The parts, whichever way they are held.
    private var full: Details {
        details ?? Details(major: .small(major), minor: .small(minor), patch: .small(patch), prerelease: [])
    }

    // MARK: - Parsing

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SemanticVersion? {
        var index = 0
        if let first = bytes.first, first | 0x20 == UInt8(ascii: "v") { index = 1 }
        guard let major = number(bytes, &index) else { return nil }
        var minor = Number.small(0)
        var patch = Number.small(0)
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard let value = number(bytes, &index) else { return nil }
            minor = value
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard let value = number(bytes, &index) else { return nil }
                patch = value
            } else {
                // A partial version is the numbers alone.
                guard index == bytes.count else { return nil }
            }
        } else {
            guard index == bytes.count else { return nil }
        }
        var prerelease: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            let start = index + 1
            repeat {
                index += 1
                let identifierStart = index
                var allDigits = true
                while index < bytes.count, isIdentifierByte(bytes[index]) {
                    allDigits = allDigits && isDigit(bytes[index])
                    index += 1
                }
                let length = index - identifierStart
                guard length > 0 else { return nil }
                // A numeric identifier has no leading zero.
                if allDigits, length > 1, bytes[identifierStart] == UInt8(ascii: "0") { return nil }
            } while index < bytes.count && bytes[index] == UInt8(ascii: ".")
            prerelease = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") {
            // Build metadata: checked, then ignored.
            repeat {
                index += 1
                let start = index
                while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
                guard index > start else { return nil }
            } while index < bytes.count && bytes[index] == UInt8(ascii: ".")
        }
        guard index == bytes.count else { return nil }
        return SemanticVersion(major: major, minor: minor, patch: patch, prerelease: prerelease)
    }

    /// `0` or digits without a leading zero, which must all be consumed.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Number? {
        let start = index
        var value: UInt64 = 0
        var overflow = false
        while index < bytes.count, isDigit(bytes[index]) {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            value = sum
            index += 1
        }
        let count = index - start
        guard count > 0, bytes[start] != UInt8(ascii: "0") || count == 1 else { return nil }
        return overflow ? .large(Array(bytes[start..<index])) : .small(value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "-")
    }

    // MARK: - Comparison

    /// SemVer precedence: the numbers, then a version with a prerelease
    /// before the same one without, then the prerelease identifiers in turn
    /// (numeric ones numerically and before alphanumeric ones, which compare
    /// in ASCII order), then the longer list. Build metadata is ignored.
    static func compare(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Int {
        if lhs.details == nil, rhs.details == nil {
            if lhs.major != rhs.major { return lhs.major < rhs.major ? -1 : 1 }
            if lhs.minor != rhs.minor { return lhs.minor < rhs.minor ? -1 : 1 }
            if lhs.patch != rhs.patch { return lhs.patch < rhs.patch ? -1 : 1 }
            return 0
        }
        return compare(lhs.full, rhs.full)
    }

    private static func compare(_ lhs: Details, _ rhs: Details) -> Int {
        if lhs.major != rhs.major { return lhs.major < rhs.major ? -1 : 1 }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor ? -1 : 1 }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch ? -1 : 1 }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        return comparePrereleases(lhs.prerelease, rhs.prerelease)
    }

    /// The identifiers in turn: numeric ones numerically (no leading zeros:
    /// the longer is larger) and before alphanumeric ones, which compare in
    /// ASCII order; then the longer list.
    private static func comparePrereleases(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        var left = 0
        var right = 0
        while left < lhs.count, right < rhs.count {
            let leftEnd = lhs[left...].firstIndex(of: UInt8(ascii: ".")) ?? lhs.count
            let rightEnd = rhs[right...].firstIndex(of: UInt8(ascii: ".")) ?? rhs.count
            let a = lhs[left..<leftEnd]
            let b = rhs[right..<rightEnd]
            let aNumeric = a.allSatisfy(isDigit)
            let bNumeric = b.allSatisfy(isDigit)
            switch (aNumeric, bNumeric) {
            case (true, true):
                if a.count != b.count { return a.count < b.count ? -1 : 1 }
                if !a.elementsEqual(b) { return a.lexicographicallyPrecedes(b) ? -1 : 1 }
            case (true, false): return -1
            case (false, true): return 1
            case (false, false):
                if !a.elementsEqual(b) { return a.lexicographicallyPrecedes(b) ? -1 : 1 }
            }
            left = leftEnd + 1
            right = rightEnd + 1
        }
        let leftDone = left >= lhs.count
        let rightDone = right >= rhs.count
        return leftDone == rightDone ? 0 : (leftDone ? -1 : 1)
    }

    static func holds(_ operation: SemanticVersionOperation, _ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Bool {
        switch operation {
        case .equal: return compare(lhs, rhs) == 0
        case .notEqual: return compare(lhs, rhs) != 0
        case .less: return compare(lhs, rhs) < 0
        case .lessOrEqual: return compare(lhs, rhs) <= 0
        case .greater: return compare(lhs, rhs) > 0
        case .greaterOrEqual: return compare(lhs, rhs) >= 0
        case .sameMajor:
            if lhs.details == nil, rhs.details == nil { return lhs.major == rhs.major }
            return lhs.full.major == rhs.full.major
        case .sameMinor:
            if lhs.details == nil, rhs.details == nil { return lhs.major == rhs.major && lhs.minor == rhs.minor }
            return lhs.full.major == rhs.full.major && lhs.full.minor == rhs.full.minor
        }
    }
}
