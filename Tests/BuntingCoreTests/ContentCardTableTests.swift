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

    /// Listing many cards at once reads each card's fields once: the order
    /// must be the card-by-card sort's, ties and cards of other tables included.
    @Test func listingAllAtOnceIsTheCardByCardOrder() {
        let shared = ContentCard.sharingOneTable(Self.cards)
        let twins = ContentCard.sharingOneTable([
            ContentCard(id: "twin", type: .classic, title: "One", created: 100),
            ContentCard(id: "twin", type: .classic, title: "Two", created: 100),
        ])
        let loose = [
            ContentCard(id: "c", type: .classic, created: 100), ContentCard(id: "0", type: .classic, created: 100),
            ContentCard(id: "p", type: .classic, created: 50, pinned: true),
            ContentCard(id: "é", type: .control, created: 300),
        ]
        var mixed = shared + twins + loose + Self.cards + [shared[1], shared[3]]
        for _ in 0..<20 {
            let listed = ContentCard.inListedOrder(mixed)
            let expected = mixed.sorted(by: ContentCard.listedBefore)
            #expect(listed.map(\.id) == expected.map(\.id))
            #expect(listed.map(\.title) == expected.map(\.title))
            #expect(listed == expected)
            mixed = mixed.enumerated().sorted { ($0.offset * 7919) % 13 < ($1.offset * 7919) % 13 }.map(\.element)
        }
        #expect(ContentCard.inListedOrder(shared).map(\.id) == ["pinned", "new", "control", "a", "b"])
        #expect(ContentCard.inListedOrder([]).isEmpty)
    }

    /// A document's cards are made straight into their table: the cards
    /// kept are those a card made on its own would be, and the ones left
    /// out (a duplicate id, a targeting that does not compile) are not listed.
    @Test func cardsMadeInTheTableAreTheCardsMadeAlone() throws {
        let definitions: [JSON] = [
            ["id": "b", "type": "classic", "title": "Older", "extras": ["feed": "inbox"], "created": 100],
            ["id": "left-out", "type": "classic", "created": 500, "pinned": true],
            [
                "id": "pinned", "type": "captionedImage", "imageUrl": "https://example.com/p.png", "created": 50,
                "pinned": true, "dismissible": false,
            ],
            ["id": "a", "type": "classic", "title": "Same date as b", "created": 100, "expiresAt": 900],
        ]
        var table = ContentCard.TableBuilder()
        var numbers: [Int] = []
        for definition in definitions {
            let number = table.add(json: definition)
            numbers.append(try #require(number))
        }
        #expect(table.add(json: ["id": "no-date", "type": "classic"]) == nil)
        #expect(table.id(of: numbers[2]) == "pinned")
        let kept = [numbers[0], numbers[2], numbers[3]]
        let cards = table.cards(keeping: kept)
        let alone = try [0, 2, 3].map { try #require(ContentCard(json: definitions[$0])) }
        #expect(cards == alone)
        #expect(cards.map(\.encoded.bytes) == alone.map(\.encoded.bytes))
        #expect(cards.map(\.extras) == alone.map(\.extras))
        #expect(ContentCard.inListedOrder(cards).map(\.id) == ["pinned", "a", "b"])
        #expect(ContentCard.inListedOrder(cards + alone).map(\.id) == ["pinned", "pinned", "a", "a", "b", "b"])
    }

    /// The kept rows are put in listed order in place (`gather`): whatever
    /// the order and subset kept, each card is the card made alone, and the
    /// table lists as the cards' fields say.
    @Test func cardsKeptInAnyOrderAreListedInPlace() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<20 {
            let count = 1 + next(200)
            let definitions: [JSON] = (0..<count).map { index in
                [
                    "id": .string("c\(round)-\(next(count))-\(index)"), "type": "classic",
                    "created": .integer(Int64(next(20))), "pinned": .bool(next(5) == 0),
                    "extras": ["rank": .string(String(next(3)))],
                ]
            }
            var table = ContentCard.TableBuilder(reservingCapacity: count / 2)
            var numbers: [Int] = []
            for definition in definitions {
                let number = table.add(json: definition)
                numbers.append(try #require(number))
            }
            var kept = numbers.filter { _ in next(4) != 0 }
            for index in kept.indices.reversed() { kept.swapAt(index, next(index + 1)) }
            let cards = (consume table).cards(keeping: kept)
            let alone = try kept.map { try #require(ContentCard(json: definitions[$0])) }
            #expect(cards == alone)
            #expect(cards.map(\.encoded.bytes) == alone.map(\.encoded.bytes))
            #expect(ContentCard.inListedOrder(cards).map(\.id) == ContentCard.inListedOrder(alone).map(\.id))
        }
    }
}
