/// Conditions of `if`, `unless` and `elsif`.
extension Renderer {
    mutating func holds(_ condition: Condition) throws(TemplateFailure) -> Bool {
        switch condition {
        case .test(let expression):
            return try evaluate(expression).isTruthy
        case .compare(let left, let comparison, let right, let offset):
            let lhs = try evaluate(left)
            let rhs = try evaluate(right)
            switch comparison {
            case .equal: return Value.equal(lhs, rhs)
            case .notEqual: return !Value.equal(lhs, rhs)
            case .contains: return Value.contains(lhs, rhs)
            case .less, .greater, .lessOrEqual, .greaterOrEqual:
                return try Value.ordered(lhs, comparison, rhs, at: offset)
            }
        case .and(let left, let right):
            guard try holds(left) else { return false }
            return try holds(right)
        case .or(let left, let right):
            if try holds(left) { return true }
            return try holds(right)
        }
    }
}
