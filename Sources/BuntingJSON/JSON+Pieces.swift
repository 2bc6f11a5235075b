#if canImport(Glibc)
import Glibc
#endif
import CJansson

/// Parsing a large text one piece at a time.
///
/// jansson's tree of a whole document is many times the size of its text
/// (56 MB for a 5 MB definitions document, beside Swift's 23 MB), and
/// `JSON.parse` used to hold both trees at once. Here the brackets, commas,
/// colons and white space of the outer levels are read in Swift, and each
/// key and each value inside them is parsed by jansson on its own, converted,
/// and its tree freed at once: only one flag's or card's tree is jansson's
/// at any time. Every key, string and number is still read by jansson.
extension JSON {
    /// Texts from this size on are parsed in pieces.
    static let piecewiseParsingBytes = 256 << 10

    /// How many outer levels of arrays and objects are read in Swift: the
    /// document and its sections, so that each flag, card or banner is one piece.
    static let piecewiseLevels = 2

    /// The piecewise reading alone, with `levels` outer levels read in Swift,
    /// whatever the text's size: for the fuzz target, which checks that it
    /// reads every text as the whole parse does or gives up (nil).
    @_spi(Fuzzing)
    public static func parsedInPieces(
        _ bytes: UnsafeRawBufferPointer, levels: Int, maxDepth: Int = JSON.defaultMaxDepth
    ) -> JSON? {
        parseInPieces(bytes, maxDepth: maxDepth, levels: levels)
    }

    /// The value of `bytes`, or nil when the text is not one this reading is
    /// sure to read as jansson would: any error, a key given twice or holding
    /// `\u0000`, nesting too deep. The caller then parses the text whole, so
    /// that every refusal is jansson's own, with its message and position.
    static func parseInPieces(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int, levels: Int = piecewiseLevels
    ) -> JSON? {
        guard let base = bytes.baseAddress else { return nil }
        // A NUL byte is never valid JSON (in a string it must be written
        // `\u0000`), and jansson does not count one in the position it
        // reports: a piece would seem to end before it did. Found by fuzzing.
        guard memchr(base, 0, bytes.count) == nil else { return nil }
        var reader = PieceReader(bytes: bytes, maxDepth: maxDepth)
        guard let value = reader.value(levels: levels, depth: 0) else { return nil }
        reader.skipWhitespace()
        guard reader.position == bytes.count else { return nil }
        return value
    }
}

/// Reads the outer levels of a text and hands each piece inside them to jansson.
private struct PieceReader {
    let bytes: UnsafeRawBufferPointer
    let maxDepth: Int
    var position = 0

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// The value at the reading position; `levels` more arrays and objects
    /// are read here; `depth` of them enclose it.
    mutating func value(levels: Int, depth: Int) -> JSON? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{") where levels > 0: return object(levels: levels, depth: depth)
        case UInt8(ascii: "[") where levels > 0: return array(levels: levels, depth: depth)
        default: return piece(depth: depth)
        }
    }

    private mutating func object(levels: Int, depth: Int) -> JSON? {
        guard depth < maxDepth else { return nil }
        position += 1
        var object = JSONObject()
        if take(UInt8(ascii: "}")) { return .object(object) }
        repeat {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""),
                case .string(let key)? = piece(depth: depth + 1),
                !key.utf8.contains(0), object[key] == nil, take(UInt8(ascii: ":")),
                let member = value(levels: levels - 1, depth: depth + 1)
            else { return nil }
            object.appendNew(key, member)
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return .object(object)
    }

    private mutating func array(levels: Int, depth: Int) -> JSON? {
        guard depth < maxDepth else { return nil }
        position += 1
        var array: [JSON] = []
        if take(UInt8(ascii: "]")) { return .array(array) }
        repeat {
            guard let element = value(levels: levels - 1, depth: depth + 1) else { return nil }
            array.append(element)
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
        return .array(array)
    }

    /// One value parsed by jansson from the reading position on, the text
    /// after it left for the reader. jansson says how far it read; after a
    /// number or a literal it has looked at the next character and put it back.
    private mutating func piece(depth: Int) -> JSON? {
        var error = json_error_t()
        let start = bytes.baseAddress!.advanced(by: position).assumingMemoryBound(to: CChar.self)
        guard let root = json_loadb(start, bytes.count - position, bunting_json_decode_piece_flags(), &error) else {
            return nil
        }
        let handle = JanssonHandle(taking: root)
        let read = Int(error.position)
        guard read > 0, read <= bytes.count - position else { return nil }
        position += read
        return try? JSON.convert(handle.pointer, levelsLeft: maxDepth - depth)
    }

    /// Skips white space, then steps over `byte` if it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func skipWhitespace() {
        while position < bytes.count, JSON.isJSONWhitespace(bytes[position]) { position += 1 }
    }
}
