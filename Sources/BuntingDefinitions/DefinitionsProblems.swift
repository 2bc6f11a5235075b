import BuntingCore

/// Every problem a document has; what loading it fails with.
public struct DefinitionsProblems: Error, Equatable, Sendable {
    public var problems: [DefinitionsProblem]

    public init(_ problems: [DefinitionsProblem]) {
        self.problems = problems
    }
}
