#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingJSON

/// A card whose fields hold templates (title, description, url, imageUrl,
/// linkText, extras values), and how its text is written for one user: the
/// card's text as the document makes it, cut where each field's value goes,
/// so that a user's card is the pieces with the rendered texts between them,
/// copied into one buffer, without a tree or an encoding of its own.
/// A class: a refresh reads thousands of card definitions, and a
/// definition that holds one copies a reference, not its arrays.
final class PersonalisedCard: Sendable {
    struct Field: Sendable {
        let template: TemplateRef
        /// The field's pointer below the card's: `/title`, `/extras/feed`.
        let pointer: String
        /// For a value of `extras`, its key.
        let extrasKey: String?
    }

    /// The card's place in the document (`/contentCards/3`).
    let pointer: String
    let fields: [Field]
    /// The text around the fields' values: `pieces[i]` before `fields[i]`'s,
    /// the last after them all. Nil when the text could not be cut (a field
    /// of the card happened to read as a cut mark): the user's card is then
    /// made from `entry`.
    let pieces: [[UInt8]]?
    /// The card's fields as the document writes them, for a card whose text
    /// could not be cut (nil otherwise).
    let entry: JSONObject?
    /// About how long the card's text is, to make room for it.
    let textSize: Int

    init(pointer: String, fields: [Field], pieces: [[UInt8]]?, entry: JSONObject) {
        self.pointer = pointer
        self.fields = fields
        self.pieces = pieces
        // Kept past the parsed document, and only when needed.
        self.entry = pieces == nil ? JSON.object(entry).detached().objectValue : nil
        textSize = (pieces?.reduce(0) { $0 + $1.count } ?? 0) + 32 * fields.count
    }

    /// The fields that may hold templates besides `extras`, in the order a
    /// card's text writes them.
    static let templatedFields = ["title", "description", "imageUrl", "url", "linkText"]

    /// A card with its field values at `fields` replaced by marks, so that
    /// its text shows where each value goes.
    static func marked(_ entry: JSONObject, _ fields: [Field]) -> JSONObject {
        var marked = entry
        var extras = entry["extras"]?.objectValue ?? [:]
        for (index, field) in fields.enumerated() {
            if let key = field.extrasKey {
                extras[key] = .string(mark(index))
            } else {
                marked[String(field.pointer.dropFirst())] = .string(mark(index))
            }
        }
        if fields.contains(where: { $0.extrasKey != nil }) { marked["extras"] = .object(extras) }
        return marked
    }

    /// A string no document writes by chance; checked all the same (`cut`).
    static func mark(_ index: Int) -> String { "\u{0}bunting-template-\(index)\u{0}" }

    /// A mark as the card's text writes it (jansson writes NUL as `\u0000`).
    static func encodedMark(_ index: Int) -> [UInt8] {
        Array("\"\\u0000bunting-template-\(index)\\u0000\"".utf8)
    }

    /// The text of `marked` cut at each mark, `:"mark"` as a member's value,
    /// each found exactly once; nil otherwise.
    static func cut(_ text: ArraySlice<UInt8>, marks count: Int) -> [[UInt8]]? {
        let text = Array(text)
        var cuts: [(start: Int, end: Int)] = []
        for index in 0..<count {
            let needle = encodedMark(index)
            var found: [Int] = []
            var start = 0
            while let place = firstPlace(of: needle, in: text, from: start) {
                if place > 0, text[place - 1] == UInt8(ascii: ":") { found.append(place) }
                start = place + 1
            }
            guard found.count == 1 else { return nil }
            cuts.append((found[0], found[0] + needle.count))
        }
        // The marks in their order in the text, which need not be the fields'.
        let order = cuts.indices.sorted { cuts[$0].start < cuts[$1].start }
        guard order == Array(cuts.indices) else { return nil }
        var pieces: [[UInt8]] = []
        var from = 0
        for cut in cuts {
            pieces.append(Array(text[from..<cut.start]))
            from = cut.end
        }
        pieces.append(Array(text[from...]))
        return pieces
    }

    private static func firstPlace(of needle: [UInt8], in text: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, text.count >= needle.count, start <= text.count - needle.count else { return nil }
        return text.withUnsafeBufferPointer { text in
            needle.withUnsafeBufferPointer { needle in
                var place = start
                while place <= text.count - needle.count {
                    if text[place] == needle[0],
                        memcmp(text.baseAddress! + place, needle.baseAddress!, needle.count) == 0
                    {
                        return place
                    }
                    place += 1
                }
                return nil
            }
        }
    }

    enum Made {
        /// Written into the refresh's table, at this place.
        case placed(Int)
        /// Made on its own.
        case card(ContentCard)
        case fault(Field, TemplateFault)
    }

    /// The card for the user whose `renders` these are: `base`'s fields with
    /// the rendered texts, written into `table`, or the first field whose
    /// template gave no text.
    func make(like base: ContentCard, renders: inout UserRenders, into table: inout ContentCard.PersonalisedTable)
        -> Made
    {
        guard let pieces else { return slowly(renders: &renders) }
        // The user's texts first (each template rendered once a refresh), so
        // that the card is written in one piece, or not at all.
        var count = pieces[fields.count].count
        var extras: JSONObject?
        for index in fields.indices {
            let template = fields[index].template
            switch renders.encodedText(template) {
            case .success(let text): count += pieces[index].count + text.count
            case .failure(let fault): return .fault(fields[index], fault)
            }
            if let key = fields[index].extrasKey, case .success(let text) = renders.text(template) {
                if extras == nil { extras = base.extras }
                extras?[key] = .string(text)
            }
        }
        let start = table.textEnd
        table.write(count: count) { next in
            var next = next
            func put(_ bytes: [UInt8]) {
                bytes.withUnsafeBufferPointer { next.initialize(from: $0.baseAddress!, count: $0.count) }
                next += bytes.count
            }
            for index in fields.indices {
                put(pieces[index])
                put(renders.knownEncodedText(fields[index].template))
            }
            put(pieces[fields.count])
        }
        return .placed(table.addCard(like: base, extras: extras, textFrom: start))
    }

    /// The card made from its fields, rendered: for a card whose text could not be cut.
    private func slowly(renders: inout UserRenders) -> Made {
        var fields = entry ?? [:]
        var extras = fields["extras"]?.objectValue ?? [:]
        for field in self.fields {
            switch renders.text(field.template) {
            case .failure(let fault): return .fault(field, fault)
            case .success(let text):
                if let key = field.extrasKey {
                    extras[key] = .string(text)
                } else {
                    fields[String(field.pointer.dropFirst())] = .string(text)
                }
            }
        }
        fields["extras"] = .object(extras)
        guard let card = ContentCard(json: .object(fields)) else {
            return .fault(
                self.fields[0],
                TemplateFault(reason: .invalidTemplate, message: "the card could not be made", line: 1, column: 1))
        }
        return .card(card)
    }
}
