import BuntingJSON

/// The operands of an operation that takes a list (`and`, `or`, `if`, `cat`,
/// …), evaluated by position.
///
/// The first four are also kept in stored properties: a call through a
/// stored property costs no reference counting, while one through an array
/// element retains and releases the element around the call, which on a
/// hot path costs more than the call itself. Operands past the fourth are
/// reached through the array.
struct Operands: Sendable {
    let nodes: [Node]
    private let first: Node?
    private let second: Node?
    private let third: Node?
    private let fourth: Node?

    init(_ nodes: [Node]) {
        self.nodes = nodes
        first = nodes.count > 0 ? nodes[0] : nil
        second = nodes.count > 1 ? nodes[1] : nil
        third = nodes.count > 2 ? nodes[2] : nil
        fourth = nodes.count > 3 ? nodes[3] : nil
    }

    var count: Int { nodes.count }
    var isEmpty: Bool { nodes.isEmpty }

    /// The value of the operand at `index` (which must be in range).
    @inline(__always)
    func evaluate(_ index: Int, _ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
        switch index {
        case 0: return try first!.evaluate(&interpreter)
        case 1: return try second!.evaluate(&interpreter)
        case 2: return try third!.evaluate(&interpreter)
        case 3: return try fourth!.evaluate(&interpreter)
        default: return try nodes[index].evaluate(&interpreter)
        }
    }

    /// The truthiness of the operand at `index` (which must be in range).
    @inline(__always)
    func isTruthy(_ index: Int, _ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
        switch index {
        case 0: return try first!.isTruthy(&interpreter)
        case 1: return try second!.isTruthy(&interpreter)
        case 2: return try third!.isTruthy(&interpreter)
        case 3: return try fourth!.isTruthy(&interpreter)
        default: return try nodes[index].isTruthy(&interpreter)
        }
    }
}
