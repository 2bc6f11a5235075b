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
        var interpreter = Interpreter(
            data: Self.contextObject(context), flagd: FlagdProperties(flagKey: flag.key, timestamp: timestamp),
            hashing: fractionalHashing, limits: limits, attributes: nil)
        return Self.resolve(flag, timestamp: timestamp, expecting: expecting, with: &interpreter)
    }

    /// Resolves every flag, in document order, for one context: what a user
    /// change or a refresh needs. Disabled flags are included with reason
    /// DISABLED (the flagd daemon's bulk evaluation leaves them out).
    public func resolveAll(
        context: JSON, timestamp: Int64, limits: EvaluationLimits = .default
    ) -> [FlagResolution] {
        var interpreter = Interpreter(
            data: Self.contextObject(context), flagd: nil, hashing: fractionalHashing, limits: limits,
            attributes: attributes)
        var results: [FlagResolution] = []
        results.reserveCapacity(flags.count)
        for flag in flags {
            results.append(Self.resolve(flag, timestamp: timestamp, expecting: nil, with: &interpreter))
        }
        return results
    }

    private static func contextObject(_ context: JSON) -> JSON {
        if case .object = context { return context }
        return .object(JSONObject())
    }

    /// Resolves `flag` with an interpreter already holding the context.
    private static func resolve(
        _ flag: CompiledFlag, timestamp: Int64, expecting: FlagValueType?, with interpreter: inout Interpreter
    ) -> FlagResolution {
        switch decide(flag, timestamp: timestamp, with: &interpreter) {
        case .variant(let position, let reason):
            if let expecting, !expecting.accepts(flag.variants.values[position]) {
                let value = flag.variants.values[position]
                return failure(flag, .typeMismatch, "expected a value of type \(expecting.rawValue), got \(value.typeName)")
            }
            return FlagResolution(flag: flag, position: position, reason: reason)
        case .noVariant(let reason):
            return FlagResolution(flag: flag, position: nil, reason: reason)
        case .failure(let code, let message):
            return failure(flag, code, message)
        }
    }

    /// What resolution found, before the result is built (once).
    private enum Outcome {
        /// The variant at this position of the flag's variants.
        case variant(Int, FlagReason)
        /// The caller's default applies: disabled, or no default variant.
        case noVariant(FlagReason)
        case failure(FlagErrorCode, String)
    }

    private static func decide(
        _ flag: CompiledFlag, timestamp: Int64, with interpreter: inout Interpreter
    ) -> Outcome {
        if let problem = flag.unusable {
            return .failure(.parseError, "flag definition is invalid: \(problem)")
        }
        guard flag.isEnabled else { return .noVariant(.disabled) }
        guard let targeting = flag.targeting else { return defaultOutcome(flag, reason: .static) }

        let result: JSON
        do {
            interpreter.restart(flagd: FlagdProperties(flagKey: flag.key, timestamp: timestamp))
            result = try targeting.evaluate(with: &interpreter)
        } catch {
            return .failure(.general, "targeting failed: \(error)")
        }

        let name: String
        switch result {
        case .null: return defaultOutcome(flag, reason: .default)
        case .string(let text): name = text
        case .bool(let value): name = value ? "true" : "false"
        case .integer, .real: name = JavaScript.toString(result)
        case .array, .object: return .failure(.general, "targeting gave \(result.typeName), not a variant name")
        }
        guard !name.isEmpty, let position = flag.variants.position(of: name), !flag.variants.values[position].isNull else {
            return .failure(.general, "targeting gave variant \"\(name)\", which is not defined")
        }
        return .variant(position, .targetingMatch)
    }

    /// The default variant, or no variant (reason DEFAULT) when none is named.
    private static func defaultOutcome(_ flag: CompiledFlag, reason: FlagReason) -> Outcome {
        guard let name = flag.defaultVariant else { return .noVariant(.default) }
        guard let position = flag.defaultPosition else {
            return .failure(.general, "default variant \"\(name)\" is not defined")
        }
        return .variant(position, reason)
    }

    private static func failure(_ flag: CompiledFlag, _ code: FlagErrorCode, _ message: String) -> FlagResolution {
        FlagResolution(flag: flag, position: nil, reason: .error, errorCode: code, errorMessage: message)
    }
}
