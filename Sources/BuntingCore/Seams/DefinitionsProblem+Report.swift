extension DefinitionsProblem {
    /// The problems listed in the report, at most: `bunting validate` lists every one.
    public static let reported = 20

    /// How a document that loaded with problems is reported, in the same
    /// words by `bunting serve` (its log) and `bunting eval` (stderr), so
    /// that what a script sees in one it finds in the other.
    public static func loadedWithProblems(_ problems: [DefinitionsProblem], location: String) -> String {
        let count = problems.count
        return "definitions at \(location) loaded with \(count) problem\(count == 1 ? "" : "s") (the rest serves): "
            + problems.prefix(reported).map(\.description).joined(separator: "; ")
    }
}
