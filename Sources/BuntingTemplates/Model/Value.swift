import BuntingJSON

/// A value while a template renders: what JSON holds, plus ranges, the
/// special `empty` and `blank`, times with their zone, and a loop's
/// `forloop`. Arrays and objects keep the JSON they came from, so that
/// reading a user's data copies nothing.
enum Value {
    case null
    case bool(Bool)
    case integer(Int64)
    case float(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
    /// `(start..end)`, both ends included; empty when end < start.
    case range(Int64, Int64)
    case empty
    case blank
    case time(ZonedTime)
    case forloop(LoopFrame)

    init(_ json: JSON) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .float(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements)
        case .object(let members): self = .object(members)
        }
    }

    /// Only nil and false are falsy; `0`, `""`, `[]` and `empty` are truthy.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let flag): return flag
        default: return true
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The number of elements of a range (0 when empty); ends are within 64
    /// bits, so the count is computed without overflow.
    static func rangeCount(_ start: Int64, _ end: Int64) -> Int {
        guard end >= start else { return 0 }
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        guard !overflow, difference < Int64(Int.max) else { return Int.max }
        return Int(difference) + 1
    }

    /// The value as JSON, to be kept in an array or object: a range becomes
    /// its integers (the caller bounds its length), a time its text, `empty`
    /// and `blank` the empty string, a `forloop` its members.
    var json: JSON {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .float(let number): return .real(number)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements)
        case .object(let members): return .object(members)
        case .range(let start, let end):
            var elements: [JSON] = []
            if end >= start {
                var current = start
                while true {
                    elements.append(.integer(current))
                    if current == end { break }
                    current += 1
                }
            }
            return .array(elements)
        case .empty, .blank: return .string("")
        case .time(let time): return .string(time.description)
        case .forloop(let frame): return .object(frame.members)
        }
    }
}

/// A loop's state, read through `forloop` in its body.
final class LoopFrame {
    let name: String
    let length: Int
    var index0 = 0
    let parent: LoopFrame?

    init(name: String, length: Int, parent: LoopFrame?) {
        self.name = name
        self.length = length
        self.parent = parent
    }

    func member(_ key: String) -> Value {
        switch key {
        case "index": return .integer(Int64(index0 + 1))
        case "index0": return .integer(Int64(index0))
        case "rindex": return .integer(Int64(length - index0))
        case "rindex0": return .integer(Int64(length - index0 - 1))
        case "first": return .bool(index0 == 0)
        case "last": return .bool(index0 == length - 1)
        case "length": return .integer(Int64(length))
        case "name": return .string(name)
        case "parentloop": return parent.map { .forloop($0) } ?? .null
        default: return .null
        }
    }

    var members: JSONObject {
        var object = JSONObject()
        for key in ["first", "index", "index0", "last", "length", "rindex", "rindex0", "name"] {
            object[key] = member(key).json
        }
        return object
    }
}
