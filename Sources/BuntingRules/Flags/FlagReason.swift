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
