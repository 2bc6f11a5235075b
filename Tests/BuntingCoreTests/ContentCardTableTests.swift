import BuntingCore
import BuntingJSON
import Testing

/// A definitions document's cards share one table in listed order: each must
/// stay the card it was (fields, text, state), and cards of the table must
/// list as their fields say, whatever order they came in.
@Suite struct ContentCardTableTests {
    private static let cards: [ContentCard] = [
        ContentCard(id: "b", type: .classic, title: "Older", extras: ["feed": "inbox"], created: 100),
        ContentCard(
            id: "pinned", type: .captionedImage, title: "Pinned", imageUrl: "https://example.com/p.png", created: 50,
            pinned: true, viewed: true),
        ContentCard(id: "a", type: .classic, title: "Same date as b", created: 100, expiresAt: 900, clicked: true),
        ContentCard(id: "new", type: .imageOnly, created: 300, dismissible: false),
        ContentCard(id: "control", type: .control, created: 200),
    ]

    @Test func sharedCardsAreTheCardsTheyWere() {
        let shared = ContentCard.sharingOneTable(Self.cards)
        #expect(shared == Self.cards)
        for (card, original) in zip(shared, Self.cards) {
            #expect(card.encoded.bytes == original.encoded.bytes)
            #expect(card.encodedCount == card.encoded.bytes.count)
            #expect(card.id == original.id && card.type == original.type && card.title == original.title)
            #expect(
                card.extras == original.extras && card.created == original.created
                    && card.expiresAt == original.expiresAt)
            #expect(card.pinned == original.pinned && card.dismissible == original.dismissible)
            #expect(card.viewed == original.viewed && card.clicked == original.clicked)
        }
    }

    @Test func sharedCardsListAsTheirFieldsSay() {
        let shared = ContentCard.sharingOneTable(Self.cards)
        let listed = shared.sorted(by: ContentCard.listedBefore).map(\.id)
        #expect(listed == ["pinned", "new", "control", "a", "b"])
        #expect(listed == Self.cards.sorted(by: ContentCard.listedBefore).map(\.id))
        // A card of the table beside one made on its own compares by fields.
        let outsider = ContentCard(id: "c", type: .classic, created: 100)
        #expect(
            (shared + [outsider]).sorted(by: ContentCard.listedBefore).map(\.id) == [
                "pinned", "new", "control", "a", "b", "c",
            ])
    }

    @Test func cardsThatListAsEqualsKeepComparingByFields() {
        // The same id, pinning and date twice: neither is listed before the other.
        let twins = ContentCard.sharingOneTable([
            ContentCard(id: "twin", type: .classic, title: "One", created: 1),
            ContentCard(id: "twin", type: .classic, title: "Two", created: 1),
        ])
        #expect(!ContentCard.listedBefore(twins[0], twins[1]))
        #expect(!ContentCard.listedBefore(twins[1], twins[0]))
        #expect(twins[0] != twins[1])
        #expect(twins.map(\.title) == ["One", "Two"])
    }
}
