/// The operators the compiler knows, by where they come from. The definitions
/// schema lists JSONLogic's and flagd's (it follows flagd's schema), so that a
/// flag using a proposal is a problem at load; `evaluate` takes all of them.
/// `OperatorNamesTests` holds this list to the compiler and to the schema.
enum OperatorNames {
    static let jsonLogic: Set<String> = [
        "var", "missing", "missing_some", "if", "?:", "and", "or", "!", "!!",
        "==", "===", "!=", "!==", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "min", "max",
        "map", "filter", "reduce", "all", "some", "none", "merge", "in", "cat", "substr", "log",
    ]
    static let flagd: Set<String> = ["fractional", "sem_ver", "starts_with", "ends_with"]
    /// The newer JSONLogic proposals.
    static let proposals: Set<String> = ["val", "exists", "??", "try", "throw", "preserve"]

    static var all: Set<String> { jsonLogic.union(flagd).union(proposals) }
}
