import BuntingJSON
#if canImport(Glibc)
import Glibc
#endif

/// flagd's `starts_with` and `ends_with`.
extension Node {
    /// `starts_with` (isPrefix) or `ends_with`: null unless both operands are strings.
    final class Affix: NullableTest, @unchecked Sendable {
        let isPrefix: Bool
        let subject: InspectedOperand
        let part: Node
        /// The affix when it is literal (the usual case), so that the subject
        /// can be read directly (see `InspectedOperand`).
        private let literalPart: JSON?

        init(isPrefix: Bool, _ subject: Node, _ part: Node) {
            self.isPrefix = isPrefix
            self.subject = InspectedOperand(subject)
            self.part = part
            literalPart = part.literalValue
        }

        /// Charged for the bytes compared: at most the affix's.
        override func test(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool? {
            if let literalPart {
                let (answer, bytes) = try subject.inspect(&interpreter) { subject -> (Bool?, Int) in
                    guard case .string(let text) = subject, case .string(let affix) = literalPart else {
                        return (nil, 0)
                    }
                    return (Self.hasAffix(text, affix, atStart: isPrefix), affix.utf8.count)
                }
                try interpreter.charge(bytes: bytes)
                return answer
            }
            let subject = try subject.node.evaluate(&interpreter)
            let part = try part.evaluate(&interpreter)
            guard case .string(let text) = subject, case .string(let affix) = part else { return nil }
            try interpreter.charge(comparing: text, affix)
            return Self.hasAffix(text, affix, atStart: isPrefix)
        }

        /// A byte comparison at the start or end: a UTF-8 affix is a code
        /// point affix, without Swift's grapheme-aware `hasPrefix`.
        static func hasAffix(_ text: String, _ affix: String, atStart: Bool) -> Bool {
            let count = affix.utf8.count
            guard count <= text.utf8.count else { return false }
            return JavaScript.withBytes(of: text) { whole in
                JavaScript.withBytes(of: affix) { part in
                    count == 0
                        || memcmp(whole.baseAddress! + (atStart ? 0 : whole.count - count), part.baseAddress!, count)
                            == 0
                }
            }
        }
    }
}
