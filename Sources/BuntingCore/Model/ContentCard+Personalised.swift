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
        /// whole (`write(count:_:)`), then made a card (`addCard`).
        private let text = TextBuffer()

        /// Bytes grown into without being written twice: an array can only
        /// grow by appending, and appending a card's length of zeros to
        /// write over cost about 300 instructions a card (callgrind), its
        /// five pieces one by one about 480.
        private final class TextBuffer {
            private(set) var start: UnsafeMutablePointer<UInt8>
            private(set) var count = 0
            private var capacity: Int

            init() {
                capacity = 0
                start = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
            }

            deinit { start.deallocate() }

            func reserveCapacity(_ wanted: Int) {
                guard wanted > capacity else { return }
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: wanted)
                grown.initialize(from: start, count: count)
                start.deallocate()
                start = grown
                capacity = wanted
            }

            /// The next `added` bytes, counted as written.
            func grow(by added: Int) -> UnsafeMutablePointer<UInt8> {
                if count + added > capacity { reserveCapacity(max(count + added, capacity * 2)) }
                defer { count += added }
                return start + count
            }

            var bytes: [UInt8] {
                [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    buffer.baseAddress!.initialize(from: start, count: count)
                    initialized = count
                }
            }
        }

        public init() {}

        public var isEmpty: Bool { rows.isEmpty }

        /// Room for `cards` more cards of about `bytes` bytes of text each.
        public mutating func reserveCapacity(cards: Int, bytes: Int) {
            rows.reserveCapacity(rows.count + cards)
            text.reserveCapacity(text.count + cards * bytes)
        }

        /// Where the next card's text starts.
        public var textEnd: Int { text.count }

        /// Grows the text by `count` bytes and lets `body` write them all,
        /// from the first: a card is written in one piece.
        public mutating func write(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
            body(text.grow(by: count))
        }

        /// Makes a card of what was written from `start` on (`{…,"dismissible":…`,
        /// without the user state, as `definitionText` is), with `base`'s
        /// fields and its own `extras` when given (the ones a feed filter
        /// reads); returns its place among the cards.
        @discardableResult
        public mutating func addCard(like base: ContentCard, extras: JSONObject? = nil, textFrom start: Int) -> Int {
            // Copied once, into its place, and its range set there.
            rows.append(base.table.rows[Int(base.index)])
            let end = text.count
            rows.withUnsafeMutableBufferPointer { rows in
                let row = rows.baseAddress! + (rows.count - 1)
                if let extras { row.pointee.extras = extras }
                row.pointee.start = start
                row.pointee.end = end
            }
            return rows.count - 1
        }

        /// The cards, in the order added (viewed and clicked not set). The
        /// table is not marked as listed: its rows are in the document's
        /// order, so cards compare by their fields.
        public consuming func cards() -> [ContentCard] {
            guard rows.count <= Int(UInt32.max) else { return [] }
            let table = Table(rows: rows, text: text.bytes, listed: false)
            return rows.indices.map { ContentCard(table: table, index: $0, viewed: false, clicked: false) }
        }
    }
}
