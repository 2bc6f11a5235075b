import BuntingJSON

/// What the reader hands to the connection: a parsed message, or why there is none.
public enum InboundItem: Sendable {
    /// A parsed message, with the text of its numeric ids as written (see `IDTexts`).
    case message(JSON, IDTexts)
    case unparsable(JSONParseError)
    case brokenFrame(FramingProblem)
    /// A batch of more elements than allowed, refused before it was parsed.
    case batchTooLarge(count: Int, limit: Int)

    /// A message parsed without numeric id texts: ids are echoed in their shortest form.
    public static func message(_ value: JSON) -> InboundItem { .message(value, IDTexts()) }

    /// Parses one message's bytes. A batch is counted before it is parsed, so
    /// that one too large to answer costs no memory.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, maxBatchLength: Int) -> InboundItem {
        if let count = JSONScan.batchLength(bytes, stoppingAfter: maxBatchLength), count > maxBatchLength {
            return .batchTooLarge(count: count, limit: maxBatchLength)
        }
        let value: JSON
        do {
            value = try JSON.parse(bytes, maxDepth: maxDepth)
        } catch {
            return .unparsable(error)
        }
        return .message(value, IDTexts(of: value, in: bytes))
    }
}

/// The text of a message's numeric ids as the client wrote them, so that
/// they are echoed exactly: jansson reads `1e2` as 100.0 and `1.50` as 1.5.
/// Only ids whose parsed value may print otherwise (reals, and zero, which
/// may have been `-0`) are looked up in the bytes.
public struct IDTexts: Sendable {
    /// For a single message, element 0; for a batch, one per element.
    private var texts: [String?] = []

    public init() {}

    init(of value: JSON, in bytes: UnsafeRawBufferPointer) {
        func needsText(_ message: JSON) -> Bool {
            switch message["id"] {
            case .real?, .integer(0)?: true
            default: false
            }
        }
        switch value {
        case .object:
            if needsText(value) { texts = [JSONScan.idTexts(bytes).first ?? nil] }
        case .array(let elements):
            if elements.contains(where: needsText) { texts = JSONScan.idTexts(bytes) }
        default:
            break
        }
    }

    /// The text of the id of the message (index 0) or batch element `index`.
    public subscript(index: Int) -> String? {
        index < texts.count ? texts[index] : nil
    }
}

/// Byte scans over JSON text that jansson has no call for. They assume
/// well-formed JSON (the text is parsed too) and never read out of bounds.
enum JSONScan {
    /// The number of elements of a top-level array, counting no further than
    /// `limit + 1`; nil when the text is not an array.
    static func batchLength(_ bytes: UnsafeRawBufferPointer, stoppingAfter limit: Int) -> Int? {
        var index = skipWhitespace(bytes, 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index = skipWhitespace(bytes, index + 1)
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") { return 0 }
        var count = 1
        var depth = 0
        var inString = false
        var escaped = false
        while index < bytes.count && count <= limit {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","): if depth == 0 { count += 1 }
            default: break
            }
        }
        return count
    }

    /// The text of each numeric `id` member: of the top-level object, or of
    /// each object element of a top-level array (nil where there is none).
    static func idTexts(_ bytes: UnsafeRawBufferPointer) -> [String?] {
        var index = skipWhitespace(bytes, 0)
        guard index < bytes.count else { return [] }
        if bytes[index] == UInt8(ascii: "{") {
            return [idText(ofObjectAt: &index, bytes)]
        }
        guard bytes[index] == UInt8(ascii: "[") else { return [] }
        index += 1
        var texts: [String?] = []
        while true {
            index = skipWhitespace(bytes, index)
            guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { return texts }
            if bytes[index] == UInt8(ascii: "{") {
                texts.append(idText(ofObjectAt: &index, bytes))
            } else {
                texts.append(nil)
                skipValue(bytes, &index)
            }
            index = skipWhitespace(bytes, index)
            if index < bytes.count && bytes[index] == UInt8(ascii: ",") { index += 1 }
        }
    }

    /// Reads the object at `index` (moving past it) and returns the text of
    /// its `id` member when that is a number.
    private static func idText(ofObjectAt index: inout Int, _ bytes: UnsafeRawBufferPointer) -> String? {
        var found: String?
        index += 1
        while true {
            index = skipWhitespace(bytes, index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count { index += 1 } // the closing brace
                return found
            }
            let keyStart = index + 1
            skipValue(bytes, &index)
            let isID =
                index - keyStart == 3 && bytes[keyStart] == UInt8(ascii: "i")
                && bytes[keyStart + 1] == UInt8(ascii: "d")
            index = skipWhitespace(bytes, index)
            if index < bytes.count { index += 1 } // the colon
            index = skipWhitespace(bytes, index)
            let valueStart = index
            skipValue(bytes, &index)
            if isID, valueStart < index,
                bytes[valueStart] == UInt8(ascii: "-") || (bytes[valueStart] >= 48 && bytes[valueStart] <= 57)
            {
                found = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<index]), as: UTF8.self)
            }
            index = skipWhitespace(bytes, index)
            if index < bytes.count && bytes[index] == UInt8(ascii: ",") { index += 1 }
        }
    }

    /// Moves `index` past one value: a string, a number or word, or a whole
    /// object or array.
    private static func skipValue(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) {
        guard index < bytes.count else { return }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { return }
            }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var inString = false
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return }
                default: break
                }
            }
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
                default: index += 1
                }
            }
        }
    }

    private static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int {
        var index = start
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
        {
            index += 1
        }
        return index
    }
}
