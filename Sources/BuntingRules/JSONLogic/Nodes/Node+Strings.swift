import BuntingJSON

/// `cat` and `substr`.
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
