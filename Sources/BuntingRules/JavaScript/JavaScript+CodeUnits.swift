import BuntingJSON
#if canImport(Glibc)
import Glibc
#endif

extension JavaScript {
    /// Strings are equal in JavaScript when their code units are; Swift's `==`
    /// would also equate canonically equivalent forms (é and e + ◌́). One
    /// memory comparison of the UTF-8 bytes (the same code units in another
    /// encoding), after a length check.
    static func sameCodeUnits(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return withBytes(of: a) { x in
            withBytes(of: b) { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    /// Calls `body` with the UTF-8 bytes of `text`, read in place: through
    /// a span of the string, which (unlike `utf8.withContiguousStorage…`)
    /// does not retain and release it around the call.
    @inline(__always)
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        text.utf8Span.span.withUnsafeBufferPointer(body)
    }

    /// UTF-8 order is code point order, which differs from UTF-16 order only
    /// when a supplementary character meets one in U+E000…U+FFFF.
    static func precedesInCodeUnits(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            guard let x = left.next() else { return right.next() != nil }
            guard let y = right.next() else { return false }
            if x != y {
                if x >= 0xEE || y >= 0xEE {
                    return a.utf16.lexicographicallyPrecedes(b.utf16)
                }
                return x < y
            }
        }
    }
}
