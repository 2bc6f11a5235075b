import BuntingJSON

/// A mistake in a payload, where it is: the JSON pointer of the value at
/// fault and what is wrong with it. The loader adds the line and column.
public struct PayloadProblem: Sendable, Hashable, CustomStringConvertible {
    public let pointer: JSONPointer
    public let message: String

    public init(pointer: JSONPointer, message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        "\(pointer.isRoot ? "(the payload)" : pointer.description): \(message)"
    }
}

/// What stops one feature (or condition) from compiling: a problem, thrown.
struct FeatureCompileError: Error, Sendable {
    let problem: PayloadProblem

    init(_ pointer: JSONPointer, _ message: String) {
        problem = PayloadProblem(pointer: pointer, message: message)
    }
}
