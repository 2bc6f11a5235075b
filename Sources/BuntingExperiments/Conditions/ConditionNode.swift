import BuntingJSON
import BuntingRules

/// A condition compiled: what `evalCondition(obj, condition)` does with it,
/// decided once from the condition's shape. JavaScript reads a condition
/// with `Object.entries`, so a condition that is not an object still means
/// something (an array's entries are "0", "1", …; a number has none and
/// passes), and `null` throws: `throwing` stands for that.
indirect enum ConditionNode: Sendable {
    /// Every entry must pass.
    case entries([ConditionEntry])
    /// A string read as a condition: each code unit `c` at index `i` is the
    /// entry `{"i": c}`. Kept as the code units and read when evaluated,
    /// rather than compiled into an entry per character.
    case characters([UInt16])
    case throwing
}

enum ConditionEntry: Sendable {
    /// `$or`: passes when the list is empty or any member passes.
    case or(ConditionList)
    /// `$nor`: fails when `$or` of the list would pass.
    case nor(ConditionList)
    /// `$and`: every member passes.
    case and(ConditionList)
    case not(ConditionNode)
    /// Any other key: the value at that dot path (null when missing) against a test.
    case path(AttributePath, ValueTest)
}

/// The members `$or`/`$and` iterate: an array's elements, a string's
/// characters, nothing for a value without a length; `null` throws.
enum ConditionList: Sendable {
    case members([ConditionNode])
    /// A string's characters, each one the condition `characters([c])`.
    case characters([UInt16])
    case throwing
}

/// A dot path into the tested object, split once. `id` numbers the
/// payload's distinct paths, so that an evaluation can keep each one's value
/// in the user's attributes once read.
struct AttributePath: Sendable {
    let components: [String]
    let id: Int

    init(_ path: String, id: Int = -1) {
        components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.id = id
    }

    /// `getPath`: each step into an object member, an array element (its
    /// canonical index) or an array's `length`; null once a step finds nothing.
    func value(in root: JSON) -> JSON {
        var current = root
        for component in components {
            switch current {
            case .object(let members):
                guard let next = members[component] else { return .null }
                current = next
            case .array(let elements):
                if component == "length" {
                    current = .int(elements.count)
                } else if let index = JSValues.arrayIndex(component), Int(index) < elements.count {
                    current = elements[Int(index)]
                } else {
                    return .null
                }
            default:
                return .null
            }
        }
        return current
    }
}

/// What `evalConditionValue(condition, value)` does, decided by the
/// condition value's type.
indirect enum ValueTest: Sendable {
    /// A string: `value + "" === s` (or lower-cased both sides, inside `$alli`).
    case string(String, insensitive: Bool)
    /// A number: `value * 1 === n`.
    case number(Double)
    /// A boolean: `value !== null && !!value === b`.
    case boolean(Bool)
    /// null: `value === null` (a missing attribute is null).
    case null
    /// An array or an object that is not all operators: `JSON.stringify` of both equal.
    case sameJSON(JSON)
    /// An operator object: every operator passes.
    case operators([OperatorTest])
}

enum OperatorTest: Sendable {
    case strictEqual(JSON, negated: Bool)
    case relational(JSON, JavaScript.Relation)
    case version([UInt16], VersionRelation)
    case exists(Bool)
    case membership(MemberSet, negated: Bool)
    case not(ValueTest)
    case size(ValueTest)
    case elementMatchesValue(ValueTest)
    case elementMatchesCondition(ConditionNode)
    case all([ValueTest])
    case regex(JavaScriptRegex)
    case type(String)
    /// An operator that never passes: unknown, or given an argument of the
    /// wrong type, or an invalid regular expression (JavaScript's SDK logs
    /// or catches these and answers false).
    case never
}

enum VersionRelation: Sendable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
}
