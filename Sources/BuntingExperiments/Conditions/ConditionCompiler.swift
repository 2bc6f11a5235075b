import BuntingJSON
import BuntingRules

/// Compiles GrowthBook conditions (MongoDB-like, as the JavaScript SDK's
/// `mongrule.ts` evaluates them) into `ConditionNode`s, once per payload.
///
/// What JavaScript would decide from the condition alone is decided here:
/// an operator given a list where it needs one, the saved group `$inGroup`
/// names, a regular expression's validity. What is out of Bunting's bounds
/// (nesting, pattern length, a valid pattern it cannot run) is thrown with
/// the pointer of the value at fault.
struct ConditionCompiler {
    let savedGroups: SavedGroups
    let limits: PayloadLimits
    /// Feature key → its place in the payload, for prerequisites.
    var featureIndices: [ExactKey: Int] = [:]
    /// Saved groups made into sets once, however many conditions name them.
    private var groupSets: [ExactKey: MemberSet] = [:]
    /// Each distinct attribute path's number (see `AttributePath.id`).
    private var pathIDs: [ExactKey: Int] = [:]
    private(set) var pathCount = 0
    /// Instructions the patterns compiled so far take (see `PayloadLimits.maxPatternInstructions`).
    private var patternInstructions = 0
    /// Each distinct experiment key's number (see `ExperimentDefinition.keyOrdinal`).
    private var experimentKeys: [ExactKey: Int] = [:]
    private(set) var experimentKeyCount = 0

    mutating func experimentKeyOrdinal(_ key: String) -> Int {
        if let ordinal = experimentKeys[ExactKey(key)] { return ordinal }
        experimentKeyCount += 1
        experimentKeys[ExactKey(key)] = experimentKeyCount - 1
        return experimentKeyCount - 1
    }

    private mutating func path(_ text: String) -> AttributePath {
        if let id = pathIDs[ExactKey(text)] { return AttributePath(text, id: id) }
        let id = pathCount
        pathCount += 1
        pathIDs[ExactKey(text)] = id
        return AttributePath(text, id: id)
    }

    init(savedGroups: SavedGroups, limits: PayloadLimits) {
        self.savedGroups = savedGroups
        self.limits = limits
    }

    /// A condition, as `evalCondition(attributes, condition)` reads it.
    mutating func condition(_ json: JSON, at pointer: JSONPointer, depth: Int = 1) throws(FeatureCompileError)
        -> ConditionNode
    {
        guard depth <= limits.maxConditionDepth else {
            throw FeatureCompileError(pointer, "conditions nest deeper than \(limits.maxConditionDepth) levels")
        }
        switch json {
        case .null:
            return .throwing
        case .bool, .integer, .real:
            return .entries([])
        case .string(let text):
            // Object.entries of a string: its characters under "0", "1", …
            return .characters(Array(text.utf16))
        case .array(let elements):
            var entries: [ConditionEntry] = []
            for (index, element) in elements.enumerated() {
                entries.append(try entry(String(index), element, at: pointer.appending(index), depth: depth))
            }
            return .entries(entries)
        case .object(let members):
            var entries: [ConditionEntry] = []
            entries.reserveCapacity(members.count)
            for (key, value) in members {
                entries.append(try entry(key, value, at: pointer.appending(key), depth: depth))
            }
            return .entries(entries)
        }
    }

    private mutating func entry(_ key: String, _ value: JSON, at pointer: JSONPointer, depth: Int)
        throws(FeatureCompileError) -> ConditionEntry
    {
        switch key {
        case "$or": return .or(try list(value, at: pointer, depth: depth + 1))
        case "$nor": return .nor(try list(value, at: pointer, depth: depth + 1))
        case "$and": return .and(try list(value, at: pointer, depth: depth + 1))
        case "$not": return .not(try condition(value, at: pointer, depth: depth + 1))
        default: return .path(path(key), try self.value(value, at: pointer, depth: depth + 1))
        }
    }

    /// The operand of `$or`/`$and`/`$nor`, iterated up to its `length`.
    private mutating func list(_ json: JSON, at pointer: JSONPointer, depth: Int) throws(FeatureCompileError)
        -> ConditionList
    {
        switch json {
        case .null:
            return .throwing
        case .array(let elements):
            var members: [ConditionNode] = []
            members.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                members.append(try condition(element, at: pointer.appending(index), depth: depth))
            }
            return .members(members)
        case .string(let text):
            return .characters(Array(text.utf16))
        case .bool, .integer, .real, .object:
            // No `length`: nothing to iterate.
            return .members([])
        }
    }

    /// A condition value, as `evalConditionValue(condition, value)` reads it.
    mutating func value(_ json: JSON, at pointer: JSONPointer, depth: Int, insensitive: Bool = false)
        throws(FeatureCompileError) -> ValueTest
    {
        guard depth <= limits.maxConditionDepth else {
            throw FeatureCompileError(pointer, "conditions nest deeper than \(limits.maxConditionDepth) levels")
        }
        switch json {
        case .string(let text): return .string(insensitive ? text.lowercased() : text, insensitive: insensitive)
        case .integer, .real: return .number(JSValues.number(json)!)
        case .bool(let flag): return .boolean(flag)
        case .null: return .null
        case .array: return .sameJSON(json)
        case .object(let members):
            guard Self.isOperatorObject(members) else { return .sameJSON(json) }
            var tests: [OperatorTest] = []
            tests.reserveCapacity(members.count)
            for (name, argument) in members {
                tests.append(try operatorTest(name, argument, at: pointer.appending(name), depth: depth))
            }
            return .operators(tests)
        }
    }

    /// A non-empty object whose keys all start with `$`.
    static func isOperatorObject(_ members: JSONObject) -> Bool {
        !members.isEmpty && members.allSatisfy { $0.key.utf16.first == UInt16(ascii: "$") }
    }

    private mutating func operatorTest(
        _ name: String, _ argument: JSON, at pointer: JSONPointer, depth: Int
    ) throws(FeatureCompileError) -> OperatorTest {
        switch name {
        case "$eq": return .strictEqual(argument, negated: false)
        case "$ne": return .strictEqual(argument, negated: true)
        case "$lt": return .relational(argument, .less)
        case "$lte": return .relational(argument, .lessOrEqual)
        case "$gt": return .relational(argument, .greater)
        case "$gte": return .relational(argument, .greaterOrEqual)
        case "$veq": return .version(VersionString.padded(argument), .equal)
        case "$vne": return .version(VersionString.padded(argument), .notEqual)
        case "$vlt": return .version(VersionString.padded(argument), .less)
        case "$vlte": return .version(VersionString.padded(argument), .lessOrEqual)
        case "$vgt": return .version(VersionString.padded(argument), .greater)
        case "$vgte": return .version(VersionString.padded(argument), .greaterOrEqual)
        case "$exists": return .exists(JSValues.isTruthy(argument))
        case "$in", "$nin", "$ini", "$nini":
            guard case .array(let values) = argument else { return .never }
            let insensitive = name == "$ini" || name == "$nini"
            return .membership(
                MemberSet(values, caseInsensitive: insensitive), negated: name == "$nin" || name == "$nini")
        case "$inGroup", "$notInGroup":
            // `savedGroups[expected] || []`: the id is the argument as a property key.
            let id = JSValues.string(argument)
            let set: MemberSet
            if let cached = groupSets[ExactKey(id)] {
                set = cached
            } else {
                set = MemberSet(savedGroups.values(of: id), caseInsensitive: false)
                groupSets[ExactKey(id)] = set
            }
            return .membership(set, negated: name == "$notInGroup")
        case "$not":
            return .not(try value(argument, at: pointer, depth: depth + 1))
        case "$size":
            return .size(try value(argument, at: pointer, depth: depth + 1))
        case "$elemMatch":
            if case .object(let members) = argument, Self.isOperatorObject(members) {
                return .elementMatchesValue(try value(argument, at: pointer, depth: depth + 1))
            }
            return .elementMatchesCondition(try condition(argument, at: pointer, depth: depth + 1))
        case "$all", "$alli":
            guard case .array(let values) = argument else { return .never }
            var tests: [ValueTest] = []
            tests.reserveCapacity(values.count)
            for (index, element) in values.enumerated() {
                tests.append(
                    try value(element, at: pointer.appending(index), depth: depth + 1, insensitive: name == "$alli"))
            }
            return .all(tests)
        case "$regex", "$regexi":
            // `getRegex(expected)` calls a string method: anything else throws, and the SDK answers false.
            guard case .string(let pattern) = argument else { return .never }
            let regex: JavaScriptRegex
            do {
                regex = try JavaScriptRegex(
                    pattern: pattern, ignoreCase: name == "$regexi", maxLength: limits.maxPatternLength)
            } catch .invalid {
                return .never
            } catch {
                throw FeatureCompileError(pointer, error.description)
            }
            patternInstructions += regex.instructionCount
            guard patternInstructions <= limits.maxPatternInstructions else {
                throw FeatureCompileError(
                    pointer,
                    "the payload's regular expressions compile to more "
                        + "than \(limits.maxPatternInstructions) instructions")
            }
            return .regex(regex)
        case "$type":
            guard case .string(let type) = argument else { return .never }
            return .type(type)
        default:
            return .never
        }
    }
}
