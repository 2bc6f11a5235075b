import BuntingJSON
import Testing

@testable import BuntingDefinitions

/// `DistinctIds` (the content cards' duplicate check) says what a set of
/// the ids' exact bytes says, as it grows past what it expected.
struct DistinctIdsTests {
    @Test(arguments: [0, 16, 5_000])
    func itAgreesWithASetOfExactIds(expecting: Int) {
        var random = SystemRandomNumberGenerator()
        // Ids from a small alphabet, so that many come twice; two spellings
        // of café that Swift calls equal and that are two ids.
        let alphabet = ["a", "b", "c", "caf\u{E9}", "cafe\u{301}"]
        var ids: [String] = []
        for _ in 0..<3_000 {
            let length = Int.random(in: 1...4, using: &random)
            ids.append((0..<length).map { _ in alphabet.randomElement(using: &random)! }.joined())
        }
        var distinct = DistinctIds(expecting: expecting)
        var set: Set<ExactString> = []
        for (number, id) in ids.enumerated() {
            let added = distinct.insert(id, number: number) { ids[$0] }
            #expect(added == set.insert(ExactString(id)).inserted, "\(number): \(id.debugDescription)")
        }
        #expect(set.count > 100 && set.count < ids.count, "the premise: many ids, some twice")
        #expect(distinct.insert("caf\u{E9}", number: ids.count) { ids[$0] } == !set.contains(ExactString("caf\u{E9}")))
    }
}
