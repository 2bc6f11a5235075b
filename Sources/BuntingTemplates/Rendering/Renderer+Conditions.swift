/// Conditions of `if`, `unless` and `elsif`.
extension Renderer {
    /// Tests from the left, as Shopify's Liquid does: an `and` after a false
    /// test, or an `or` after a true one, ends the condition with that
    /// answer (which is what grouping from the right gives), so the tests
    /// after it are not evaluated, nor their errors raised.
    mutating func holds(_ condition: Condition) throws(TemplateOffsetError) -> Bool {
        var result = try holds(condition.first)
        for (join, test) in condition.rest {
            switch join {
            case .and: if !result { return false }
            case .or: if result { return true }
            }
            result = try holds(test)
        }
        return result
    }

    /// Each test costs a step, so that a condition of thousands of tests
    /// in a loop is charged for its work.
    private mutating func holds(_ test: ConditionTest) throws(TemplateOffsetError) -> Bool {
        switch test {
        case .truthy(let expression):
            try spend(1, at: 0)
            return try evaluate(expression).isTruthy
        case .compare(let left, let comparison, let right, let offset):
            try spend(1, at: offset)
            let lhs = try evaluate(left)
            let rhs = try evaluate(right)
            switch comparison {
            case .equal: return Value.equal(lhs, rhs)
            case .notEqual: return !Value.equal(lhs, rhs)
            case .contains: return Value.contains(lhs, rhs)
            case .less, .greater, .lessOrEqual, .greaterOrEqual:
                return try Value.ordered(lhs, comparison, rhs, at: offset)
            }
        }
    }
}
