/// The offsets of one IANA time zone through time, read from its TZif file
/// (RFC 8536): the transitions it lists, then the POSIX rule of its footer
/// for the years after them.
final class TimeZoneRules: Sendable {
    struct LocalTimeType: Sendable {
        var offset: Int
        var isDST: Bool
        var abbreviation: String
    }

    let name: String
    let isUTC: Bool
    private let transitions: [Int64]
    /// The local time type in force from each transition on.
    private let typeIndices: [UInt8]
    private let types: [LocalTimeType]
    private let footer: PosixTimeZone?

    init(
        name: String, isUTC: Bool, transitions: [Int64], typeIndices: [UInt8], types: [LocalTimeType],
        footer: PosixTimeZone?
    ) {
        self.name = name
        self.isUTC = isUTC
        self.transitions = transitions
        self.typeIndices = typeIndices
        self.types = types
        self.footer = footer
    }

    /// A fixed offset (`UTC`, `-0500`, `+05:30`).
    static func fixed(name: String, offset: Int, abbreviation: String, isUTC: Bool = false) -> TimeZoneRules {
        TimeZoneRules(
            name: name, isUTC: isUTC, transitions: [], typeIndices: [],
            types: [LocalTimeType(offset: offset, isDST: false, abbreviation: abbreviation)], footer: nil)
    }

    static let utc = TimeZoneRules.fixed(name: "UTC", offset: 0, abbreviation: "UTC", isUTC: true)

    /// The offset and abbreviation in force at `seconds` after the epoch.
    func localTime(at seconds: Int64) -> LocalTimeType {
        if let last = transitions.last, seconds >= last, let footer {
            return footer.localTime(at: seconds)
        }
        if transitions.isEmpty {
            if let footer { return footer.localTime(at: seconds) }
            return types.first ?? LocalTimeType(offset: 0, isDST: false, abbreviation: "UTC")
        }
        guard seconds >= transitions[0] else { return firstStandardType }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        let index = Int(typeIndices[low])
        return index < types.count ? types[index] : firstStandardType
    }

    /// Before the first transition RFC 8536 takes the first type.
    private var firstStandardType: LocalTimeType {
        types.first ?? LocalTimeType(offset: 0, isDST: false, abbreviation: "UTC")
    }

    /// Parses a TZif file; nil when it is not one.
    static func parse(_ bytes: [UInt8], name: String) -> TimeZoneRules? {
        var reader = TZifReader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var block = header
        var timeSize = 4
        if header.version >= 2 {
            // Skip the 32-bit block; the 64-bit one follows with its own header.
            guard reader.skip(header.dataLength(timeSize: 4)), let second = reader.header() else { return nil }
            block = second
            timeSize = 8
        }
        var transitions: [Int64] = []
        transitions.reserveCapacity(block.timeCount)
        for _ in 0..<block.timeCount {
            guard let time = timeSize == 8 ? reader.int64() : reader.int32().map(Int64.init) else { return nil }
            transitions.append(time)
        }
        guard let typeIndices = reader.bytes(block.timeCount) else { return nil }
        var rawTypes: [(offset: Int32, isDST: Bool, index: Int)] = []
        for _ in 0..<block.typeCount {
            guard let offset = reader.int32(), let isDST = reader.byte(), let index = reader.byte() else { return nil }
            rawTypes.append((offset, isDST != 0, Int(index)))
        }
        guard let characters = reader.bytes(block.characterCount) else { return nil }
        guard reader.skip(block.leapCount * (timeSize + 4) + block.standardCount + block.utcCount) else { return nil }
        let types = rawTypes.map { raw -> LocalTimeType in
            var end = raw.index
            while end < characters.count, characters[end] != 0 { end += 1 }
            let abbreviation = raw.index < end ? String(decoding: characters[raw.index..<end], as: UTF8.self) : ""
            return LocalTimeType(offset: Int(raw.offset), isDST: raw.isDST, abbreviation: abbreviation)
        }
        guard !types.isEmpty, typeIndices.allSatisfy({ Int($0) < types.count }) else { return nil }
        var footer: PosixTimeZone?
        if header.version >= 2, reader.byte() == UInt8(ascii: "\n"), let text = reader.line() {
            footer = PosixTimeZone(text)
        }
        let isUTC = types.count == 1 && types[0].offset == 0 && transitions.isEmpty
        return TimeZoneRules(
            name: name, isUTC: isUTC, transitions: transitions, typeIndices: typeIndices, types: types, footer: footer)
    }
}

/// Reads a TZif file's big-endian fields.
private struct TZifReader {
    let bytes: [UInt8]
    var position = 0

    struct Header {
        var version: Int
        var utcCount, standardCount, leapCount, timeCount, typeCount, characterCount: Int

        func dataLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + standardCount + utcCount
        }
    }

    mutating func header() -> Header? {
        guard position + 44 <= bytes.count, bytes[position..<(position + 4)].elementsEqual("TZif".utf8) else {
            return nil
        }
        let versionByte = bytes[position + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        position += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let count = int32(), count >= 0, count < 1_000_000 else { return nil }
            counts.append(Int(count))
        }
        return Header(
            version: version, utcCount: counts[0], standardCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], characterCount: counts[5])
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count else { return false }
        position += count
        return true
    }

    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, position + count <= bytes.count else { return nil }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func int32() -> Int32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 8 | UInt32(bytes[position + offset]) }
        position += 4
        return Int32(bitPattern: value)
    }

    mutating func int64() -> Int64? {
        guard position + 8 <= bytes.count else { return nil }
        var value: UInt64 = 0
        for offset in 0..<8 { value = value << 8 | UInt64(bytes[position + offset]) }
        position += 8
        return Int64(bitPattern: value)
    }

    /// The text up to the next newline.
    mutating func line() -> String? {
        guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        defer { position = end + 1 }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }
}
