import BuntingJSON
#if canImport(Glibc)
import Glibc
#endif

/// `cat`, `substr` and flagd's `starts_with`/`ends_with`.
extension Node {
    final class Concatenate: Node, @unchecked Sendable {
        let operands: Operands

        init(_ nodes: [Node]) { operands = Operands(nodes) }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var result = ""
            try interpreter.concatenate(operands, into: &result)
            return .string(result)
        }

        /// The MurmurHash3 of the value and its length in bytes, found with
        /// the same steps and limits as `evaluate` without building the string.
        func hashed(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> (hash: UInt32, byteCount: Int) {
            try interpreter.step()
            var sink = HashingSink()
            try interpreter.concatenate(operands, into: &sink)
            return (sink.hasher.finalize(), sink.byteCount)
        }
    }

    final class Substring: Node, @unchecked Sendable {
        let source: Node
        let start: Node
        let length: Node?

        init(source: Node, start: Node, length: Node?) {
            self.source = source
            self.start = start
            self.length = length
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return .string(try interpreter.substring(source: source, start: start, length: length))
        }
    }

    /// `starts_with` (isPrefix) or `ends_with`: null unless both operands are strings.
    final class Affix: Node, @unchecked Sendable {
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

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try test(&interpreter).map(JSON.bool) ?? .null
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            return try test(&interpreter) ?? false
        }

        private func test(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool? {
            if let literalPart {
                return try subject.inspect(&interpreter) { subject in
                    guard case .string(let text) = subject, case .string(let affix) = literalPart else { return nil }
                    return Self.hasAffix(text, affix, atStart: isPrefix)
                }
            }
            let subject = try subject.node.evaluate(&interpreter)
            let part = try part.evaluate(&interpreter)
            guard case .string(let text) = subject, case .string(let affix) = part else { return nil }
            return Self.hasAffix(text, affix, atStart: isPrefix)
        }

        /// A byte comparison at the start or end: a UTF-8 affix is a code
        /// point affix, without Swift's grapheme-aware `hasPrefix`.
        static func hasAffix(_ text: String, _ affix: String, atStart: Bool) -> Bool {
            let count = affix.utf8.count
            guard count <= text.utf8.count else { return false }
            return JavaScript.withBytes(of: text) { whole in
                JavaScript.withBytes(of: affix) { part in
                    count == 0 || memcmp(whole.baseAddress! + (atStart ? 0 : whole.count - count), part.baseAddress!, count) == 0
                }
            }
        }
    }
}

extension Interpreter {
    /// JavaScript's `join("")`: null becomes empty, everything else its string form.
    mutating func concatenate(_ operands: Operands, into sink: inout some ConcatenationSink) throws(RuleEvaluationError) {
        for index in 0..<operands.count {
            let value = try operands.evaluate(index, &self)
            switch value {
            case .null: continue
            case .string(let text): sink.append(text)
            default: sink.append(JavaScript.toString(value))
            }
            guard sink.byteCount <= limits.maxStringLength else {
                throw .stringTooLong(limit: limits.maxStringLength)
            }
        }
        try step(sink.byteCount / 64)
    }

    /// JavaScript's `substr(start, length)` over UTF-16 code units: a negative
    /// start counts from the end; a negative length stops that many units
    /// before the end (json-logic-js's emulation of PHP).
    mutating func substring(source: Node, start: Node, length: Node?) throws(RuleEvaluationError) -> String {
        let text = JavaScript.toString(try evaluate(source))
        let startValue = JavaScript.toNumber(try evaluate(start))
        let lengthValue = try length.map { node throws(RuleEvaluationError) in JavaScript.toNumber(try evaluate(node)) }
        guard text.utf8.count <= limits.maxStringLength else { throw .stringTooLong(limit: limits.maxStringLength) }
        try step(text.utf8.count / 64)

        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let size = isASCII ? text.utf8.count : text.utf16.count
        var from = Self.integer(startValue)
        from = from < 0 ? max(size + from, 0) : min(from, size)
        var to = size
        if let lengthValue {
            let count = Self.integer(lengthValue)
            to = count < 0 ? max(size + count, from) : min(from + min(count, size), size)
        }
        guard from < to else { return "" }
        if isASCII {
            let bytes = Array(text.utf8)
            return String(decoding: bytes[from..<to], as: UTF8.self)
        }
        let units = Array(text.utf16)
        return String(decoding: units[from..<to], as: UTF16.self)
    }

    /// `ToIntegerOrInfinity`, clamped to the range of Int: NaN is 0.
    private static func integer(_ value: Double) -> Int {
        if value.isNaN { return 0 }
        if value >= 9e18 { return Int.max / 4 }
        if value <= -9e18 { return Int.min / 4 }
        return Int(value.rounded(.towardZero))
    }
}

/// Where `cat` puts its pieces: the string being built, or a hash of it.
protocol ConcatenationSink {
    /// UTF-8 bytes so far.
    var byteCount: Int { get }
    mutating func append(_ text: String)
}

extension String: ConcatenationSink {
    var byteCount: Int { utf8.count }
}

/// The MurmurHash3 of a concatenation, fed piece by piece.
struct HashingSink: ConcatenationSink {
    var hasher = MurmurHash3()
    private(set) var byteCount = 0

    mutating func append(_ text: String) {
        hasher.combine(text)
        byteCount += text.utf8.count
    }
}
