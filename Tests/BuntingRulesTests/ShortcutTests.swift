import BuntingJSON
import Testing
@testable import BuntingRules

/// The evaluation shortcuts answer, and charge, as the general paths do:
/// equality with a short ASCII literal, `if` with literal branches, and
/// `$flagd.flagKey` read from the lent keys.
struct ShortcutTests {
    /// Strings Swift's `==` equates with an ASCII one (canonical
    /// equivalence) though their code units differ, beside plain ones.
    static let values: [String] = [
        "K", "\u{212A}", ";", "\u{037E}", "`", "\u{1FEF}", "A\u{30A}", "\u{C5}",
        "gold", "gol", "golden", "Gold", "", String(repeating: "gold", count: 8),
    ]
    static let literals: [String] = ["K", ";", "`", "gold", "", "\u{C5}"]

    @Test func swiftEquatesTheCanonicalEquivalents() {
        // What makes the byte count part of the shortcut: without it, `==`
        // would call these equal.
        #expect("\u{212A}" == "K")
        #expect("\u{037E}" == ";")
        #expect("\u{1FEF}" == "`")
    }

    @Test(arguments: ["==", "===", "!=", "!=="])
    func equalityWithALiteralComparesCodeUnits(operator: String) throws {
        // Both operands variables: the general comparison.
        let general = try JSONLogicRule(json(#"{"\#(`operator`)": [{"var": "x"}, {"var": "y"}]}"#))
        for literal in Self.literals {
            let literalText = JSON.string(literal).encodedString()
            let withLiteral = try JSONLogicRule(json(#"{"\#(`operator`)": [{"var": "x"}, \#(literalText)]}"#))
            let literalFirst = try JSONLogicRule(json(#"{"\#(`operator`)": [\#(literalText), {"var": "x"}]}"#))
            for value in Self.values {
                let equal = Array(value.utf8) == Array(literal.utf8)
                let expected = equal == `operator`.hasPrefix("=")
                let data: JSON = ["x": .string(value), "y": .string(literal)]
                #expect(try general.evaluate(data) == .bool(expected), "\(value) \(`operator`) \(literal)")
                #expect(try withLiteral.evaluate(data) == .bool(expected), "\(value) \(`operator`) \(literal)")
                #expect(try literalFirst.evaluate(data) == .bool(expected), "\(literal) \(`operator`) \(value)")
            }
        }
    }

    @Test func ifWithLiteralBranchesAnswersAndChargesAsAnyIf() throws {
        let rule = try JSONLogicRule(json(#"{"if": [{"==": [{"var": "tier"}, "gold"]}, "on", ["off"]]}"#))
        #expect(try rule.evaluate(["tier": "gold"]) == "on")
        #expect(try rule.evaluate(["tier": "silver"]) == ["off"])
        // if, ==, var: one unit each; literals charge nothing.
        #expect(try rule.evaluateCountingWork(["tier": "gold"]).work == 3)
        #expect(try rule.evaluateCountingWork(["tier": "silver"]).work == 3)
        // A branch that is an operation is evaluated (and charged) as before.
        let computed = try JSONLogicRule(json(#"{"if": [{"var": "t"}, {"cat": ["o", "n"]}, "off"]}"#))
        #expect(try computed.evaluate(["t": true]) == "on")
        #expect(try computed.evaluateCountingWork(["t": true]).work == 3)
        #expect(try computed.evaluate(["t": false]) == "off")
        #expect(try computed.evaluateCountingWork(["t": false]).work == 2)
    }

    @Test func flagKeyIsReadFromTheLentKeys() throws {
        let flagd = FlagdProperties(flagKey: "flag-7", timestamp: 5)
        let data: JSON = ["userId": "u1", "$flagd": ["flagKey": "from the context"]]
        #expect(try JSONLogicRule(json(#"{"var": "$flagd.flagKey"}"#)).evaluate(data, flagd: flagd) == "flag-7")
        #expect(try JSONLogicRule(json(#"{"var": "$flagd.flagKey.length"}"#)).evaluate(data, flagd: flagd) == 6)
        #expect(try JSONLogicRule(json(#"{"var": "$flagd.flagKeys"}"#)).evaluate(data, flagd: flagd) == .null)
        #expect(
            try JSONLogicRule(json(#"{"cat": [{"var": "$flagd.flagKey"}, {"var": "userId"}]}"#))
                .evaluate(data, flagd: flagd) == "flag-7u1")
        // Outside flag evaluation `$flagd` is the context's own member.
        #expect(try JSONLogicRule(json(#"{"var": "$flagd.flagKey"}"#)).evaluate(data) == "from the context")
        // Inside an iterator the path is read from the element, not the flag.
        let scoped = try JSONLogicRule(json(#"{"map": [{"var": "items"}, {"var": "$flagd.flagKey"}]}"#))
        #expect(try scoped.evaluate(["items": [["$flagd": ["flagKey": "e"]]]], flagd: flagd) == ["e"])
    }
}
