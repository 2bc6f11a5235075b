import BuntingJSON
#if canImport(Glibc)
import Glibc
#endif

extension JavaScript {
    /// Strings are equal in JavaScript when their code units are; Swift's `==`
    /// would also equate canonically equivalent forms (é and e + ◌́). One
    /// memory comparison of the UTF-8 bytes (the same code units in another
    /// encoding), after a length check.
    package static func sameCodeUnits(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return withBytes(of: a) { x in
            withBytes(of: b) { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    /// `sameCodeUnits(text, ascii)` for a string `ascii` of ASCII only, in
    /// fewer instructions: Swift's `==` (which answers at once for identical
    /// or small strings) decides once the byte counts agree. `==` is
    /// canonical equivalence, which differs from equal code units only for
    /// non-ASCII text, and no non-ASCII string is equivalent to an ASCII one
    /// of the same byte count: the characters equivalent to an ASCII one
    /// (KELVIN SIGN for K, GREEK QUESTION MARK for ;, …) take more bytes,
    /// and combining marks never vanish.
    @inline(__always)
    static func sameCodeUnits(_ text: String, ascii: String) -> Bool {
        text.utf8.count == ascii.utf8.count && text == ascii
    }

    /// Calls `body` with the UTF-8 bytes of `text`, read in place: through
    /// a span of the string, which (unlike `utf8.withContiguousStorage…`)
    /// does not retain and release it around the call.
    @inline(__always)
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        text.utf8Span.span.withUnsafeBufferPointer(body)
    }

    /// Whether `a` sorts before `b` by UTF-16 code units. UTF-8 order is code
    /// point order, which differs from UTF-16 order only when a supplementary
    /// character meets one in U+E000…U+FFFF; so the bytes are compared until
    /// the first difference (eight at a time), and the characters there
    /// decide.
    package static func precedesInCodeUnits(_ a: String, _ b: String) -> Bool {
        withBytes(of: a) { x in
            withBytes(of: b) { y in
                let common = min(x.count, y.count)
                var index = 0
                while index + 8 <= common,
                    UnsafeRawPointer(x.baseAddress! + index).loadUnaligned(as: UInt64.self)
                        == UnsafeRawPointer(y.baseAddress! + index).loadUnaligned(as: UInt64.self)
                {
                    index += 8
                }
                while index < common, x[index] == y[index] { index += 1 }
                guard index < common else { return x.count < y.count }
                guard x[index] >= 0xEE || y[index] >= 0xEE else { return x[index] < y[index] }
                // The characters differ from their first byte on, or within
                // it: both start where the identical bytes say.
                var start = index
                while start > 0, x[start] & 0xC0 == 0x80 { start -= 1 }
                return utf16Key(scalar(x, at: start)) < utf16Key(scalar(y, at: start))
            }
        }
    }

    /// The code point of the UTF-8 sequence at `index` (the input is valid
    /// UTF-8: it comes from a Swift string).
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        let lead = UInt32(bytes[index])
        func next(_ offset: Int) -> UInt32 { UInt32(bytes[index + offset] & 0x3F) }
        switch lead {
        case 0..<0x80: return lead
        case 0xC0..<0xE0: return (lead & 0x1F) << 6 | next(1)
        case 0xE0..<0xF0: return (lead & 0x0F) << 12 | next(1) << 6 | next(2)
        default: return (lead & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3)
        }
    }

    /// A key that orders code points as their UTF-16 forms order: a
    /// supplementary character by its high surrogate first, then by itself.
    private static func utf16Key(_ scalar: UInt32) -> UInt64 {
        guard scalar >= 0x1_0000 else { return UInt64(scalar) << 32 }
        return UInt64(0xD800 + ((scalar - 0x1_0000) >> 10)) << 32 | UInt64(scalar)
    }
}
