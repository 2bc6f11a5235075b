#if canImport(Glibc)
import Glibc
#endif
import BuntingRuntime
import Synchronization

/// IANA time zones by name, read from the system's TZif files (Debian's
/// `tzdata`, under /usr/share/zoneinfo) on first use and kept in a small
/// cache shared by every render. Also fixed offsets (`-0500`, `+05:30`) and
/// `UTC`.
enum TimeZoneDatabase {
    static let directory = "/usr/share/zoneinfo/"
    /// Zones kept at most; past that the cache starts afresh, so that a
    /// stream of odd names cannot grow it.
    static let cacheSize = 64
    /// A TZif file is a few kilobytes; anything much larger is not one.
    static let maxFileBytes = 1 << 17

    private static let cache = Mutex<[String: TimeZoneRules]>([:])

    /// The zone named `name`, or nil if there is no such zone.
    static func zone(named name: String) -> TimeZoneRules? {
        switch name {
        case "UTC", "Etc/UTC", "utc", "Z", "GMT", "Etc/GMT", "Zulu": return .utc
        default: break
        }
        if let fixed = fixedOffset(name) { return fixed }
        guard isZoneName(name) else { return nil }
        if let cached = cache.withLock({ $0[name] }) { return cached }
        guard let bytes = readFile(directory + name), let rules = TimeZoneRules.parse(bytes, name: name) else {
            return nil
        }
        cache.withLock { zones in
            if zones.count >= cacheSize { zones.removeAll() }
            zones[name] = rules
        }
        return rules
    }

    /// `Area/Location` names of letters, digits, `_`, `-` and `+`: nothing
    /// that could leave the zone directory.
    static func isZoneName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64 else { return false }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            guard let first = part.utf8.first, first != UInt8(ascii: "."), first != UInt8(ascii: "-") else {
                return false
            }
            guard
                part.utf8.allSatisfy({
                    MarkupScanner.isWordByte($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
                })
            else { return false }
        }
        return true
    }

    /// `+hh`, `+hhmm`, `+hh:mm` (or `-`): a fixed offset, shown as `+hhmm`.
    static func fixedOffset(_ text: String) -> TimeZoneRules? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-") else { return nil }
        var digits = Array(bytes.dropFirst())
        if digits.count == 5, digits[2] == UInt8(ascii: ":") { digits.remove(at: 2) }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy(ExpressionLexer.isDigit) else { return nil }
        let hours = Int(digits[0] - 48) * 10 + Int(digits[1] - 48)
        let minutes = digits.count == 4 ? Int(digits[2] - 48) * 10 + Int(digits[3] - 48) : 0
        guard hours <= 18, minutes < 60 else { return nil }
        let offset = (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        return .fixed(name: text, offset: offset, abbreviation: Strftime.offsetText(offset, colons: 0))
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        try? FileDescriptorIO.readRegularFile(path, limit: maxFileBytes).get()
    }
}
