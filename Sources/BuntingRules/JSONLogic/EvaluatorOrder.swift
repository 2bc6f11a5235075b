import BuntingJSON

/// The order in which shared evaluators (`$evaluators`) are compiled: each
/// after every evaluator its `$ref`s name, so that compiling one never
/// compiles another from inside it. Compiling on first use instead nested
/// one compilation in the next for every link of a `$ref` chain, and a
/// 134 KB document of 5,000 chained evaluators overflowed the stack.
///
/// Found without recursion, with a stack of its own: the `$ref`s an
/// evaluator names, then a depth-first walk over the names. Evaluators on a
/// cycle, and those further than `maxChain` links from the end of their
/// chain, are refused here, before anything compiles.
struct EvaluatorOrder {
    /// Names to compile, each after those it refers to.
    private(set) var names: [String] = []
    /// Evaluators refused before compiling: the pointer tokens (under the
    /// evaluator) of the `$ref` that is wrong, and why.
    private(set) var refusals: [(name: String, at: [String], message: String)] = []

    /// An evaluator's `$ref`s may go at most this many links deep (`a` → `b`
    /// → … ); an alias of an alias is common, a chain of 64 is not.
    static let maxChain = 64
    /// A cycle is named by at most this many of its evaluators.
    static let namesShownOfCycle = 6

    init(_ definitions: JSONObject, maxChain: Int = EvaluatorOrder.maxChain) {
        // Names are keyed by their bytes, as the document's keys are.
        var references: [ExactString: [Reference]] = [:]
        for (name, rule) in definitions {
            references[ExactString(name)] = Self.references(in: rule, known: definitions)
        }

        enum Mark { case visiting, done }
        var marks: [ExactString: Mark] = [:]
        // Links from each finished evaluator to the end of its longest chain.
        var chain: [ExactString: Int] = [:]
        var refused = Set<ExactString>()
        func refuse(_ name: String, at tokens: [String], _ message: String) {
            guard refused.insert(ExactString(name)).inserted else { return }
            refusals.append((name, tokens, message))
        }
        for root in definitions.keys where marks[ExactString(root)] == nil {
            // (name, index of the next reference to follow)
            var stack: [(name: String, next: Int)] = [(root, 0)]
            marks[ExactString(root)] = .visiting
            while let top = stack.last {
                let targets = references[ExactString(top.name)] ?? []
                if top.next < targets.count {
                    stack[stack.count - 1].next += 1
                    let target = targets[top.next].name
                    switch marks[ExactString(target)] {
                    case nil:
                        marks[ExactString(target)] = .visiting
                        stack.append((target, 0))
                    case .visiting?:
                        let start = stack.lastIndex { $0.name.sameBytes(as: target) } ?? 0
                        let cycle = stack[start...].map { (name: $0.name, via: $0.next - 1) }
                        // Each member's refusal points at its `$ref` to the next, and
                        // names the cycle from itself (at most a few names of it).
                        for (offset, member) in cycle.enumerated() {
                            let next = cycle[(offset + 1) % cycle.count].name
                            let names = (0..<min(cycle.count, Self.namesShownOfCycle)).map {
                                cycle[(offset + $0) % cycle.count].name
                            }
                            let text =
                                (names + [
                                    cycle.count > names.count ? "… (\(cycle.count) evaluators)" : member.name
                                ])
                                .joined(separator: " → ")
                            let tokens = references[ExactString(member.name)]?[member.via].tokens ?? []
                            refuse(member.name, at: tokens, "evaluator \"\(next)\" refers to itself (\(text))")
                        }
                    case .done?:
                        break
                    }
                    continue
                }
                stack.removeLast()
                marks[ExactString(top.name)] = .done
                // Refused evaluators end a chain: a `$ref` to one is refused as such.
                let length = targets.reduce(0) { longest, target in
                    guard !refused.contains(ExactString(target.name)) else { return longest }
                    return max(longest, (chain[ExactString(target.name)] ?? 0) + 1)
                }
                chain[ExactString(top.name)] = length
                if length > maxChain {
                    refuse(
                        top.name, at: [],
                        "evaluator \"\(top.name)\" refers through more than \(maxChain) $refs in a row")
                }
                if !refused.contains(ExactString(top.name)) { names.append(top.name) }
            }
        }
    }

    /// A `$ref` of an evaluator: the evaluator it names, and the pointer
    /// tokens of the `$ref` member in the referring rule.
    struct Reference {
        let name: String
        let tokens: [String]
    }

    /// The evaluators of `known` that `rule` names in `$ref`s, each once, in
    /// the order written. The data of `preserve` is not looked into.
    static func references(in rule: JSON, known: JSONObject) -> [Reference] {
        var found: [Reference] = []
        var seen = Set<ExactString>()
        // Each value waiting, with its place in `trail`: the token that leads
        // to it and its parent's place (-1 at the root), so that a pointer
        // is spelt out only for a `$ref`, never copied for every value.
        var trail: [(parent: Int, token: String)] = []
        var pending: [(value: JSON, place: Int)] = [(rule, -1)]
        func push(_ value: JSON, _ token: String, under parent: Int) {
            trail.append((parent, token))
            pending.append((value, trail.count - 1))
        }
        func tokens(to place: Int) -> [String] {
            var tokens: [String] = []
            var current = place
            while current >= 0 {
                tokens.append(trail[current].token)
                current = trail[current].parent
            }
            return tokens.reversed()
        }
        while let (value, place) = pending.popLast() {
            switch value {
            case .array(let elements):
                for (index, element) in elements.enumerated().reversed() { push(element, String(index), under: place) }
            case .object(let object):
                guard object.count == 1, let (key, argument) = object.first(where: { _ in true }) else {
                    for (key, member) in object.reversed() { push(member, key, under: place) }
                    continue
                }
                if key == "preserve" { continue }
                if key == "$ref" {
                    if case .string(let name) = argument, known[name] != nil, seen.insert(ExactString(name)).inserted {
                        found.append(Reference(name: name, tokens: tokens(to: place) + [key]))
                    }
                    continue
                }
                push(argument, key, under: place)
            default:
                continue
            }
        }
        return found
    }
}
