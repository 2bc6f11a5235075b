/// How flagd's `fractional` operator turns a bucketing value into a bucket.
/// Both generations hash with MurmurHash3 x86-32 (seed 0) and take
/// `bucket = hash × totalWeight >> 32`; they differ in what they hash.
///
/// The raw values are the names a definitions document uses to choose one.
public enum FractionalHashing: String, Sendable, Hashable, CaseIterable {
    /// `"murmur3-string"`, the default: what the flagd daemon and
    /// `openfeature-flagd-core` 1.x do. Hashes the UTF-8 bytes of the string
    /// `flagKey + targetingKey`, or of the bucketing expression when its value
    /// is a string. Without a usable targeting key the result is null.
    case murmur3String = "murmur3-string"

    /// `"murmur3-cbor"`: the newer generation of `openfeature-flagd-core` 2.x.
    /// Hashes the canonical CBOR encoding (RFC 7049 §3.9; whole reals as
    /// integers) of the bucketing value, which may be any JSON value, or of
    /// the array `[flagKey, targetingKey]` without one.
    case murmur3CBOR = "murmur3-cbor"

    public static let `default` = FractionalHashing.murmur3String
}
