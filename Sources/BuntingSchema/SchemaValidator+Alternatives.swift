import BuntingJSON

/// What to say when no branch of an `anyOf` or `oneOf` matches.
///
/// Every branch failed, so every branch has complaints, and most are noise:
/// a flag that is not an object flag need not hear that its variants are not
/// objects. So only one branch speaks:
///
/// 1. When every branch merely wanted another type here, one message lists
///    the types: "expected string or object, got integer"; when every branch
///    wanted one more member, one message lists those: `missing required
///    property "title" or "description"`.
/// 2. Otherwise branches that rejected the value outright (a `type` mismatch
///    at this value, or a `const`/`enum` mismatch at this value or one of its
///    members: a discriminator such as `"type": "imageOnly"`) step aside for
///    the others, and so, less firmly, do branches that do not know one of
///    its members (`additionalProperties: false`), as each JSONLogic operator
///    does with the others' names.
/// 3. Among those, the branch whose first complaint lies deepest in the value
///    got furthest before it went wrong; ties go to the branch with fewer
///    complaints, then to the one written first.
extension SchemaValidator {
    mutating func reportAlternatives(_ branches: [Int], at keyword: SchemaKeyword, _ instance: JSON) {
        guard collecting else { return }
        let depth = path.count
        let outcomes = branches.map { branch in findingsApart { _ = $0.validate(branch, instance) } }

        if let expected = Self.typesWanted(by: outcomes, atDepth: depth) {
            report("expected \(expected.listed), got \(instance.typeName)", at: keyword, kind: .type(expected))
            return
        }
        if let names = Self.propertiesWanted(by: outcomes, atDepth: depth) {
            let listed = names.map(Self.quoted)
            report(
                "missing required property " + listed.dropLast().joined(separator: ", ") + " or "
                    + listed[listed.count - 1],
                at: keyword, kind: .missingProperty(names[0]))
            return
        }
        guard let best = Self.mostRelevant(outcomes, atDepth: depth), !outcomes[best].isEmpty else {
            report("the value matches none of the schemas of \"\(keyword.name)\"", at: keyword)
            return
        }
        adopt(outcomes[best])
    }

    /// The union of the types the branches wanted, when each branch failed on the type alone.
    private static func typesWanted(by outcomes: [[SchemaFinding]], atDepth depth: Int) -> SchemaTypes? {
        var union: SchemaTypes = []
        for findings in outcomes {
            guard !findings.isEmpty else { return nil }
            for finding in findings {
                guard case .type(let types) = finding.kind, finding.path.count == depth else { return nil }
                union.formUnion(types)
            }
        }
        return union
    }

    /// The member each branch missed, when each missed exactly one here.
    private static func propertiesWanted(by outcomes: [[SchemaFinding]], atDepth depth: Int) -> [String]? {
        var names: [String] = []
        for findings in outcomes {
            guard findings.count == 1, case .missingProperty(let name) = findings[0].kind,
                findings[0].path.count == depth
            else { return nil }
            if !names.contains(name) { names.append(name) }
        }
        return names.count > 1 ? names : nil
    }

    private static func mostRelevant(_ outcomes: [[SchemaFinding]], atDepth depth: Int) -> Int? {
        /// 2 for an outright rejection, 1 for an unknown member, 0 otherwise.
        func rejection(_ finding: SchemaFinding) -> Int {
            switch finding.kind {
            case .type: return finding.path.count == depth ? 2 : 0
            case .value: return finding.path.count <= depth + 1 ? 2 : 0
            case .unknownProperty: return finding.path.count == depth + 1 ? 1 : 0
            case .missingProperty, .other: return 0
            }
        }
        func rank(_ position: Int) -> (Int, Int, Int, Int) {
            let findings = outcomes[position]
            let reach = findings.map(\.path.count).min() ?? 0
            return (findings.map(rejection).max() ?? 0, -reach, findings.count, position)
        }
        return outcomes.indices.min { rank($0) < rank($1) }
    }
}
