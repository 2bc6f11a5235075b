extension JSON {
    /// Whether the compact text of this value (as `encoded()` writes it) is
    /// at most `limit` bytes, told without writing it and stopping as soon
    /// as the answer is no: a value can be far larger written out than held
    /// (a thousand references to one 1 MiB string are 1 GB of text), and a
    /// reply is refused before its text is made, not after.
    ///
    /// Counts from above: each byte jansson may escape counts as its longest
    /// escape (`\u001f`, six bytes), each number as its longest text, so a
    /// text near the limit that is full of control characters may be called
    /// too large. Walks with a stack of its own, never recursing.
    public func encodedSize(isAtMost limit: Int) -> Bool {
        var total = 0
        var pending: [JSON] = [self]
        while let value = pending.popLast() {
            switch value {
            case .null: total += 4
            case .bool: total += 5
            case .integer: total += 20
            case .real: total += 24
            case .string(let text):
                total += Self.encodedSizeBound(of: text, stoppingPast: limit - total)
            case .array(let elements):
                total += 1 + elements.count
                pending.append(contentsOf: elements)
            case .object(let object):
                total += 1 + object.count
                for (key, member) in object {
                    total += Self.encodedSizeBound(of: key, stoppingPast: limit - total) + 1
                    pending.append(member)
                }
            }
            if total > limit { return false }
        }
        return true
    }

    /// Quotes, bytes, and five more for each byte that may be escaped; once
    /// the plain bytes alone pass `budget` the escapes are not counted.
    private static func encodedSizeBound(of text: String, stoppingPast budget: Int) -> Int {
        let plain = text.utf8.count + 2
        guard plain <= budget else { return plain }
        var escaped = 0
        var copy = text
        copy.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                escaped += 1
            }
        }
        return plain + 5 * escaped
    }
}
