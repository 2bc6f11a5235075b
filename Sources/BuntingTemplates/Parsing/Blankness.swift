/// Shopify's rule for blocks that would print only whitespace: a block whose
/// bodies hold nothing but whitespace and tags that print nothing (`assign`,
/// `capture`, comments, and blocks of the same kind) drops that whitespace,
/// so that `{% if x %}\n  {% assign y = 1 %}\n{% endif %}` prints nothing.
/// Whether a block is blank is decided once, at parse, from all its
/// branches, taken or not.
enum Blankness {
    static func isBlank(_ node: Node) -> Bool {
        switch node {
        case .text(let text): return text.utf8.allSatisfy(MarkupScanner.isWhitespace)
        case .assign, .capture: return true
        case .branches(let branches): return branches.allSatisfy { isBlank($0.body) }
        case .caseBlock(let block): return block.arms.allSatisfy { isBlank($0.body) }
        case .forLoop(let loop): return isBlank(loop.body) && isBlank(loop.otherwise ?? [])
        case .sequence(let nodes): return isBlank(nodes)
        case .output, .cycle, .counter, .interrupt, .abort: return false
        }
    }

    static func isBlank(_ nodes: [Node]) -> Bool {
        nodes.allSatisfy(isBlank)
    }

    /// Removes the whitespace-only text of `nodes`, when they are blank.
    static func stripIfBlank(_ nodes: inout [Node]) {
        guard isBlank(nodes) else { return }
        strip(&nodes)
    }

    static func stripIfBlank(_ branches: inout [Branch]) {
        guard branches.allSatisfy({ isBlank($0.body) }) else { return }
        for index in branches.indices { strip(&branches[index].body) }
    }

    static func stripIfBlank(_ arms: inout [CaseArm]) {
        guard arms.allSatisfy({ isBlank($0.body) }) else { return }
        arms = arms.map { arm in
            var body = arm.body
            strip(&body)
            switch arm {
            case .when(let values, _): return .when(values, body: body)
            case .otherwise: return .otherwise(body)
            }
        }
    }

    static func stripIfBlank(_ loop: inout ForLoop) {
        guard isBlank(loop.body), isBlank(loop.otherwise ?? []) else { return }
        strip(&loop.body)
        if loop.otherwise != nil { strip(&loop.otherwise!) }
    }

    private static func strip(_ nodes: inout [Node]) {
        nodes.removeAll { node in
            if case .text = node { return true }
            return false
        }
    }
}

extension CaseArm {
    var body: [Node] {
        switch self {
        case .when(_, let body): return body
        case .otherwise(let body): return body
        }
    }
}
