/// Where each element of a JSON array is written in a text, found without
/// parsing them (brackets counted outside strings, as `JSONMemberSpans`
/// finds an object's members), so that each can be handed to the parser on
/// its own: a large array need never be one tree.
///
/// The array's own syntax is checked here — `[`, elements separated by
/// commas, `]`, nothing but white space after — and each span holds exactly
/// one value by bracket count; so when every element parses on its own, the
/// array parses too, to the same values. On texts that are not valid JSON
/// the spans may be wrong, or nil: an element that then does not parse is
/// for the caller to find.
public enum JSONElementSpans {
    /// The elements of the array written at `range` of `bytes` (white space
    /// around it allowed), each without the white space around it, in order;
    /// nil when that text does not read as an array.
    public static func elements(of bytes: UnsafeRawBufferPointer, in range: Range<Int>) -> [Range<Int>]? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        var scanner = JSONTokenScanner(bytes, from: range.lowerBound, to: range.upperBound)
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var elements: [Range<Int>] = []
        if scanner.take(UInt8(ascii: "]")) { return scanner.atEnd ? elements : nil }
        repeat {
            scanner.skipWhitespace()
            let start = scanner.position
            guard scanner.skipValue() else { return nil }
            elements.append(start..<scanner.position)
        } while scanner.take(UInt8(ascii: ","))
        guard scanner.take(UInt8(ascii: "]")) else { return nil }
        return scanner.atEnd ? elements : nil
    }
}
