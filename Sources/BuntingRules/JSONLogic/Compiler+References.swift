import BuntingJSON

/// `$ref`: shared evaluators, inlined.
extension Compiler {
    mutating func inlineReference(_ value: JSON) throws(RuleCompileError) -> Node {
        guard case .string(let name) = value else {
            throw error("\"$ref\" takes the name of a shared evaluator (a string); got \(value.typeName)")
        }
        switch references.resolve(name) {
        case .unknown:
            throw error("unknown evaluator \"\(name)\"")
        case .invalid(let cause):
            // The cause, not the message of the evaluator in between: a chain
            // of refusals quoting each other grew quadratically.
            refusedReference = cause
            throw error("evaluator \"\(name)\" is invalid: \(cause)")
        case .compiled(let node, let evaluatorDepth, let evaluatorOperations):
            // The inlined tree replaces one level (the {"$ref": …} object).
            guard depth - 1 + evaluatorDepth <= maxDepth else {
                throw error("rule nested deeper than \(maxDepth) levels once evaluator \"\(name)\" is inlined")
            }
            deepest = max(deepest, depth - 1 + evaluatorDepth)
            try count(operations: evaluatorOperations, inlining: name)
            return node
        }
    }
}
