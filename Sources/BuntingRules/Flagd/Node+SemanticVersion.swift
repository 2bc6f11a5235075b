import BuntingJSON

/// flagd's `sem_ver`.
extension Node {
    /// `sem_ver`: true or false, or null when either side is not a version
    /// or the comparison is unknown.
    final class SemanticVersionComparison: NullableTest, @unchecked Sendable {
        let lhs: VersionOperand
        /// The comparison when it is literal; else `operationNode` computes it.
        let operation: SemanticVersionOperation?
        let operationNode: Node?
        let rhs: VersionOperand

        init(lhs: VersionOperand, operation: SemanticVersionOperation?, operationNode: Node?, rhs: VersionOperand) {
            self.lhs = lhs
            self.operation = operation
            self.operationNode = operationNode
            self.rhs = rhs
        }

        override func test(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool? {
            let left = try version(lhs, &interpreter)
            var comparison = operation
            if let operationNode {
                guard case .string(let text) = try operationNode.evaluate(&interpreter) else { return nil }
                comparison = SemanticVersionOperation(rawValue: text)
            }
            let right = try version(rhs, &interpreter)
            guard let comparison, let left, let right else { return nil }
            return SemanticVersion.holds(comparison, left, right)
        }

        private func version(
            _ operand: VersionOperand, _ interpreter: inout Interpreter
        ) throws(RuleEvaluationError) -> SemanticVersion? {
            switch operand {
            case .literal(let version): return version
            case .computed(let operand):
                // Parsing reads the version's bytes, each checked: charged.
                let (version, bytes) = try operand.inspect(&interpreter) { value -> (SemanticVersion?, Int) in
                    guard case .string(let text) = value else { return (SemanticVersion(value), 0) }
                    return (SemanticVersion(text), text.utf8.count)
                }
                try interpreter.charge(bytes: bytes, perUnit: Interpreter.versionBytesPerUnit)
                return version
            }
        }
    }
}

/// A side of `sem_ver`: a literal is parsed once, at compile time (nil when
/// it is not a version, which makes every comparison null).
enum VersionOperand: Sendable {
    case literal(SemanticVersion?)
    case computed(InspectedOperand)
}

/// The comparison named by sem_ver's middle argument.
enum SemanticVersionOperation: String, Sendable, CaseIterable {
    case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case sameMajor = "^", sameMinor = "~"
}

extension Interpreter {
    /// Bytes of a version read per work unit: parsing checks each byte.
    static let versionBytesPerUnit = 4
}
