#if canImport(Glibc)
import Glibc
#endif

/// Substring search over bytes in linear time, with the work it did in work
/// units, for `in`.
///
/// A naive scan is fastest for the strings rules usually see, but takes
/// haystack × needle steps on inputs such as a needle of a thousand `a`s and
/// a `b` in a million `a`s. So candidates are found with `memchr` and
/// checked with `memcmp` until the bytes compared pass a few times the
/// haystack's length; the rest of the haystack is then searched with
/// Knuth–Morris–Pratt, which never looks at a byte more than twice.
enum ByteSearch {
    /// Bytes of the memchr/memcmp scan per work unit (see `Interpreter.bytesPerUnit`).
    static let scannedBytesPerUnit = Interpreter.bytesPerUnit
    /// Bytes of the Knuth–Morris–Pratt search per work unit: it is several
    /// times slower per byte than `memchr`.
    static let searchedBytesPerUnit = 4

    static func contains(_ text: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>) -> (
        found: Bool, cost: Int
    ) {
        let scanCost = (text.count + part.count) / scannedBytesPerUnit
        guard part.count <= text.count else { return (false, scanCost) }
        guard let first = part.first else { return (true, scanCost) }
        if part.count == 1 { return (memchr(text.baseAddress!, Int32(first), text.count) != nil, scanCost) }
        let last = text.count - part.count
        // Comparing up to this many bytes in candidates stays linear.
        var allowance = 4 * text.count + part.count
        var start = 0
        while start <= last {
            guard let candidate = memchr(text.baseAddress! + start, Int32(first), last - start + 1) else {
                return (false, scanCost)
            }
            let position = text.baseAddress!.distance(to: candidate.assumingMemoryBound(to: UInt8.self))
            if memcmp(text.baseAddress! + position + 1, part.baseAddress! + 1, part.count - 1) == 0 {
                return (true, scanCost)
            }
            allowance -= part.count
            if allowance < 0 {
                // No match starts before position + 1.
                let found = knuthMorrisPratt(text, part, from: position + 1)
                return (found, scanCost + (text.count - position + part.count) / searchedBytesPerUnit)
            }
            start = position + 1
        }
        return (false, scanCost)
    }

    /// Whether `part` occurs in `text` at or after `start`.
    static func knuthMorrisPratt(
        _ text: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> Bool {
        // failure[i]: the length of the longest proper prefix of part[0...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: part.count)
        var length = 0
        for index in 1..<part.count {
            while length > 0, part[index] != part[length] { length = failure[length - 1] }
            if part[index] == part[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        var index = start
        while index < text.count {
            while matched > 0, text[index] != part[matched] { matched = failure[matched - 1] }
            if text[index] == part[matched] { matched += 1 }
            if matched == part.count { return true }
            index += 1
        }
        return false
    }
}
