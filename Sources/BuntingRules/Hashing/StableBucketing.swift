/// Deterministic assignment of keys to buckets, the way flagd's `fractional`
/// does it, for uses outside flag rules (control groups of banners and cards).
///
/// The hash is MurmurHash3 x86-32 with seed 0 of the key's UTF-8 bytes; a key
/// always lands in the same place, on every platform and in every release.
public enum StableBucketing {
    /// The 32-bit hash of `key`.
    public static func hash(_ key: String) -> UInt32 {
        MurmurHash3.x86_32(key)
    }

    /// `key`'s position in [0, 1): hash / 2³². A control share `s` holds the
    /// keys with `unitInterval(key) < s`.
    public static func unitInterval(_ key: String) -> Double {
        Double(hash(key)) / 4_294_967_296
    }

    /// A bucket in `0..<count` (count ≥ 1): `hash × count >> 32`, the mapping
    /// `fractional` uses, so buckets are as even as the hash is.
    public static func bucket(_ key: String, count: Int) -> Int {
        precondition(count >= 1 && count <= Int(UInt32.max), "bucket count out of range")
        return Int((UInt64(hash(key)) &* UInt64(count)) >> 32)
    }
}
