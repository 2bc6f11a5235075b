import BuntingJSON
import Testing

/// Values written exactly alike share one copy; values `JSON`'s `==` takes
/// as equal but written otherwise keep their own, as written.
struct SharedCopiesTests {
    /// Pairs that `==` calls equal, each written another way.
    static let almostAlike: [(String, String)] = [
        (#"{"a": 1}"#, #"{"a": 1.0}"#), (#"{"a": 0.0}"#, #"{"a": -0.0}"#),
        (#"{"a": "\u00e9"}"#, #"{"a": "e\u0301"}"#), (#"{"a": 1, "b": 2}"#, #"{"b": 2, "a": 1}"#),
        (#"[{"x": [1, "y"]}]"#, #"[{"x": [1.0, "y"]}]"#),
    ]

    @Test func eachValueIsGivenBackAsItWasWritten() throws {
        var copies = SharedCopies()
        for (first, second) in Self.almostAlike {
            for text in [first, second, first, second] {
                let value = try JSON.parse(Array(text.utf8))
                #expect(copies.copy(of: value).encoded() == value.encoded(), "\(text)")
            }
        }
    }

    @Test func aCopyHoldsNothingOfTheValueItWasMadeFrom() throws {
        var copies = SharedCopies()
        let value = try JSON.parse(Array(#"{"theme": {"type": "string", "value": "a long enough string"}}"#.utf8))
        let copy = copies.copy(of: value)
        let again = copies.copy(of: try JSON.parse(Array(value.encoded())))
        // The string's storage is the copy's own, and the second value gets the first copy.
        let original = value["theme"]?["value"]?.stringValue
        let copied = copy["theme"]?["value"]?.stringValue
        #expect(copied == original)
        #expect(copied.map(Self.storage) != original.map(Self.storage))
        #expect(again["theme"]?["value"]?.stringValue.map(Self.storage) == copied.map(Self.storage))
    }

    private static func storage(_ text: String) -> UInt {
        var text = text
        return text.withUTF8 { UInt(bitPattern: $0.baseAddress) }
    }
}
