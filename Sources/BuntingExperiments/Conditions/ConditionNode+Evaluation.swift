import BuntingJSON
import BuntingRules

/// Why a condition has no answer: JavaScript would have thrown (its SDK
/// then fails the evaluation; here the whole condition fails), or the
/// evaluation ran out of steps.
enum ConditionEvaluationError: Error {
    case thrown
    case outOfSteps
}

extension ConditionNode {
    /// `evalCondition(object, condition)`.
    func passes(_ object: JSON, _ budget: inout EvaluationBudget) throws(ConditionEvaluationError) -> Bool {
        guard budget.take() else { throw .outOfSteps }
        switch self {
        case .throwing:
            throw .thrown
        case .characters(let units):
            guard budget.take(units.count) else { throw .outOfSteps }
            for (index, unit) in units.enumerated() where !Self.member(index, of: object, is: unit) { return false }
            return true
        case .entries(let entries):
            // By index: a `for` loop would copy each entry out (retaining what it holds).
            for index in entries.indices where !(try entries[index].passes(object, &budget)) { return false }
            return true
        }
    }
}

extension ConditionNode {
    /// Whether `String(getPath(object, "<index>"))` is the one code unit `unit`.
    static func member(_ index: Int, of object: JSON, is unit: UInt16) -> Bool {
        let value: JSON
        switch object {
        case .object(let members): value = members[String(index)] ?? .null
        case .array(let elements): value = index < elements.count ? elements[index] : .null
        default: value = .null
        }
        let text = value.stringValue ?? JSValues.string(value)
        var units = text.utf16.makeIterator()
        return units.next() == unit && units.next() == nil
    }
}

extension ConditionEntry {
    func passes(_ object: JSON, _ budget: inout EvaluationBudget) throws(ConditionEvaluationError) -> Bool {
        switch self {
        case .or(let list): return try list.anyPasses(object, &budget)
        case .nor(let list): return !(try list.anyPasses(object, &budget))
        case .and(let list):
            switch list {
            case .throwing:
                throw .thrown
            case .characters(let units):
                guard budget.take(units.count) else { throw .outOfSteps }
                for unit in units where !ConditionNode.member(0, of: object, is: unit) { return false }
                return true
            case .members(let members):
                for member in members where !(try member.passes(object, &budget)) { return false }
                return true
            }
        case .not(let condition): return !(try condition.passes(object, &budget))
        case .path(let path, let test):
            return try test.passes(
                budget.value(at: path, in: object), &budget, path: budget.testsAttributes ? path.id : -1)
        }
    }
}

extension ConditionList {
    /// `evalOr`: true for an empty list.
    func anyPasses(_ object: JSON, _ budget: inout EvaluationBudget) throws(ConditionEvaluationError) -> Bool {
        switch self {
        case .throwing:
            throw .thrown
        case .characters(let units):
            if units.isEmpty { return true }
            for unit in units {
                guard budget.take() else { throw .outOfSteps }
                if ConditionNode.member(0, of: object, is: unit) { return true }
            }
            return false
        case .members(let members):
            if members.isEmpty { return true }
            for member in members where try member.passes(object, &budget) { return true }
            return false
        }
    }
}

extension ValueTest {
    /// `evalConditionValue(condition, value)`; `path`, when not -1, is the
    /// attribute path the value was read at (version operators keep its
    /// padded form for the user).
    func passes(_ value: JSON, _ budget: inout EvaluationBudget, path: Int = -1) throws(ConditionEvaluationError)
        -> Bool
    {
        guard budget.take() else { throw .outOfSteps }
        switch self {
        case .string(let expected, let insensitive):
            if case .string(let actual) = value {
                return JSValues.sameString(insensitive ? actual.lowercased() : actual, expected)
            }
            let text = JSValues.string(value)
            return JSValues.sameString(insensitive ? text.lowercased() : text, expected)
        case .number(let expected):
            return JSValues.toNumber(value) == expected
        case .boolean(let expected):
            return !value.isNull && JSValues.isTruthy(value) == expected
        case .null:
            return value.isNull
        case .sameJSON(let expected):
            return JSValues.sameJSONText(value, expected)
        case .operators(let tests):
            for index in tests.indices where !(try tests[index].passes(value, &budget, path: path)) { return false }
            return true
        }
    }
}

extension OperatorTest {
    /// `evalOperatorCondition(operator, actual, expected)`.
    func passes(_ actual: JSON, _ budget: inout EvaluationBudget, path: Int = -1) throws(ConditionEvaluationError)
        -> Bool
    {
        switch self {
        case .strictEqual(let expected, let negated):
            return JavaScript.strictEquals(actual, expected) != negated
        case .relational(let expected, let relation):
            return JavaScript.compare(actual, expected, relation)
        case .version(let expected, let relation):
            let order = VersionString.compare(budget.paddedVersion(of: actual, at: path), expected)
            switch relation {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            }
        case .exists(let expected):
            return actual.isNull != expected
        case .membership(let set, let negated):
            if case .array(let elements) = actual, !budget.take(elements.count) { throw .outOfSteps }
            return set.matches(actual) != negated
        case .not(let test):
            return !(try test.passes(actual, &budget))
        case .size(let test):
            guard case .array(let elements) = actual else { return false }
            return try test.passes(.int(elements.count), &budget)
        case .elementMatchesValue(let test):
            guard case .array(let elements) = actual else { return false }
            for element in elements where JSValues.isTruthy(element) {
                if try test.passes(element, &budget) { return true }
            }
            return false
        case .elementMatchesCondition(let condition):
            guard case .array(let elements) = actual else { return false }
            // The elements are not the attributes: their paths are not kept.
            let testsAttributes = budget.testsAttributes
            budget.testsAttributes = false
            defer { budget.testsAttributes = testsAttributes }
            for element in elements where JSValues.isTruthy(element) {
                if try condition.passes(element, &budget) { return true }
            }
            return false
        case .all(let tests):
            guard case .array(let elements) = actual else { return false }
            for test in tests {
                var found = false
                for element in elements where try test.passes(element, &budget) {
                    found = true
                    break
                }
                if !found { return false }
            }
            return true
        case .regex(let regex):
            // `test` reads its argument as a string: a missing attribute is "null".
            let text: String
            if case .string(let string) = actual { text = string } else { text = JSValues.string(actual) }
            guard let found = regex.test(text, steps: &budget.steps) else {
                budget.markExhausted()
                throw .outOfSteps
            }
            return found
        case .type(let expected):
            return Self.typeName(actual) == expected
        case .never:
            return false
        }
    }

    /// The SDK's `getType`: JavaScript's `typeof`, with "null" and "array".
    static func typeName(_ value: JSON) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .real: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
