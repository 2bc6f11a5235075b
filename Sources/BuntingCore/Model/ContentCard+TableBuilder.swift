import BuntingJSON

extension ContentCard {
    /// Makes a definitions document's cards straight into the one table
    /// they share (see `Table`): each card's text is written once, after the
    /// last one's, and only the rows are put in listed order at the end. Made
    /// each with a text and a table of its own and then copied into the
    /// shared one, 18,000 cards held their texts twice at the peak of loading
    /// (9 MB of per-card buffers beside the table's 5 MB), and the freed
    /// per-card buffers were holes among what the cards keep.
    public struct TableBuilder {
        private var rows: [Table.Row] = []
        private var text: [UInt8] = []

        public init() {}

        /// A builder with room for `cards` rows and `textBytes` of text from
        /// the start: grown by doubling, the rows' array held up to twice
        /// their size while the listed copy is made (at 18,000 cards, 3.1 MB
        /// for 1.7 MB of rows), and the text was copied from each size to
        /// the next, the last time from 4 MiB to 8 MiB.
        public init(reservingCapacity cards: Int, textBytes: Int = 0) {
            rows.reserveCapacity(cards)
            text.reserveCapacity(textBytes)
        }

        /// The id of card `number`.
        public func id(of number: Int) -> String { rows[number].id }

        /// Adds the card `json` defines (as stored, or as a definitions
        /// document writes it) and returns its number; nil when a required
        /// field is missing or of the wrong type. Its values are used as
        /// given: a caller holding a large parsed document copies what the
        /// card keeps (`id`, `extras`) first, so that the card does not keep
        /// the document's pages.
        public mutating func add(json: JSON) -> Int? {
            guard let id = json["id"]?.stringValue, let typeName = json["type"]?.stringValue,
                let type = Kind(rawValue: typeName), let created = json["created"]?.doubleValue
            else { return nil }
            return add(
                id: id, type: type, title: json["title"]?.stringValue, description: json["description"]?.stringValue,
                imageUrl: json["imageUrl"]?.stringValue, aspectRatio: json["aspectRatio"]?.doubleValue,
                url: json["url"]?.stringValue, linkText: json["linkText"]?.stringValue,
                extras: json["extras"]?.objectValue ?? [:], created: created, updated: json["updated"]?.doubleValue,
                expiresAt: json["expiresAt"]?.doubleValue, pinned: json["pinned"]?.boolValue ?? false,
                dismissible: json["dismissible"]?.boolValue ?? true)
        }

        /// Adds the card these fields define and returns its number: its
        /// definition's text (up to its user state) and its row.
        @discardableResult
        mutating func add(
            id: String, type: Kind, title: String?, description: String?, imageUrl: String?, aspectRatio: Double?,
            url: String?, linkText: String?, extras: JSONObject, created: Double, updated: Double?,
            expiresAt: Double?, pinned: Bool, dismissible: Bool
        ) -> Int {
            let start = text.count
            ContentCard.definitionJSON(
                id: id, type: type, title: title, description: description, imageUrl: imageUrl,
                aspectRatio: aspectRatio, url: url, linkText: linkText, extras: extras, created: created,
                updated: updated, expiresAt: expiresAt, pinned: pinned, dismissible: dismissible
            ).encode(appendingTo: &text)
            text.removeLast() // the closing brace; `appendEncoded` writes the user state and its own
            rows.append(
                Table.Row(
                    id: id, type: type, extras: extras, created: created, updated: updated, expiresAt: expiresAt,
                    pinned: pinned, dismissible: dismissible, start: start, end: text.count))
            return rows.count - 1
        }

        /// Adds a card made elsewhere (its text copied); returns its number.
        public mutating func add(_ card: ContentCard) -> Int {
            var row = card.table.rows[Int(card.index)]
            row.start = text.count
            text.append(contentsOf: card.table.prefix(Int(card.index)))
            row.end = text.count
            rows.append(row)
            return rows.count - 1
        }

        /// The one card added, in a table of its own (with no sort, nor any array beside the rows).
        consuming func onlyCard() -> ContentCard {
            precondition(rows.count == 1, "onlyCard() is for a builder of one card")
            return ContentCard(
                table: Table(rows: rows, text: text, listed: true), index: 0, viewed: false, clicked: false)
        }

        /// The cards numbered `kept`, in that order, sharing one table whose
        /// rows are in listed order (viewed and clicked not set). The text of
        /// a card added but not kept stays in the table's text, unused.
        public consuming func cards(keeping kept: [Int]) -> [ContentCard] {
            guard kept.count <= Int(UInt32.max) else { return [] }
            let order = kept.indices.sorted { Table.Row.listsBefore(rows[kept[$0]], rows[kept[$1]]) }
            // The kept rows are put in listed order in place, the rows not
            // kept moved to the end and dropped: a listed copy beside them was
            // 1.7 MB more at the peak of loading 18,000 cards. (A caller that
            // does not `consume` its builder keeps a reference to the rows,
            // and they are then copied here all the same.)
            var source = order.map { kept[$0] }
            var taken = [Bool](repeating: false, count: rows.count)
            for row in source { taken[row] = true }
            source += rows.indices.filter { !taken[$0] }
            Self.gather(&rows, from: source)
            rows.removeLast(rows.count - kept.count)
            var place = Array(repeating: 0, count: kept.count)
            for (position, keptIndex) in order.enumerated() { place[keptIndex] = position }
            // Extras copied now, one after another, so that what the table
            // keeps is together rather than among what was freed (each row's
            // earlier copy let go as its new one is made); extras written
            // alike share one copy (see `SharedCopies`).
            var extras = SharedCopies()
            for position in rows.indices where !rows[position].extras.isEmpty {
                rows[position].extras = extras.copy(of: .object(rows[position].extras)).objectValue ?? [:]
            }
            let listed = rows
            rows = []
            // Two cards that list as equals (the same id, pinning and date)
            // would compare by place; only a table without them is marked as listed.
            let distinct = zip(listed, listed.dropFirst()).allSatisfy { Table.Row.listsBefore($0, $1) }
            let table = Table(rows: listed, text: text, listed: distinct)
            return place.map { ContentCard(table: table, index: $0, viewed: false, clicked: false) }
        }

        /// Rearranges `rows` in place so that row `i` is the one that was at
        /// `source[i]` (`source` holds every index once), a cycle at a time.
        private static func gather(_ rows: inout [Table.Row], from source: [Int]) {
            var done = [Bool](repeating: false, count: rows.count)
            for start in rows.indices where !done[start] {
                let first = rows[start]
                var position = start
                while true {
                    done[position] = true
                    let next = source[position]
                    if next == start {
                        rows[position] = first
                        break
                    }
                    rows[position] = rows[next]
                    position = next
                }
            }
        }
    }
}
