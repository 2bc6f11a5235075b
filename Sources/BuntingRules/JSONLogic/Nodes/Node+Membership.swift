import BuntingJSON

/// `in`: a substring of a string, or an element of an array.
extension Node {
    /// `in`: see `Interpreter.contains(_:in:)`.
    final class Membership: Node, @unchecked Sendable {
        let needle: Node
        let haystack: InspectedOperand
        /// The needle when it is literal (`{"in": ["beta", {"var": "email"}]}`),
        /// so that the haystack can be read directly (see `InspectedOperand`),
        /// and its string form, for a string haystack.
        private let literalNeedle: JSON?
        private let literalNeedleText: String

        init(needle: Node, haystack: Node) {
            self.needle = needle
            self.haystack = InspectedOperand(haystack)
            literalNeedle = needle.literalValue
            literalNeedleText = literalNeedle.map(JavaScript.toString) ?? ""
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            if let literalNeedle {
                let (found, cost) = try haystack.inspect(&interpreter) { haystack -> (Bool, Int) in
                    switch haystack {
                    case .string(let text): return Interpreter.search(text, for: literalNeedleText)
                    case .array(let elements): return Interpreter.scan(elements, for: literalNeedle)
                    default: return (false, 0)
                    }
                }
                try interpreter.step(cost)
                return found
            }
            let needle = try needle.evaluate(&interpreter)
            let haystack = try haystack.node.evaluate(&interpreter)
            return try interpreter.contains(needle, in: haystack)
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
            let (found, bytes) = try needle.inspect(&interpreter) { needle -> (Bool, Int) in
                guard case .string(let needle) = needle else { return (false, 0) }
                // The needle is hashed and compared: its bytes are the work.
                return (strings.contains(needle), needle.utf8.count)
            }
            try interpreter.charge(bytes: bytes)
            return found
        }
    }
}

extension Interpreter {
    /// `in`: a substring of a string (the needle as a string), or an element
    /// of an array by strict equality; false for any other haystack.
    /// Charged for the bytes searched or the elements compared.
    mutating func contains(_ needle: JSON, in haystack: JSON) throws(RuleEvaluationError) -> Bool {
        let found: Bool
        let cost: Int
        switch haystack {
        case .string(let text): (found, cost) = Self.search(text, for: try string(needle))
        case .array(let elements): (found, cost) = Self.scan(elements, for: needle)
        default: return false
        }
        try step(cost)
        return found
    }

    /// Whether `haystack` contains `needle`, and the work units it cost: a
    /// byte search (a UTF-8 substring match is a code point substring match,
    /// without Swift's grapheme-aware comparison). See `ByteSearch`.
    static func search(_ haystack: String, for needle: String) -> (found: Bool, cost: Int) {
        JavaScript.withBytes(of: haystack) { text in
            JavaScript.withBytes(of: needle) { part in ByteSearch.contains(text, part) }
        }
    }

    /// Whether an element of `elements` is strictly equal to `needle`, and the
    /// work units it cost: one per element compared, and for a long string
    /// needle its bytes each time an element of its length is compared.
    static func scan(_ elements: [JSON], for needle: JSON) -> (found: Bool, cost: Int) {
        var needleBytes = 0
        if case .string(let text) = needle { needleBytes = text.utf8.count }
        let longNeedle = needleBytes >= bytesPerUnit
        var compared = 0
        var bytes = 0
        var found = false
        for element in elements {
            compared += 1
            if longNeedle, case .string(let text) = element, text.utf8.count == needleBytes { bytes += needleBytes }
            if JavaScript.strictEquals(needle, element) {
                found = true
                break
            }
        }
        return (found, compared + bytes / bytesPerUnit)
    }
}
