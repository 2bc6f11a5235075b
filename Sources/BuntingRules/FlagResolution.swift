import BuntingJSON

/// The outcome of resolving one flag for one context, as flagd reports it.
public struct FlagResolution: Sendable, Hashable {
    public var flagKey: String
    /// The variant's value; null when no variant applies (the caller's own
    /// default is meant: disabled flag, no default variant, or an error).
    public var value: JSON
    public var variant: String?
    public var reason: FlagReason
    /// Set exactly when `reason` is `.error`.
    public var errorCode: FlagErrorCode?
    public var errorMessage: String?
    /// The flag set's metadata overlaid with the flag's own; empty for an
    /// unknown flag.
    public var metadata: JSONObject

    public init(
        flagKey: String, value: JSON, variant: String?, reason: FlagReason,
        errorCode: FlagErrorCode? = nil, errorMessage: String? = nil, metadata: JSONObject = JSONObject()
    ) {
        self.flagKey = flagKey
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.metadata = metadata
    }
}

/// Why a flag resolved as it did (OpenFeature's reasons, as flagd uses them).
public enum FlagReason: String, Sendable, Hashable, CaseIterable {
    /// No targeting rule: the default variant.
    case `static` = "STATIC"
    /// The targeting rule named the variant.
    case targetingMatch = "TARGETING_MATCH"
    /// The targeting rule gave null, or there is no default variant.
    case `default` = "DEFAULT"
    /// The flag is disabled; the caller's default applies.
    case disabled = "DISABLED"
    case error = "ERROR"
}

/// What went wrong when `reason` is `.error`.
public enum FlagErrorCode: String, Sendable, Hashable, CaseIterable {
    /// No flag has this key.
    case flagNotFound = "FLAG_NOT_FOUND"
    /// The flag's definition could not be compiled (see `FlagSet.problems`).
    case parseError = "PARSE_ERROR"
    /// The variant's value is not of the type the caller asked for.
    case typeMismatch = "TYPE_MISMATCH"
    /// Anything else: the targeting named a variant that does not exist, the
    /// default variant does not exist, or evaluation failed.
    case general = "GENERAL"
}

/// The value type a caller expects of a flag, for typed resolution.
public enum FlagValueType: String, Sendable, Hashable, CaseIterable {
    case boolean, string, integer, float, object

    /// flagd's checks: an integer must be written without a fraction, a
    /// float may be any number, an object may also be an array.
    func accepts(_ value: JSON) -> Bool {
        switch (self, value) {
        case (.boolean, .bool), (.string, .string), (.integer, .integer),
             (.float, .integer), (.float, .real), (.object, .object), (.object, .array):
            return true
        default:
            return false
        }
    }
}
