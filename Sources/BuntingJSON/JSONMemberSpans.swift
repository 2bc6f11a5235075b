/// Where each member of a JSON object is written in a text, found without
/// parsing the values: brackets are counted outside strings, so one member
/// can then be handed to the parser on its own.
///
/// For texts already known to be valid JSON (a document that parsed before,
/// byte for byte): on other texts the spans may be wrong, or nil. Keys are
/// decoded, by jansson when they hold an escape.
public enum JSONMemberSpans {
    public struct Member: Sendable {
        /// The key, decoded.
        public let key: String
        /// The key as written, quotes included.
        public let keyText: Range<Int>
        /// The value as written, without the white space around it.
        public let value: Range<Int>
    }

    /// The members of the object written at `range` of `bytes` (white space
    /// around it allowed), in the order written; nil when that text does not
    /// read as an object.
    public static func members(of bytes: UnsafeRawBufferPointer, in range: Range<Int>) -> [Member]? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        var scanner = JSONTokenScanner(bytes, from: range.lowerBound, to: range.upperBound)
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var members: [Member] = []
        if scanner.take(UInt8(ascii: "}")) { return scanner.atEnd ? members : nil }
        repeat {
            scanner.skipWhitespace()
            let keyStart = scanner.position
            guard scanner.skipString() else { return nil }
            let keyText = keyStart..<scanner.position
            guard let key = JSONTokenScanner.decodedString(bytes, keyText), scanner.take(UInt8(ascii: ":")) else {
                return nil
            }
            scanner.skipWhitespace()
            let valueStart = scanner.position
            guard scanner.skipValue() else { return nil }
            members.append(Member(key: key, keyText: keyText, value: valueStart..<scanner.position))
        } while scanner.take(UInt8(ascii: ","))
        guard scanner.take(UInt8(ascii: "}")) else { return nil }
        return scanner.atEnd ? members : nil
    }
}
