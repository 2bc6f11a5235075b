import BuntingCore
import BuntingJSON
import BuntingTemplates

/// Parses the templates of a document as it loads. A text without `{{` or
/// `{%` is no template and costs nothing; texts written alike are parsed
/// once and share their template (and, per refresh, their render).
struct TemplateCompiler {
    private var templates: [Template] = []
    private var places: [ExactString: Int32] = [:]
    /// Texts that did not parse, with why: a text written alike fails alike.
    private var failures: [ExactString: Failure] = [:]

    /// A template that cannot be used, and what is wrong with it in words.
    struct Failure {
        let error: TemplateError
        /// "does not parse", "is past a limit", "includes a content block the document does not have"
        let what: String
    }
    private(set) var contentBlocks = ContentBlocks()

    enum Compiled {
        /// No markup: the text is shown as it is.
        case plain
        case template(TemplateRef)
        /// Does not parse, is past a limit, or includes a missing content
        /// block: the item is left out.
        case broken(Failure)
    }

    mutating func compile(_ text: String) -> Compiled {
        guard Template.containsMarkup(text) else { return .plain }
        let key = ExactString(text)
        if let place = places[key] { return .template(TemplateRef(index: place)) }
        if let failure = failures[key] { return .broken(failure) }
        let template: Template
        do throws(TemplateError) {
            // Kept past the parsed document: its text in storage of its own (see `JSON.detached`).
            template = try Template(JSON.detached(text), limits: DocumentTemplates.itemLimits)
        } catch {
            let failure = Failure(error: error, what: error.reason == .limit ? "is past a limit" : "does not parse")
            failures[key] = failure
            return .broken(failure)
        }
        // A content block the document does not have would fail for every user.
        if let missing = template.missingContentBlock(in: contentBlocks) {
            let failure = Failure(error: missing, what: "includes a content block the document does not have")
            failures[key] = failure
            return .broken(failure)
        }
        // A document's templates are far fewer than 2^31.
        let place = Int32(clamping: templates.count)
        templates.append(template)
        places[key] = place
        return .template(TemplateRef(index: place))
    }

    /// The document's content blocks (`{{content_blocks.${name}}}`), before
    /// any item's template is compiled; for each that does not parse, or
    /// includes a block that is not there, why (the block is then not there
    /// to include either).
    mutating func addContentBlocks(_ blocks: [(name: String, text: String)]) -> [(name: String, failure: Failure)] {
        var failed: [(name: String, failure: Failure)] = []
        var parsed: [(name: String, template: Template)] = []
        for (name, text) in blocks {
            do throws(TemplateError) {
                parsed.append(
                    (JSON.detached(name), try Template(JSON.detached(text), limits: DocumentTemplates.itemLimits)))
            } catch {
                failed.append(
                    (name, Failure(error: error, what: error.reason == .limit ? "is past a limit" : "does not parse")))
            }
        }
        for (name, template) in parsed { contentBlocks[name] = template }
        // A block that includes a missing one goes too, and may take others with it.
        var removed = true
        while removed {
            removed = false
            for (name, template) in parsed where contentBlocks[name] != nil {
                guard let missing = template.missingContentBlock(in: contentBlocks) else { continue }
                contentBlocks[name] = nil
                failed.append(
                    (name, Failure(error: missing, what: "includes a content block the document does not have")))
                removed = true
            }
        }
        return failed
    }

    /// Whether any text of the document was a template.
    var isEmpty: Bool { templates.isEmpty && failures.isEmpty }

    func finish() -> DocumentTemplates {
        if templates.isEmpty && contentBlocks.isEmpty { return .none }
        return DocumentTemplates(templates: templates, places: places, contentBlocks: contentBlocks)
    }
}

/// Where a template's error is in the document's text. A template's line
/// and column are in its own text, which the document writes as a JSON
/// string, with escapes (`\n`, `\"`, `\u00e9`): the error's place in the
/// document is found by reading the string's literal up to it.
enum TemplatePlace {
    /// The byte offset in `text` of the byte `offset` of the decoded string
    /// whose literal starts (its opening quote) at `literalStart`; nil when
    /// no string literal starts there.
    static func documentOffset(in text: [UInt8], literalStart: Int, decodedOffset offset: Int) -> Int? {
        guard literalStart >= 0, literalStart < text.count, text[literalStart] == UInt8(ascii: "\"") else { return nil }
        var position = literalStart + 1
        var decoded = 0
        while position < text.count, decoded < offset {
            let byte = text[position]
            if byte == UInt8(ascii: "\"") { break }
            guard byte == UInt8(ascii: "\\") else {
                decoded += 1
                position += 1
                continue
            }
            guard position + 1 < text.count else { break }
            if text[position + 1] != UInt8(ascii: "u") {
                decoded += 1
                position += 2
                continue
            }
            // `\uXXXX`, or a surrogate pair of two: the UTF-8 bytes of the scalar.
            guard let unit = codeUnit(text, at: position + 2) else { break }
            var length = 6
            var bytes = unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
            if (0xD800..<0xDC00).contains(unit), position + 11 < text.count, text[position + 6] == UInt8(ascii: "\\"),
                text[position + 7] == UInt8(ascii: "u"), let low = codeUnit(text, at: position + 8),
                (0xDC00..<0xE000).contains(low)
            {
                length = 12
                bytes = 4
            }
            if decoded + bytes > offset { break }
            decoded += bytes
            position += length
        }
        return position
    }

    private static func codeUnit(_ text: [UInt8], at start: Int) -> Int? {
        guard start + 4 <= text.count else { return nil }
        var value = 0
        for byte in text[start..<(start + 4)] {
            guard let digit = hexDigit(byte) else { return nil }
            value = value * 16 + digit
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
