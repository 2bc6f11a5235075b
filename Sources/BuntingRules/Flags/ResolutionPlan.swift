import BuntingJSON

/// How a flag resolves, prepared when it is compiled: what does not depend
/// on the context is decided once, so that resolving it for a context does
/// only the rest.
///
/// A class, like `Node`, so that resolution calls it through the flag's
/// `let` property without reference counting. Subclasses are final and
/// immutable.
class ResolutionPlan: @unchecked Sendable {
    /// The flag's outcome for the context `interpreter` holds, readied for
    /// this flag (steps restarted, `$flagd` naming it).
    func outcome(_ flag: CompiledFlag, _ interpreter: inout Interpreter) -> FlagOutcome {
        preconditionFailure("ResolutionPlan is abstract")
    }

    /// Builds the plan for `root`, with `outcome` telling what each result means.
    static func targeting(_ root: Node, outcome: (JSON) -> FlagOutcome) -> ResolutionPlan {
        if let fractional = root as? Node.Fractional { return Fractional(fractional, outcome: outcome) }
        return Choice(root, outcome: outcome) ?? Rule(root)
    }

    /// The same outcome for every context: the flag is unusable, disabled,
    /// or has no targeting.
    final class Fixed: ResolutionPlan, @unchecked Sendable {
        let fixed: FlagOutcome

        init(_ outcome: FlagOutcome) { fixed = outcome }

        override func outcome(_ flag: CompiledFlag, _ interpreter: inout Interpreter) -> FlagOutcome { fixed }
    }

    /// Evaluate the targeting rule, then read its result as a variant name.
    final class Rule: ResolutionPlan, @unchecked Sendable {
        let root: Node

        init(_ root: Node) { self.root = root }

        override func outcome(_ flag: CompiledFlag, _ interpreter: inout Interpreter) -> FlagOutcome {
            do {
                return flag.outcome(ofTargetingResult: try root.evaluate(&interpreter))
            } catch {
                return .failure(.general, "targeting failed: \(error)")
            }
        }
    }

    /// The targeting is an `if` whose every result is a literal, the usual
    /// shape (`{"if": [cond, "on", "off"]}`): only the conditions are
    /// evaluated, and each result's outcome was found in advance. The same
    /// steps and errors as evaluating the `if` (one step for it; literals
    /// take none).
    final class Choice: ResolutionPlan, @unchecked Sendable {
        let conditions: Operands
        /// One per condition, then the outcome when none holds.
        let outcomes: [FlagOutcome]

        /// Nil unless `root` is an `if` whose results are all literals.
        init?(_ root: Node, outcome: (JSON) -> FlagOutcome) {
            let nodes: [Node]
            if let node = root as? Node.IfThenElse {
                nodes = [node.test, node.consequent, node.alternative]
            } else if let node = root as? Node.Condition {
                nodes = node.operands.nodes
            } else {
                return nil
            }
            // As `Node.Condition` reads them: condition and result in pairs,
            // then an optional last result (null when absent).
            // Sized once: the plan keeps both for as long as the document is current.
            var conditions: [Node] = []
            conditions.reserveCapacity(nodes.count / 2)
            var outcomes: [FlagOutcome] = []
            outcomes.reserveCapacity(nodes.count / 2 + 1)
            var index = 0
            while index + 1 < nodes.count {
                guard let result = nodes[index + 1].literalValue else { return nil }
                conditions.append(nodes[index])
                outcomes.append(outcome(result))
                index += 2
            }
            if index < nodes.count {
                guard let result = nodes[index].literalValue else { return nil }
                outcomes.append(outcome(result))
            } else {
                outcomes.append(outcome(.null))
            }
            self.conditions = Operands(conditions)
            self.outcomes = outcomes
        }

        override func outcome(_ flag: CompiledFlag, _ interpreter: inout Interpreter) -> FlagOutcome {
            do {
                try interpreter.step()
                for index in 0..<conditions.count where try conditions.isTruthy(index, &interpreter) {
                    return outcomes[index]
                }
                return outcomes[conditions.count]
            } catch {
                return .failure(.general, "targeting failed: \(error)")
            }
        }
    }

    /// The targeting is a `fractional`: the variant it picks from a literal
    /// table was looked up in advance, as for `Choice`. The same steps and
    /// errors as evaluating it.
    final class Fractional: ResolutionPlan, @unchecked Sendable {
        let node: Node.Fractional
        /// The outcome of each variant of the rule's `wholeTable`, and of its
        /// `tailTable` (empty when it has none), and of null.
        let whole: [FlagOutcome]
        let tail: [FlagOutcome]
        let null: FlagOutcome

        init(_ node: Node.Fractional, outcome: (JSON) -> FlagOutcome) {
            self.node = node
            whole = node.rule.wholeTable?.variants.map(outcome) ?? []
            tail = node.rule.tailTable?.variants.map(outcome) ?? []
            null = outcome(.null)
        }

        override func outcome(_ flag: CompiledFlag, _ interpreter: inout Interpreter) -> FlagOutcome {
            do {
                try interpreter.step() // the `fractional`'s own
                switch try interpreter.fractional(node.rule) {
                case .null: return null
                case .whole(let index): return whole[index]
                case .tail(let index): return tail[index]
                case .value(let value): return flag.outcome(ofTargetingResult: value)
                }
            } catch {
                return .failure(.general, "targeting failed: \(error)")
            }
        }
    }
}
