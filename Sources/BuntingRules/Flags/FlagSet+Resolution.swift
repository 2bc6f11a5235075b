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
    public func resolve(
        flagKey: String, context: JSON, timestamp: Int64, expecting: FlagValueType? = nil,
        limits: EvaluationLimits = .default
    ) -> FlagResolution {
        guard let position = index[flagKey] else { return FlagResolution(missing: flagKey) }
        let flag = flags[position]
        // One flag reads few attributes: looked up when asked for.
        let outcome = Interpreter.with(
            data: Self.contextObject(context), flagd: FlagdProperties(flagKey: flag.key, timestamp: timestamp),
            hashing: fractionalHashing, limits: limits
        ) { flag.outcome(&$0) }
        return Self.resolution(flag, outcome, expecting: expecting)
    }

    /// Resolves every flag, in document order, for one context: what a user
    /// change or a refresh needs. Disabled flags are included with reason
    /// DISABLED (the flagd daemon's bulk evaluation leaves them out).
    public func resolveAll(
        context: JSON, timestamp: Int64, limits: EvaluationLimits = .default
    ) -> [FlagResolution] {
        Interpreter.with(
            data: Self.contextObject(context), flagKeys: flagKeys, timestamp: timestamp, hashing: fractionalHashing,
            limits: limits, attributes: attributes
        ) { interpreter in
            var results: [FlagResolution] = []
            results.reserveCapacity(flags.count)
            for position in flags.indices {
                let flag = flags[position]
                interpreter.restart(flagAt: position)
                let outcome = flag.outcome(&interpreter)
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
            let value = flag.variants.values[position]
            guard expecting.accepts(value) else {
                return failure(flag, .typeMismatch, "expected a value of type \(expecting.rawValue), got \(value.typeName)")
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
