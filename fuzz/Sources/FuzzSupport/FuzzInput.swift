/// Reads a harness's settings from the front of the fuzzer's input, so that
/// the fuzzer chooses them and mutates them like any other byte, and leaves
/// the rest as the payload.
public struct FuzzInput {
    public private(set) var remaining: UnsafeRawBufferPointer

    public init(_ bytes: UnsafeRawBufferPointer) {
        remaining = bytes
    }

    /// The next byte, or 0 once the input is used up.
    public mutating func byte() -> UInt8 {
        guard let first = remaining.first else { return 0 }
        remaining = UnsafeRawBufferPointer(rebasing: remaining.dropFirst())
        return first
    }

    /// The next two bytes, little-endian.
    public mutating func uint16() -> UInt16 {
        UInt16(byte()) | UInt16(byte()) << 8
    }
}

/// A small deterministic generator (SplitMix64), for choices that must come
/// from the input without using up one input byte each.
public struct SplitMix64 {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
