import BuntingJSON

/// JSON Schema compares values by their meaning: `2` and `2.0` are the same
/// number, and `{"a":1,"b":2}` equals `{"b":2,"a":1}`. `JSON`'s own `==` keeps
/// integers and reals apart, so the validator compares normalized values.
extension JSON {
    /// This value with every real that is a whole number within 64 bits turned
    /// into an integer, so that `==` and hashing follow JSON Schema equality.
    var schemaNormalized: JSON {
        switch self {
        case .real(let number):
            if let whole = exactInteger(number) { return .integer(whole) }
            return self
        case .array(let elements):
            return .array(elements.map(\.schemaNormalized))
        case .object(let members):
            var normalized = JSONObject()
            normalized.reserveCapacity(members.count)
            for (key, member) in members { normalized[key] = member.schemaNormalized }
            return .object(normalized)
        default:
            return self
        }
    }

    /// True for integers and for reals without a fractional part, as the
    /// `integer` type of JSON Schema counts them.
    var isSchemaInteger: Bool {
        switch self {
        case .integer: return true
        case .real(let number): return number.isFinite && number.rounded(.towardZero) == number
        default: return false
        }
    }

    /// How many values this one holds, itself included, counted without recursion.
    var valueCount: Int {
        var count = 0
        var pending: [JSON] = [self]
        while let value = pending.popLast() {
            count += 1
            switch value {
            case .array(let elements): pending.append(contentsOf: elements)
            case .object(let members): for (_, member) in members { pending.append(member) }
            default: break
            }
        }
        return count
    }

    /// A short text of this value for messages: compact JSON, cut after `limit` characters.
    func excerpt(limit: Int = 60) -> String {
        let text = encodedString()
        guard text.unicodeScalars.count > limit else { return text }
        var cut = String.UnicodeScalarView(text.unicodeScalars.prefix(limit))
        cut.append("…")
        return String(cut)
    }
}

/// The Int64 a Double equals exactly, if any.
private func exactInteger(_ number: Double) -> Int64? {
    guard number.rounded(.towardZero) == number,
        number >= -9_223_372_036_854_775_808.0, number < 9_223_372_036_854_775_808.0
    else { return nil }
    return Int64(number)
}
