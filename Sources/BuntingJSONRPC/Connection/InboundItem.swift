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
