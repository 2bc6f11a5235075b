#if canImport(Glibc)
import Glibc
#endif

/// A string compared and hashed by its UTF-8 bytes, not by Unicode canonical
/// equivalence as `String` is: `"é"` (NFC) and `"e\u{301}"` (NFD) are two
/// ids here, as they are to JSON, flagd, GrowthBook and every other system
/// an id comes from or goes to. Ids (flags, variants, cards, banners,
/// placements, users) are keyed with it wherever they are collected.
public struct ExactString: Hashable, Sendable, CustomStringConvertible {
    public let string: String

    @inlinable
    public init(_ string: String) { self.string = string }

    public static func == (lhs: ExactString, rhs: ExactString) -> Bool { sameBytes(lhs.string, rhs.string) }

    public func hash(into hasher: inout Hasher) {
        var copy = string
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public var description: String { string }
}

extension String {
    /// Whether the two hold the same UTF-8 bytes (see `ExactString`).
    @inlinable
    public func sameBytes(as other: String) -> Bool { BuntingJSON.sameBytes(self, other) }
}

/// Whether two strings hold the same UTF-8 bytes: a length check, then one
/// memory comparison for native strings (all strings Bunting makes).
@inline(__always)
@usableFromInline
func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
        rhs.utf8.withContiguousStorageIfAvailable { right in
            left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
        }
    }
    return (compared ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
}

extension ExactString: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(value) }
}
