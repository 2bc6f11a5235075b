import BuntingJSON

/// GrowthBook's hashing and bucketing, as its JavaScript SDK's `util.ts`
/// defines them: FNV-1a over UTF-16 code units (what `charCodeAt` reads),
/// two hash versions, and the ranges weights and coverage make.
public enum Bucketing {
    static let fnvOffset: UInt32 = 0x811C_9DC5

    /// FNV-1a, 32 bits, over the UTF-16 code units of `text`.
    public static func fnv1a32(_ text: String) -> UInt32 {
        fnv1a32(text, continuing: fnvOffset)
    }

    /// Continues an FNV-1a hash over `text`: hashing `a` then `b` this way is
    /// hashing `a + b`, without making it.
    static func fnv1a32(_ text: String, continuing start: UInt32) -> UInt32 {
        var value = start
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> UInt32? in
            var hash = start
            for byte in bytes {
                // UTF-8 and UTF-16 agree on ASCII; anything else is read as UTF-16 below.
                guard byte < 0x80 else { return nil }
                hash = (hash ^ UInt32(byte)) &* 0x0100_0193
            }
            return hash
        }
        if let ascii = ascii ?? nil { return ascii }
        for unit in text.utf16 {
            value ^= UInt32(unit)
            value = value &* 0x0100_0193
        }
        return value
    }

    /// FNV-1a of the decimal digits of `number`, as JavaScript's `n + ""` writes them.
    static func fnv1a32(decimal number: UInt32) -> UInt32 {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var remaining = number
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(truncatingIfNeeded: 0x30 + remaining % 10)
                remaining /= 10
            } while remaining > 0
            var hash = fnvOffset
            for index in position..<buffer.count { hash = (hash ^ UInt32(buffer[index])) &* 0x0100_0193 }
            return hash
        }
    }

    /// `hash(seed, value, version)` for a hash attribute's value, read as
    /// JavaScript's string concatenation reads it.
    static func hash(seed: String, value: JSON, version: Double) -> Double? {
        if case .string(let text) = value { return hash(seed: seed, value: text, version: version) }
        return hash(seed: seed, value: JSValues.string(value), version: version)
    }

    /// A number in [0, 1) from a seed and a hash value: version 1 (biased,
    /// kept for old experiments) or 2; nil for any other version.
    public static func hash(seed: String, value: String, version: Double) -> Double? {
        if version == 2 {
            let first = fnv1a32(value, continuing: fnv1a32(seed))
            return Double(fnv1a32(decimal: first) % 10_000) / 10_000
        }
        if version == 1 {
            return Double(fnv1a32(seed, continuing: fnv1a32(value)) % 1_000) / 1_000
        }
        return nil
    }

    /// n equal weights summing to 1; none for n ≤ 0.
    public static func equalWeights(_ count: Int) -> [Double] {
        guard count > 0 else { return [] }
        return Array(repeating: 1 / Double(count), count: count)
    }

    /// The bucket range of each variation: coverage clamped to [0, 1];
    /// weights replaced by equal ones when their count differs from the
    /// variations' or they do not sum to 1 within 0.01.
    public static func bucketRanges(count: Int, coverage: Double = 1, weights: [Double]?) -> [BucketRange] {
        var clamped = coverage
        if clamped < 0 { clamped = 0 } else if clamped > 1 { clamped = 1 }
        let equal = equalWeights(count)
        var chosen = weights ?? equal
        if chosen.count != count { chosen = equal }
        // Summed as JavaScript's reduce sums them, left to right.
        let total = chosen.reduce(0, +)
        if total < 0.99 || total > 1.01 { chosen = equal }
        var cumulative = 0.0
        var ranges: [BucketRange] = []
        ranges.reserveCapacity(chosen.count)
        for weight in chosen {
            let start = cumulative
            cumulative += weight
            ranges.append(BucketRange(start: start, end: start + clamped * weight))
        }
        return ranges
    }

    /// The first range that holds n (start inclusive, end exclusive); -1 when none does.
    public static func chooseVariation(_ n: Double, ranges: [BucketRange]) -> Int {
        for (index, range) in ranges.enumerated() where range.contains(n) { return index }
        return -1
    }

    /// Whether a hash value falls in a namespace's share [start, end).
    public static func inNamespace(_ hashValue: String, _ namespace: Namespace) -> Bool {
        guard let n = hash(seed: "__" + namespace.id, value: hashValue, version: 1) else { return false }
        return n >= namespace.start && n < namespace.end
    }

    static func inNamespace(_ hashValue: JSON, _ namespace: Namespace) -> Bool {
        guard let n = hash(seed: namespace.seed, value: hashValue, version: 1) else { return false }
        return n >= namespace.start && n < namespace.end
    }
}

/// [start, end) of the unit interval.
public struct BucketRange: Sendable, Hashable {
    public let start: Double
    public let end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    public func contains(_ n: Double) -> Bool { n >= start && n < end }
}

/// An experiment's namespace: `[id, start, end]`.
public struct Namespace: Sendable, Hashable {
    public let id: String
    public let start: Double
    public let end: Double

    /// The seed the namespace hashes with.
    let seed: String

    public init(id: String, start: Double, end: Double) {
        self.id = id
        self.start = start
        self.end = end
        seed = "__" + id
    }
}
