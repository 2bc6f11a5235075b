/// One piece of a compiled template. Offsets are UTF-8 byte offsets of the
/// tag or output in the template's text, for errors.
indirect enum Node: Sendable {
    case text(String)
    /// `{{ … }}` and `{% echo … %}`.
    case output(FilteredExpression, offset: Int)
    /// `if`/`elsif`/`else` and `unless`: the first branch that holds renders.
    case branches([Branch])
    case caseBlock(CaseBlock)
    case forLoop(ForLoop)
    case assign(name: String, value: FilteredExpression, offset: Int)
    case capture(name: String, body: [Node], offset: Int)
    case cycle(Cycle)
    /// `increment` (+1) and `decrement` (-1).
    case counter(name: String, step: Int64, offset: Int)
    case interrupt(LoopInterrupt, offset: Int)
    /// Braze's `abort_message`: stops the render; the item is not shown.
    case abort(message: Expression?, offset: Int)
    /// The body of a `liquid` tag.
    case sequence([Node])
}

struct Branch: Sendable {
    /// nil for `else`.
    var condition: Condition?
    /// `unless`'s own branch holds when its condition does not.
    var negated: Bool
    var body: [Node]
}

struct CaseBlock: Sendable {
    var subject: Expression
    var arms: [CaseArm]
}

enum CaseArm: Sendable {
    /// Renders its body once for each value equal to the subject.
    case when([Expression], body: [Node])
    /// Renders when no `when` before it matched.
    case otherwise([Node])
}

struct ForLoop: Sendable {
    var variable: String
    var collection: Expression
    /// `variable-collection as written`: the loop's `forloop.name`, and the
    /// key under which `offset: continue` finds where it stopped.
    var name: String
    var limit: Expression?
    var offset: LoopOffset?
    var reversed: Bool
    var body: [Node]
    var otherwise: [Node]?
    var nodeOffset: Int
}

enum LoopOffset: Sendable {
    case value(Expression)
    /// `offset: continue`: where the last loop of the same name stopped.
    case continuing
}

enum LoopInterrupt: Sendable {
    case breakLoop, continueLoop
}

struct Cycle: Sendable {
    var group: CycleGroup
    var values: [Expression]
    var offset: Int
}

enum CycleGroup: Sendable {
    /// `cycle name: …`: the group is the value of `name`.
    case named(Expression)
    /// Without a name the values as written are the group.
    case unnamed(String)
}

extension Node {
    /// Where the node is in its template's text, for errors (text: 0).
    var offset: Int {
        switch self {
        case .text, .sequence: return 0
        case .output(_, let offset), .assign(_, _, let offset), .capture(_, _, let offset), .counter(_, _, let offset),
            .interrupt(_, let offset), .abort(_, let offset):
            return offset
        case .branches(let branches): return branches.first?.body.first?.offset ?? 0
        case .caseBlock: return 0
        case .forLoop(let loop): return loop.nodeOffset
        case .cycle(let cycle): return cycle.offset
        }
    }
}
