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
