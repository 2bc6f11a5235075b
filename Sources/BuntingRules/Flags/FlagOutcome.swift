/// What resolving a flag found, before the result is built (once).
enum FlagOutcome: Sendable {
    /// The variant at this position of the flag's variants.
    case variant(Int, FlagReason)
    /// The caller's default applies: disabled, or no default variant.
    case noVariant(FlagReason)
    /// Boxed: rare, and its message would double the size of every outcome
    /// a flag's plan keeps (a targeting `if`'s, found in advance).
    indirect case failure(FlagErrorCode, String)
}
