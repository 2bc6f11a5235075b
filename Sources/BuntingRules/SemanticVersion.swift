import BuntingJSON

/// A version as flagd's `sem_ver` reads it: an optional `v`/`V`, then
/// SemVer 2.0.0 (`major.minor.patch[-prerelease][+build]`), where a missing
/// minor or patch counts as 0 (`"1.2"` is `1.2.0`).
struct SemanticVersion: Sendable {
    /// Decimal digits without leading zeros, compared by length then text, so
    /// that numbers of any size order correctly.
    let major: Substring
    let minor: Substring
    let patch: Substring
    let prerelease: [Substring]

    /// Numbers are read as their string form; other values are not versions.
    init?(_ value: JSON) {
        switch value {
        case .string(let text): self.init(text)
        case .integer, .real: self.init(JavaScript.toString(value))
        default: return nil
        }
    }

    init?(_ text: String) {
        var rest = Substring(text)
        if let first = rest.first, first == "v" || first == "V" { rest = rest.dropFirst() }
        // Split off build, then prerelease, from the first '+' and '-'.
        var core = rest
        var prereleaseText: Substring?
        if let plus = rest.firstIndex(of: "+") {
            guard Self.isValidBuild(rest[rest.index(after: plus)...]) else { return nil }
            core = rest[..<plus]
        }
        if let dash = core.firstIndex(of: "-") {
            prereleaseText = core[core.index(after: dash)...]
            core = core[..<dash]
        }
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(numbers.count), numbers.allSatisfy(Self.isNumericIdentifier) else { return nil }
        major = numbers[0]
        minor = numbers.count > 1 ? numbers[1] : "0"
        patch = numbers.count > 2 ? numbers[2] : "0"
        if let prereleaseText {
            let identifiers = prereleaseText.split(separator: ".", omittingEmptySubsequences: false)
            guard identifiers.allSatisfy(Self.isPrereleaseIdentifier) else { return nil }
            prerelease = identifiers
        } else {
            prerelease = []
        }
    }

    /// SemVer precedence: the numbers, then a version with a prerelease
    /// before the same one without, then the prerelease identifiers in turn
    /// (numeric ones numerically and before alphanumeric ones, which compare
    /// in ASCII order), then the longer list. Build metadata is ignored.
    static func compare(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Int {
        for (a, b) in [(lhs.major, rhs.major), (lhs.minor, rhs.minor), (lhs.patch, rhs.patch)] {
            let order = compareNumbers(a, b)
            if order != 0 { return order }
        }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        for (a, b) in zip(lhs.prerelease, rhs.prerelease) {
            let aNumeric = a.utf8.allSatisfy(isDigit)
            let bNumeric = b.utf8.allSatisfy(isDigit)
            let order: Int
            switch (aNumeric, bNumeric) {
            case (true, true): order = compareNumbers(a, b)
            case (true, false): order = -1
            case (false, true): order = 1
            case (false, false): order = a.utf8.elementsEqual(b.utf8) ? 0 : (a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1)
            }
            if order != 0 { return order }
        }
        return lhs.prerelease.count == rhs.prerelease.count ? 0 : (lhs.prerelease.count < rhs.prerelease.count ? -1 : 1)
    }

    static func holds(_ operation: SemanticVersionOperation, _ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Bool {
        switch operation {
        case .equal: return compare(lhs, rhs) == 0
        case .notEqual: return compare(lhs, rhs) != 0
        case .less: return compare(lhs, rhs) < 0
        case .lessOrEqual: return compare(lhs, rhs) <= 0
        case .greater: return compare(lhs, rhs) > 0
        case .greaterOrEqual: return compare(lhs, rhs) >= 0
        case .sameMajor: return lhs.major == rhs.major
        case .sameMinor: return lhs.major == rhs.major && lhs.minor == rhs.minor
        }
    }

    private static func compareNumbers(_ a: Substring, _ b: Substring) -> Int {
        let a = a.drop { $0 == "0" }
        let b = b.drop { $0 == "0" }
        if a.utf8.count != b.utf8.count { return a.utf8.count < b.utf8.count ? -1 : 1 }
        if a.utf8.elementsEqual(b.utf8) { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    /// `0` or digits without a leading zero.
    private static func isNumericIdentifier(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, text.utf8.allSatisfy(isDigit) else { return false }
        return first != UInt8(ascii: "0") || text.utf8.count == 1
    }

    /// A numeric identifier, or alphanumerics and hyphens with at least one non-digit.
    private static func isPrereleaseIdentifier(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.utf8.allSatisfy(isIdentifierByte) else { return false }
        return text.utf8.allSatisfy(isDigit) ? isNumericIdentifier(text) : true
    }

    /// Dot-separated non-empty identifiers of alphanumerics and hyphens.
    private static func isValidBuild(_ text: Substring) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0.utf8.allSatisfy(isIdentifierByte)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "-")
    }
}
