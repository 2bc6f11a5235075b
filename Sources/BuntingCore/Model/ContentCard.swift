import BuntingJSON

/// A content card as the client sees it: the definition's fields plus this
/// user's `viewed` and `clicked` state.
public struct ContentCard: Equatable, Sendable, JSONText {
    public enum Kind: String, Sendable {
        case classic, captionedImage, imageOnly, control
    }

    /// What the definitions say of cards, made (and encoded) once and shared
    /// by every copy: a card is a row of a table and its place in it, so a
    /// user's cache of thousands of cards copies one reference per card, not
    /// a dozen strings. Besides the text, only the fields the engine reads
    /// for every card are kept (to match, list, expire and filter them); the
    /// others (title, description, …) are read back from the text when asked
    /// for, which only tests and tools do.
    ///
    /// A definitions document's cards share one table (`TableBuilder`),
    /// its rows in listed order and their texts one after another in one
    /// buffer: listing, sorting and writing thousands of cards on a user
    /// change then reads two arrays front to back, where an object per card
    /// cost a cache miss per card and pass once the cards outgrew the caches
    /// (at 50,000 cards, most of a change's time).
    final class Table: Sendable {
        struct Row {
            let id: String
            let type: Kind
            var extras: JSONObject
            let created: Double
            let updated: Double?
            let expiresAt: Double?
            let pinned: Bool
            let dismissible: Bool
            /// Where, in `text`, the card's JSON up to its user state is:
            /// `{…,"dismissible":true`; `appendEncoded` adds viewed and clicked.
            /// Set again when the row is copied into another table.
            var start: Int
            var end: Int

            /// Whether a card of this row lists before one of `other` (see `listedBefore`).
            static func listsBefore(_ lhs: Row, _ rhs: Row) -> Bool {
                if lhs.pinned != rhs.pinned { return lhs.pinned }
                if lhs.created != rhs.created { return lhs.created > rhs.created }
                return lhs.id < rhs.id
            }
        }

        let rows: [Row]
        let text: [UInt8]
        /// Whether the rows are in listed order (`listedBefore`), so that
        /// two cards of this table compare by their places.
        let listed: Bool

        init(rows: [Row], text: [UInt8], listed: Bool) {
            self.rows = rows
            self.text = text
            self.listed = listed
        }

        func prefix(_ index: Int) -> ArraySlice<UInt8> {
            text[rows[index].start..<rows[index].end]
        }
    }

    let table: Table
    /// The card's row; 32 bits keep a card (with its state) at 16 bytes.
    let index: UInt32
    public var viewed: Bool
    public var clicked: Bool

    /// The definition's fields as the text holds them.
    private var written: JSON {
        (try? JSON.parse(Array(table.prefix(Int(index))) + [UInt8(ascii: "}")])) ?? .null
    }

    public var id: String { table.rows[Int(index)].id }
    public var type: Kind { table.rows[Int(index)].type }
    public var isControl: Bool { table.rows[Int(index)].type == .control }
    public var title: String? { written["title"]?.stringValue }
    public var description: String? { written["description"]?.stringValue }
    public var imageUrl: String? { written["imageUrl"]?.stringValue }
    public var aspectRatio: Double? { written["aspectRatio"]?.doubleValue }
    public var url: String? { written["url"]?.stringValue }
    public var linkText: String? { written["linkText"]?.stringValue }
    public var extras: JSONObject { table.rows[Int(index)].extras }
    public var created: Double { table.rows[Int(index)].created }
    public var updated: Double? { table.rows[Int(index)].updated }
    public var expiresAt: Double? { table.rows[Int(index)].expiresAt }
    public var pinned: Bool { table.rows[Int(index)].pinned }
    public var dismissible: Bool { table.rows[Int(index)].dismissible }

    public init(
        id: String, type: Kind, title: String? = nil, description: String? = nil, imageUrl: String? = nil,
        aspectRatio: Double? = nil, url: String? = nil, linkText: String? = nil, extras: JSONObject = [:],
        created: Double, updated: Double? = nil, expiresAt: Double? = nil, pinned: Bool = false,
        dismissible: Bool = true, viewed: Bool = false, clicked: Bool = false
    ) {
        var builder = TableBuilder()
        builder.add(
            id: id, type: type, title: title, description: description, imageUrl: imageUrl, aspectRatio: aspectRatio,
            url: url, linkText: linkText, extras: extras, created: created, updated: updated, expiresAt: expiresAt,
            pinned: pinned, dismissible: dismissible)
        self = builder.onlyCard()
        self.viewed = viewed
        self.clicked = clicked
    }

    init(table: Table, index: Int, viewed: Bool, clicked: Bool) {
        self.table = table
        self.index = UInt32(index)
        self.viewed = viewed
        self.clicked = clicked
    }

    /// The same cards (and state), their definitions copied into one table
    /// in listed order, which the cards then share (see `TableBuilder`,
    /// which a definitions document's cards are made in directly).
    public static func sharingOneTable(_ cards: [ContentCard]) -> [ContentCard] {
        var table = TableBuilder()
        let numbers = cards.map { table.add($0) }
        return zip((consume table).cards(keeping: numbers), cards).map { shared, card in
            var shared = shared
            shared.viewed = card.viewed
            shared.clicked = card.clicked
            return shared
        }
    }

    public func isExpired(at now: Double) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }

    /// The cards sorted by `listedBefore`, in the same order as
    /// `cards.sorted(by: listedBefore)`, each card's fields read once: the
    /// sort compares plain values (its table, place, pinning and date), and
    /// reads ids only on a tie. Sorted card by card, listing 18,000 cards
    /// cost about 130 million instructions (each comparison reading the rows
    /// of two tables, with their references counted), a third of a
    /// changeUser with a card-heavy document.
    public static func inListedOrder(_ cards: [ContentCard]) -> [ContentCard] {
        struct Key {
            let table: ObjectIdentifier
            let listed: Bool
            let index: UInt32
            let pinned: Bool
            let created: Double
            let position: Int
        }
        let keys = cards.indices.map { position in
            let card = cards[position]
            let row = card.table.rows[Int(card.index)]
            return Key(
                table: ObjectIdentifier(card.table), listed: card.table.listed, index: card.index,
                pinned: row.pinned, created: row.created, position: position)
        }
        func before(_ lhs: Key, _ rhs: Key) -> Bool {
            if lhs.table == rhs.table && lhs.listed { return lhs.index < rhs.index }
            if lhs.pinned != rhs.pinned { return lhs.pinned }
            if lhs.created != rhs.created { return lhs.created > rhs.created }
            return cards[lhs.position].id < cards[rhs.position].id
        }
        // The cards of the largest listed table (a document's, which most
        // of a user's cards come from) are put in place by their rows, with
        // no comparison; only the others (control cards, a row met twice)
        // are sorted, and the two runs merged, equals in the order given, as
        // the stable sort orders them. Sorting them all took about 15
        // million instructions at 18,000 cards.
        func rows(_ key: Key) -> Int { cards[key.position].table.rows.count }
        guard let first = keys.lazy.filter(\.listed).max(by: { rows($0) < rows($1) }) else {
            return keys.sorted(by: before).map { cards[$0.position] }
        }
        var slots = [Int](repeating: -1, count: rows(first))
        var others: [Key] = []
        for key in keys {
            if key.table == first.table, slots[Int(key.index)] < 0 {
                slots[Int(key.index)] = key.position
            } else {
                others.append(key)
            }
        }
        others.sort(by: before)
        var order: [Int] = []
        order.reserveCapacity(keys.count)
        var next = 0
        for position in slots where position >= 0 {
            let key = keys[position]
            while next < others.count,
                before(others[next], key) || (!before(key, others[next]) && others[next].position < position)
            {
                order.append(others[next].position)
                next += 1
            }
            order.append(position)
        }
        order += others[next...].map(\.position)
        return order.map { cards[$0] }
    }

    /// Pinned first, then newest `created` first, then by id.
    public static func listedBefore(_ lhs: ContentCard, _ rhs: ContentCard) -> Bool {
        if lhs.table === rhs.table && lhs.table.listed { return lhs.index < rhs.index }
        return Table.Row.listsBefore(lhs.table.rows[Int(lhs.index)], rhs.table.rows[Int(rhs.index)])
    }

    public var json: JSON {
        encoded.value
    }

    /// The card as the client sees it, written from the text made once.
    public var encoded: EncodedJSON {
        var text: [UInt8] = []
        appendEncoded(to: &text)
        return EncodedJSON(trustedText: text)
    }

    /// Appends the card's text, user state included, without a copy of its own.
    public func appendEncoded(to output: inout [UInt8]) {
        output.append(contentsOf: table.prefix(Int(index)))
        output.append(contentsOf: viewed ? Self.viewedTrue : Self.viewedFalse)
        output.append(contentsOf: clicked ? Self.clickedTrue : Self.clickedFalse)
    }

    public var encodedCount: Int {
        table.prefix(Int(index)).count + (viewed ? Self.viewedTrue : Self.viewedFalse).count
            + (clicked ? Self.clickedTrue : Self.clickedFalse).count
    }

    private static let viewedTrue = Array(#","viewed":true"#.utf8)
    private static let viewedFalse = Array(#","viewed":false"#.utf8)
    private static let clickedTrue = Array(#","clicked":true}"#.utf8)
    private static let clickedFalse = Array(#","clicked":false}"#.utf8)

    public static func == (lhs: ContentCard, rhs: ContentCard) -> Bool {
        lhs.viewed == rhs.viewed && lhs.clicked == rhs.clicked
            && ((lhs.table === rhs.table && lhs.index == rhs.index)
                || lhs.table.prefix(Int(lhs.index)) == rhs.table.prefix(Int(rhs.index)))
    }

    static func definitionJSON(
        id: String, type: Kind, title: String?, description: String?, imageUrl: String?, aspectRatio: Double?,
        url: String?,
        linkText: String?, extras: JSONObject, created: Double, updated: Double?, expiresAt: Double?, pinned: Bool,
        dismissible: Bool
    ) -> JSON {
        var object: JSONObject = [
            "id": .string(id), "type": .string(type.rawValue), "isControl": .bool(type == .control),
        ]
        if let title { object["title"] = .string(title) }
        if let description { object["description"] = .string(description) }
        if let imageUrl { object["imageUrl"] = .string(imageUrl) }
        if let aspectRatio { object["aspectRatio"] = .number(aspectRatio) }
        if let url { object["url"] = .string(url) }
        if let linkText { object["linkText"] = .string(linkText) }
        object["extras"] = .object(extras)
        object["created"] = .number(created)
        if let updated { object["updated"] = .number(updated) }
        if let expiresAt { object["expiresAt"] = .number(expiresAt) }
        object["pinned"] = .bool(pinned)
        object["dismissible"] = .bool(dismissible)
        return .object(object)
    }
}
