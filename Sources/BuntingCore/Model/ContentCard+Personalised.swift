import BuntingJSON

/// Cards whose text is written for one user (their templates rendered).
extension ContentCard {
    /// The card's JSON up to its user state, `{…,"dismissible":true`, as the
    /// definitions made it: what a personalised card's text is cut from.
    public var definitionText: ArraySlice<UInt8> {
        table.prefix(Int(index))
    }

    /// Builds the personalised cards of one refresh into one table, as a
    /// document's cards share one (`TableBuilder`): thousands of rendered
    /// cards are then two arrays, not an object and two buffers each.
    public struct PersonalisedTable {
        private var rows: [Table.Row] = []
        /// The cards' texts one after another; a card's is written here
        /// first (`write`), then made a card (`addCard`) or dropped.
        @usableFromInline var text: [UInt8] = []

        public init() {}

        public var isEmpty: Bool { rows.isEmpty }

        /// Room for `cards` more cards of about `bytes` bytes of text each.
        public mutating func reserveCapacity(cards: Int, bytes: Int) {
            rows.reserveCapacity(rows.count + cards)
            text.reserveCapacity(text.count + cards * bytes)
        }

        /// Where the next card's text starts.
        public var textEnd: Int { text.count }

        /// Appends to the text of the card being written. Inlinable: a card
        /// is a few short pieces, and an append that is not specialized
        /// costs more than the copy.
        @inlinable
        public mutating func write(_ bytes: [UInt8]) {
            text.append(contentsOf: bytes)
        }

        /// Drops what was written from `start` on: the card is not made.
        public mutating func dropText(from start: Int) {
            text.removeSubrange(start...)
        }

        /// Makes a card of what was written from `start` on (`{…,"dismissible":…`,
        /// without the user state, as `definitionText` is), with `base`'s
        /// fields and its own `extras` when given (the ones a feed filter
        /// reads); returns its place among the cards.
        @discardableResult
        public mutating func addCard(like base: ContentCard, extras: JSONObject? = nil, textFrom start: Int) -> Int {
            var row = base.table.rows[Int(base.index)]
            if let extras {
                row = Table.Row(
                    id: row.id, type: row.type, extras: extras, created: row.created, updated: row.updated,
                    expiresAt: row.expiresAt, pinned: row.pinned, dismissible: row.dismissible, start: 0, end: 0)
            }
            row.start = start
            row.end = text.count
            rows.append(row)
            return rows.count - 1
        }

        /// The cards, in the order added (viewed and clicked not set). The
        /// table is not marked as listed: its rows are in the document's
        /// order, so cards compare by their fields.
        public consuming func cards() -> [ContentCard] {
            guard rows.count <= Int(UInt32.max) else { return [] }
            let table = Table(rows: rows, text: text, listed: false)
            return rows.indices.map { ContentCard(table: table, index: $0, viewed: false, clicked: false) }
        }
    }
}
