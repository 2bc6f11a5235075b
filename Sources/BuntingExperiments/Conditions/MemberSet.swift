import BuntingJSON
import BuntingRules

/// The values of an `$in` list (or a saved group) for `Array.prototype.includes`:
/// SameValueZero, so strings by code units and numbers by value (0 and -0
/// alike); an array or object in the list never matches (JavaScript compares
/// them by reference, and the attribute is a different object). With
/// `caseInsensitive`, strings are kept lower-cased (`$ini`, `$nini`).
final class MemberSet: Sendable {
    /// The strings, for a short list read one by one (faster than hashing).
    private let stringList: [String]
    private let strings: Set<ExactKey>
    private let numbers: Set<Double>
    private let hasTrue: Bool
    private let hasFalse: Bool
    private let hasNull: Bool
    let caseInsensitive: Bool

    init(_ values: [JSON], caseInsensitive: Bool) {
        var strings = Set<ExactKey>()
        var numbers = Set<Double>()
        var hasTrue = false
        var hasFalse = false
        var hasNull = false
        for value in values {
            switch value {
            case .string(let text): strings.insert(ExactKey(caseInsensitive ? text.lowercased() : text))
            case .integer, .real: numbers.insert(JSValues.number(value)!)
            case .bool(let flag): if flag { hasTrue = true } else { hasFalse = true }
            case .null: hasNull = true
            case .array, .object: break
            }
        }
        self.strings = strings
        stringList = strings.count <= Self.longList ? strings.map(\.string) : []
        self.numbers = numbers
        self.hasTrue = hasTrue
        self.hasFalse = hasFalse
        self.hasNull = hasNull
        self.caseInsensitive = caseInsensitive
    }

    /// `isIn(actual, values)`: an array attribute matches when any element does.
    /// Up to this many strings, a list is searched rather than hashed into.
    static let longList = 16

    func matches(_ actual: JSON) -> Bool {
        if case .array(let elements) = actual {
            return elements.contains { contains($0) }
        }
        return contains(actual)
    }

    func contains(_ value: JSON) -> Bool {
        switch value {
        case .string(let text):
            let folded = caseInsensitive ? text.lowercased() : text
            if strings.count <= Self.longList { return stringList.contains { JSValues.sameString($0, folded) } }
            return strings.contains(ExactKey(folded))
        case .integer(let number): return numbers.contains(Double(number))
        case .real(let number): return numbers.contains(number)
        case .bool(let flag): return flag ? hasTrue : hasFalse
        case .null: return hasNull
        case .array, .object: return false
        }
    }
}

/// A payload's `savedGroups`: id → the values of the group. `$inGroup` of an
/// id the payload does not have is an empty group, as in the JavaScript SDK.
public struct SavedGroups: Sendable {
    let groups: [ExactKey: [JSON]]

    public static let none = SavedGroups(groups: [:])

    init(groups: [ExactKey: [JSON]]) { self.groups = groups }

    /// Reads a `savedGroups` object: each member must be an array (what
    /// GrowthBook serves); any other member is a problem and an empty group.
    public init(_ json: JSON?, at pointer: JSONPointer, problems: inout [PayloadProblem]) {
        guard let json else {
            self.init(groups: [:])
            return
        }
        guard case .object(let members) = json else {
            problems.append(
                PayloadProblem(pointer: pointer, message: "savedGroups must be an object, not \(json.typeName)"))
            self.init(groups: [:])
            return
        }
        var groups: [ExactKey: [JSON]] = [:]
        for (id, values) in members {
            guard case .array(let list) = values else {
                problems.append(
                    PayloadProblem(
                        pointer: pointer.appending(id),
                        message: "a saved group must be an array of values, not \(values.typeName)"))
                continue
            }
            groups[ExactKey(id)] = list
        }
        self.init(groups: groups)
    }

    func values(of id: String) -> [JSON] {
        groups[ExactKey(id)] ?? []
    }
}
