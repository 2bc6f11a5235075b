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
        guard let position = index[flagKey] else {
            return FlagResolution(
                flagKey: flagKey, value: .null, variant: nil, reason: .error, errorCode: .flagNotFound,
                errorMessage: "flag \"\(flagKey)\" not found")
        }
        return Self.resolve(flags[position], context: Self.contextObject(context), timestamp: timestamp,
                            expecting: expecting, limits: limits)
    }

    /// Resolves every flag, in document order, for one context: what a user
    /// change or a refresh needs. Disabled flags are included with reason
    /// DISABLED (the flagd daemon's bulk evaluation leaves them out).
    public func resolveAll(
        context: JSON, timestamp: Int64, limits: EvaluationLimits = .default
    ) -> [FlagResolution] {
        let context = Self.contextObject(context)
        return flags.map { Self.resolve($0, context: context, timestamp: timestamp, expecting: nil, limits: limits) }
    }

    private static func contextObject(_ context: JSON) -> JSON {
        if case .object = context { return context }
        return .object(JSONObject())
    }

    private static func resolve(
        _ flag: CompiledFlag, context: JSON, timestamp: Int64, expecting: FlagValueType?, limits: EvaluationLimits
    ) -> FlagResolution {
        if let problem = flag.unusable {
            return failure(flag, .parseError, "flag definition is invalid: \(problem)")
        }
        guard flag.isEnabled else {
            return FlagResolution(
                flagKey: flag.key, value: .null, variant: nil, reason: .disabled, metadata: flag.metadata)
        }
        guard let targeting = flag.targeting else {
            return checked(defaultResolution(flag, reason: .static), expecting)
        }

        let result: JSON
        do {
            result = try targeting.evaluateRaw(
                context, flagd: FlagdProperties(flagKey: flag.key, timestamp: timestamp), limits: limits)
        } catch {
            return failure(flag, .general, "targeting failed: \(error)")
        }

        let name: String
        switch result {
        case .null:
            return checked(defaultResolution(flag, reason: .default), expecting)
        case .string(let text): name = text
        case .bool(let value): name = value ? "true" : "false"
        case .integer, .real: name = JavaScript.toString(result)
        case .array, .object:
            return failure(flag, .general, "targeting gave \(result.typeName), not a variant name")
        }
        guard !name.isEmpty, let value = flag.variants[name], !value.isNull else {
            return failure(flag, .general, "targeting gave variant \"\(name)\", which is not defined")
        }
        return checked(
            FlagResolution(flagKey: flag.key, value: value, variant: name, reason: .targetingMatch, metadata: flag.metadata),
            expecting)
    }

    /// The default variant, or no variant (reason DEFAULT) when none is named.
    private static func defaultResolution(_ flag: CompiledFlag, reason: FlagReason) -> FlagResolution {
        guard let name = flag.defaultVariant else {
            return FlagResolution(flagKey: flag.key, value: .null, variant: nil, reason: .default, metadata: flag.metadata)
        }
        guard let value = flag.variants[name] else {
            return failure(flag, .general, "default variant \"\(name)\" is not defined")
        }
        return FlagResolution(flagKey: flag.key, value: value, variant: name, reason: reason, metadata: flag.metadata)
    }

    /// The type check applies when a variant was chosen.
    private static func checked(_ resolution: FlagResolution, _ expecting: FlagValueType?) -> FlagResolution {
        guard let expecting, resolution.variant != nil, !expecting.accepts(resolution.value) else { return resolution }
        var mismatch = resolution
        mismatch.errorMessage = "expected a value of type \(expecting.rawValue), got \(resolution.value.typeName)"
        mismatch.value = .null
        mismatch.variant = nil
        mismatch.reason = .error
        mismatch.errorCode = .typeMismatch
        return mismatch
    }

    private static func failure(_ flag: CompiledFlag, _ code: FlagErrorCode, _ message: String) -> FlagResolution {
        FlagResolution(
            flagKey: flag.key, value: .null, variant: nil, reason: .error, errorCode: code,
            errorMessage: message, metadata: flag.metadata)
    }
}
