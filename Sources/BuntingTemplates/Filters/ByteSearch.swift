/// Searching UTF-8 bytes for UTF-8 bytes in time linear in the text and
/// the pattern (Knuth–Morris–Pratt), so that no pattern can make a filter
/// slow. A match of valid UTF-8 in valid UTF-8 always starts and ends on a
/// character boundary, so byte offsets cut strings cleanly.
enum ByteSearch {
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        if needle.isEmpty { return true }
        return firstOffset(of: Array(needle.utf8), in: Array(haystack.utf8), from: 0) != nil
    }

    /// The offset of the first occurrence of `needle` at or after `from`.
    static func firstOffset(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= haystack.count ? start : nil }
        guard start >= 0, start + needle.count <= haystack.count else { return nil }
        if needle.count == 1 { return haystack[start...].firstIndex(of: needle[0]) }
        // failure[i]: the length of the longest proper prefix of needle[0...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in 1..<needle.count {
            while length > 0, needle[index] != needle[length] { length = failure[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        for index in start..<haystack.count {
            while matched > 0, haystack[index] != needle[matched] { matched = failure[matched - 1] }
            if haystack[index] == needle[matched] { matched += 1 }
            if matched == needle.count { return index - needle.count + 1 }
        }
        return nil
    }
    /// The offset of the last occurrence of `needle`.
    static func lastOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty else { return haystack.count }
        guard needle.count <= haystack.count else { return nil }
        // The first match in the reversed text is the last one in the text.
        guard let reversedOffset = firstOffset(of: needle.reversed(), in: haystack.reversed(), from: 0) else {
            return nil
        }
        return haystack.count - reversedOffset - needle.count
    }
}
