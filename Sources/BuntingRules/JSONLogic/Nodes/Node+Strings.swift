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
    /// JavaScript's `join("")`: null becomes empty, everything else its string
    /// form. Charged for the bytes it builds.
    mutating func concatenate(_ operands: Operands, into sink: inout some ConcatenationSink) throws(RuleEvaluationError)
    {
        for index in 0..<operands.count {
            let value = try operands.evaluate(index, &self)
            switch value {
            case .null: continue
            case .string(let text): sink.append(text)
            default: sink.append(try string(value))
            }
            guard sink.byteCount <= limits.maxStringLength else {
                throw .stringTooLong(limit: limits.maxStringLength)
            }
        }
        try charge(bytes: sink.byteCount)
    }

    /// JavaScript's `substr(start, length)` over UTF-16 code units: a negative
    /// start counts from the end; a negative length stops that many units
    /// before the end (json-logic-js's emulation of PHP).
    mutating func substring(source: Node, start: Node, length: Node?) throws(RuleEvaluationError) -> String {
        let text = try string(try evaluate(source))
        let startValue = try number(try evaluate(start))
        let lengthValue = try length.map { node throws(RuleEvaluationError) in try number(try evaluate(node)) }
        // The text is scanned to find the code units.
        try charge(bytes: text.utf8.count)

        return try JavaScript.withBytes(of: text) { bytes -> Result<String, RuleEvaluationError> in
            let size = Self.utf16Count(bytes)
            var from = Self.integer(startValue)
            from = from < 0 ? max(size + from, 0) : min(from, size)
            var to = size
            if let lengthValue {
                let count = Self.integer(lengthValue)
                to = count < 0 ? max(size + count, from) : min(from + min(count, size), size)
            }
            guard from < to else { return .success("") }
            // Never longer than the text, so only a built text can be too long.
            guard to - from <= limits.maxStringLength else {
                return .failure(.stringTooLong(limit: limits.maxStringLength))
            }
            if size == bytes.count {
                return .success(String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self))
            }
            return .success(Self.utf16Slice(bytes, from: from, to: to))
        }.get()
    }

    /// The UTF-16 length of valid UTF-8: one unit per character, two for
    /// those past U+FFFF (four-byte sequences).
    private static func utf16Count(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes {
            if byte & 0xC0 != 0x80 { count += 1 }
            if byte >= 0xF0 { count += 1 }
        }
        return count
    }

    /// The UTF-16 units `from..<to` of valid UTF-8, as a string: a surrogate
    /// pair cut in half becomes U+FFFD, as decoding the units would make it.
    private static func utf16Slice(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(min(bytes.count, 3 * (to - from)))
        var unit = 0
        var index = 0
        while index < bytes.count, unit < to {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let units = length == 4 ? 2 : 1
            let inside = min(unit + units, to) - max(unit, from)
            if inside == units {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
            } else if inside == 1 {
                output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            }
            unit += units
            index += length
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `ToIntegerOrInfinity`, clamped to the range of Int: NaN is 0.
    private static func integer(_ value: Double) -> Int {
        if value.isNaN { return 0 }
        if value >= 9e18 { return Int.max / 4 }
        if value <= -9e18 { return Int.min / 4 }
        return Int(value.rounded(.towardZero))
    }
}
