/// What resolving a flag found, before the result is built (once).
enum FlagOutcome: Sendable {
    /// The variant at this position of the flag's variants.
    case variant(Int, FlagReason)
    /// The caller's default applies: disabled, or no default variant.
    case noVariant(FlagReason)
    case failure(FlagErrorCode, String)
}
