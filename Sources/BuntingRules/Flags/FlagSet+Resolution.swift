import BuntingJSON

extension FlagSet {
    /// Resolves one flag for one evaluation context, as flagd does.
    ///
    /// - Parameters:
    ///   - context: flagd-style: `targetingKey` and the attributes at the top
    ///     level (anything but an object counts as empty). `$flagd.flagKey`
    ///     and `$flagd.timestamp` are added for the rule.
    ///   - timestamp: Unix seconds, for `$flagd.timestamp`.
    ///   - expecting: the value type the caller wants; a variant of another
    ///     type is a TYPE_MISMATCH error. Nil accepts any.
    ///   - budget: the round this evaluation belongs to (several flags of
    ///     one request), charged with its work.
    public func resolve(
        flagKey: String, context: JSON, timestamp: Int64, expecting: FlagValueType? = nil,
        limits: EvaluationLimits = .default, budget: inout WorkBudget
    ) -> FlagResolution {
        guard let position = index[ExactString(flagKey)] else { return FlagResolution(missing: flagKey) }
        let flag = flags[position]
        if budget.isSpent { return Self.failure(flag, .general, budget.spentMessage) }
        // One flag reads few attributes: looked up when asked for.
        let (outcome, steps) = Interpreter.with(
            data: Self.contextObject(context), flagd: FlagdProperties(flagKey: flag.key, timestamp: timestamp),
            hashing: fractionalHashing, limits: budget.limits(for: limits)
        ) { (flag.outcome(&$0), $0.steps) }
        budget.spend(steps)
        if budget.isSpent, case .failure = outcome { return Self.failure(flag, .general, budget.spentMessage) }
        return Self.resolution(flag, outcome, expecting: expecting)
    }

    /// Resolves one flag on its own (its work bounded by `limits` alone).
    public func resolve(
        flagKey: String, context: JSON, timestamp: Int64, expecting: FlagValueType? = nil,
        limits: EvaluationLimits = .default
    ) -> FlagResolution {
        var budget = WorkBudget.unbounded
        return resolve(
            flagKey: flagKey, context: context, timestamp: timestamp, expecting: expecting, limits: limits,
            budget: &budget)
    }

    /// Resolves every flag, in document order, for one context: what a user
    /// change or a refresh needs. Disabled flags are included with reason
    /// DISABLED (the flagd daemon's bulk evaluation leaves them out).
    ///
    /// The flags share one `WorkBudget` for the round (one for as many
    /// items as there are flags): once it is spent, the flags left resolve
    /// ERROR / GENERAL, as a flag past its own budget does.
    public func resolveAll(
        context: JSON, timestamp: Int64, limits: EvaluationLimits = .default
    ) -> [FlagResolution] {
        var budget = WorkBudget.forRound(of: flags.count)
        return resolveAll(context: context, timestamp: timestamp, limits: limits, budget: &budget)
    }

    /// `resolveAll`, charging `budget`.
    public func resolveAll(
        context: JSON, timestamp: Int64, limits: EvaluationLimits = .default, budget: inout WorkBudget
    ) -> [FlagResolution] {
        Interpreter.with(
            data: Self.contextObject(context), flagKeys: flagKeys, timestamp: timestamp, hashing: fractionalHashing,
            limits: limits, attributes: attributes
        ) { interpreter in
            var results: [FlagResolution] = []
            results.reserveCapacity(flags.count)
            for position in flags.indices {
                let flag = flags[position]
                if budget.isSpent {
                    results.append(Self.failure(consume flag, .general, budget.spentMessage))
                    continue
                }
                interpreter.restart(flagAt: position, budget: budget)
                var outcome = flag.outcome(&interpreter)
                budget.spend(interpreter.steps)
                if budget.isSpent, case .failure = outcome { outcome = .failure(.general, budget.spentMessage) }
                // The result takes over the reference the loop holds.
                results.append(Self.resolution(consume flag, outcome, expecting: nil))
            }
            return results
        }
    }

    private static func contextObject(_ context: JSON) -> JSON {
        if case .object = context { return context }
        return .object(JSONObject())
    }

    /// The result for `outcome`, checked against the type the caller expects.
    private static func resolution(
        _ flag: CompiledFlag, _ outcome: FlagOutcome, expecting: FlagValueType?
    ) -> FlagResolution {
        switch outcome {
        case .variant(let position, let reason):
            guard let expecting else { return FlagResolution(flag: flag, position: position, reason: reason) }
            // What the type check reads: an object's text is not read back for it.
            let value = flag.variants.values.typeStandIn(at: position)
            guard expecting.accepts(value) else {
                return failure(
                    flag, .typeMismatch, "expected a value of type \(expecting.rawValue), got \(value.typeName)")
            }
            let asInteger: Bool
            if expecting == .integer, case .real = value { asInteger = true } else { asInteger = false }
            return FlagResolution(flag: flag, position: position, reason: reason, asInteger: asInteger)
        case .noVariant(let reason):
            return FlagResolution(flag: flag, position: nil, reason: reason)
        case .failure(let code, let message):
            return failure(flag, code, message)
        }
    }

    private static func failure(_ flag: CompiledFlag, _ code: FlagErrorCode, _ message: String) -> FlagResolution {
        FlagResolution(flag: flag, position: nil, reason: .error, errorCode: code, errorMessage: message)
    }
}
