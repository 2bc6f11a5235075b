import BuntingJSON

/// One flag of a `FlagSet`, ready to resolve.
struct CompiledFlag: Sendable {
    let key: String
    let isEnabled: Bool
    let variants: [String: JSON]
    /// Nil when the definition names none (or names it as "" or null).
    let defaultVariant: String?
    /// Nil when there is no targeting (absent, null, or `{}`).
    let targeting: JSONLogicRule?
    /// Set when the definition cannot be used; the flag then resolves as
    /// ERROR / PARSE_ERROR.
    let unusable: RuleCompileError?
    let metadata: JSONObject
}
