import BuntingJSON

/// A content-card snapshot's data as written at one time, and the span of
/// times over which listing the same cards with the same card states writes
/// the same text: only expiry makes a listed card's presence depend on the
/// time, so the text holds from the last expiry at or before the time it was
/// written until the next one after it. The clock may be set back as well as
/// forward, hence both ends.
struct ListedCardsText {
    let data: EncodedJSON
    /// The latest `expiresAt` at or before the time of writing (−∞ if none).
    let validFrom: Double
    /// The earliest `expiresAt` after the time of writing (+∞ if none).
    let validUntil: Double

    func holds(at now: Double) -> Bool { now >= validFrom && now < validUntil }

    /// The span over which the cards expired at `now` are the same, from the
    /// cards' expiry times (a card is expired once `now` reaches its own).
    struct Span {
        private(set) var from = -Double.infinity
        private(set) var until = Double.infinity

        mutating func note(expiresAt: Double?, at now: Double) {
            guard let expiresAt else { return }
            if expiresAt <= now {
                from = max(from, expiresAt)
            } else {
                until = min(until, expiresAt)
            }
        }
    }

    init(data: EncodedJSON, span: Span) {
        self.data = data
        validFrom = span.from
        validUntil = span.until
    }
}
