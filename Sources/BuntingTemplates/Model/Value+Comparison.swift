import BuntingJSON

/// Comparisons with Ruby's semantics: `1 == 1.0`, `'1' != 1`, strings
/// compared byte by byte, `empty` and `blank` equal to empty (or blank)
/// values, and `<` between a string and a number an error.
extension Value {
    static func equal(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.empty, .empty), (.blank, .blank), (.empty, .blank), (.blank, .empty): return false
        case (.empty, let other), (let other, .empty): return other.isEmptyCollection
        case (.blank, let other), (let other, .blank): return other.isBlank
        case (.time(let left), .time(let right)): return left.instant == right.instant
        case (.range(let a, let b), .range(let c, let d)): return a == c && b == d
        case (.forloop(let left), .forloop(let right)): return left === right
        case (.time, _), (_, .time), (.range, _), (_, .range), (.forloop, _), (_, .forloop): return false
        default: return equal(lhs.json, rhs.json)
        }
    }

    /// Ruby's `==` on data: numbers by value across integers and floats,
    /// strings by bytes, arrays and objects member by member.
    static func equal(_ lhs: JSON, _ rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): return Int64(exactly: b) == a
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(equal)
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
        default: return false
        }
    }

    /// Liquid's `empty?`: an empty string, array or object.
    var isEmptyCollection: Bool {
        switch self {
        case .string(let text): return text.isEmpty
        case .array(let elements): return elements.isEmpty
        case .object(let members): return members.isEmpty
        default: return false
        }
    }

    /// Liquid's `blank?`: nil, false, an empty or whitespace-only string,
    /// an empty array or object.
    var isBlank: Bool {
        switch self {
        case .null: return true
        case .bool(let flag): return !flag
        case .string(let text): return text.utf8.allSatisfy(MarkupScanner.isWhitespace)
        case .array(let elements): return elements.isEmpty
        case .object(let members): return members.isEmpty
        default: return false
        }
    }

    /// `<`, `>`, `<=`, `>=`: numbers with numbers, strings with strings (by
    /// bytes), times with times. A string against a number (or a time
    /// against either) is an error, as in Ruby; any other pair is false.
    static func ordered(_ lhs: Value, _ comparison: Comparison, _ rhs: Value, at offset: Int)
        throws(TemplateOffsetError)
        -> Bool
    {
        let order: Int
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case (.integer, .float), (.float, .integer), (.float, .float):
            order = compareNumbers(lhs, rhs)
        case (.string(let a), .string(let b)): order = compareBytes(a, b)
        case (.time(let a), .time(let b)): order = a.instant < b.instant ? -1 : (a.instant == b.instant ? 0 : 1)
        case (.string, .integer), (.string, .float), (.integer, .string), (.float, .string),
            (.time, .string), (.time, .integer), (.time, .float), (.string, .time), (.integer, .time), (.float, .time):
            throw .invalid("comparison of \(lhs.typeName) with \(rhs.typeName) failed", at: offset)
        default:
            return false
        }
        switch comparison {
        case .less: return order < 0
        case .greater: return order > 0
        case .lessOrEqual: return order <= 0
        case .greaterOrEqual: return order >= 0
        default: return false
        }
    }

    /// -1, 0 or 1 for two numbers, exactly (a 64-bit integer against a double
    /// is not rounded first).
    static func compareNumbers(_ lhs: Value, _ rhs: Value) -> Int {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.float(let a), .float(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .float(let b)): return -compareFloat(b, with: a)
        case (.float(let a), .integer(let b)): return compareFloat(a, with: b)
        default: return 0
        }
    }

    private static func compareFloat(_ float: Double, with integer: Int64) -> Int {
        if float.isNaN { return 0 }
        if float >= 9_223_372_036_854_775_808.0 { return 1 }
        if float < -9_223_372_036_854_775_808.0 { return -1 }
        let truncated = Int64(float.rounded(.towardZero))
        if truncated != integer { return truncated < integer ? -1 : 1 }
        let fraction = float - float.rounded(.towardZero)
        return fraction > 0 ? 1 : (fraction < 0 ? -1 : 0)
    }

    static func compareBytes(_ lhs: String, _ rhs: String) -> Int {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
            }
        }
    }

    /// `contains`: a substring of a string, an element of an array, a key of
    /// an object, an integer of a range. Nil or false on either side is false.
    static func contains(_ lhs: Value, _ rhs: Value) -> Bool {
        guard lhs.isTruthy, rhs.isTruthy else { return false }
        switch lhs {
        case .string(let text): return ByteSearch.contains(text, rhs.text)
        case .array(let elements):
            let needle = rhs.json
            return elements.contains { equal($0, needle) }
        case .object(let members):
            guard case .string(let key) = rhs else { return false }
            return members[key] != nil
        case .range(let start, let end):
            switch rhs {
            case .integer(let number): return number >= start && number <= end
            case .float(let number): return number >= Double(start) && number <= Double(end)
            default: return false
            }
        default:
            return false
        }
    }
}
