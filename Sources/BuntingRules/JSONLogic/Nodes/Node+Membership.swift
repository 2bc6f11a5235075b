import BuntingJSON

/// `in`: a substring of a string, or an element of an array.
extension Node {
    /// `in`: see `Interpreter.contains(_:in:)`.
    final class Membership: Node, @unchecked Sendable {
        let needle: Node
        let haystack: InspectedOperand
        /// The needle when it is literal (`{"in": ["beta", {"var": "email"}]}`),
        /// so that the haystack can be read directly (see `InspectedOperand`).
        private let literalNeedle: JSON?

        init(needle: Node, haystack: Node) {
            self.needle = needle
            self.haystack = InspectedOperand(haystack)
            literalNeedle = needle.literalValue
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            if let literalNeedle {
                return try haystack.inspect(&interpreter) { Interpreter.contains(literalNeedle, in: $0) }
            }
            let needle = try needle.evaluate(&interpreter)
            let haystack = try haystack.node.evaluate(&interpreter)
            return Interpreter.contains(needle, in: haystack)
        }
    }

    /// `in` with a literal array of strings: a hash lookup instead of a scan.
    final class MembershipInStrings: Node, @unchecked Sendable {
        let needle: InspectedOperand
        let strings: LiteralStringSet

        init(needle: Node, strings: LiteralStringSet) {
            self.needle = InspectedOperand(needle)
            self.strings = strings
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            return try needle.inspect(&interpreter) { needle in
                guard case .string(let needle) = needle else { return false }
                return strings.contains(needle)
            }
        }
    }
}

extension Interpreter {
    /// `in`: a substring of a string (the needle as a string), or an element
    /// of an array by strict equality; false for any other haystack.
    static func contains(_ needle: JSON, in haystack: JSON) -> Bool {
        switch haystack {
        case .string(let text):
            return Self.containsSubstring(text, JavaScript.toString(needle))
        case .array(let elements):
            return elements.contains { JavaScript.strictEquals(needle, $0) }
        default:
            return false
        }
    }

    /// Byte search: a UTF-8 substring match is a code point substring match,
    /// without Swift's grapheme-aware comparison.
    static func containsSubstring(_ haystack: String, _ needle: String) -> Bool {
        JavaScript.withBytes(of: haystack) { text in
            JavaScript.withBytes(of: needle) { part in
                guard part.count <= text.count else { return false }
                guard let first = part.first else { return true }
                var start = 0
                let last = text.count - part.count
                while start <= last {
                    if text[start] == first {
                        var matched = true
                        for offset in 1..<part.count where text[start + offset] != part[offset] {
                            matched = false
                            break
                        }
                        if matched { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
