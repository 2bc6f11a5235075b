import BuntingJSON

/// A compiled JSONLogic rule, or a part of one: operators resolved to
/// subclasses, literal arguments folded, paths split. Built once by
/// `Compiler`; `evaluate` walks it with the `Interpreter` of one evaluation.
///
/// A class tree rather than an enum: each operation keeps its operands in
/// `let` properties that evaluation reads in place, while switching over an
/// indirect enum retained and released every payload on every visit (about
/// a third of the time of a simple rule). Subclasses are final and hold only
/// immutable, Sendable values, hence the unchecked conformance (which Swift
/// asks each subclass to restate).
///
/// Every operation charges one work unit (`Interpreter.step`) before its
/// work, and more for work that grows with its operands
/// (`Limits/Interpreter+Work.swift`); literals charge none. Subclasses sit beside the operators they implement
/// (`Nodes/Node+Logic.swift`, …; flagd's operators in `Flagd/`).
class Node: @unchecked Sendable {
    /// The node's value.
    func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
        preconditionFailure("Node is abstract")
    }

    /// JSONLogic truthiness of the value. Operations whose value is a
    /// Boolean answer it directly, so that conditions build no `JSON`.
    func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
        try evaluate(&interpreter).isTruthy
    }

    /// The value, when the node is a literal (the compiler folds on it).
    var literalValue: JSON? { nil }

    /// A literal: a value written in the rule, or an array of literals.
    final class Literal: Node, @unchecked Sendable {
        let value: JSON
        private let truthy: Bool

        init(_ value: JSON) {
            self.value = value
            truthy = value.isTruthy
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON { value }
        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool { truthy }
        override var literalValue: JSON? { value }
    }

    /// An array literal with at least one operation inside: its elements' values.
    final class ArrayOf: Node, @unchecked Sendable {
        let elements: [Node]

        init(_ elements: [Node]) { self.elements = elements }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            // A new array each time: its elements are charged as built.
            try interpreter.step()
            try interpreter.charge(elementsBuilt: elements.count)
            return .array(try interpreter.evaluateAll(elements))
        }
    }
}
