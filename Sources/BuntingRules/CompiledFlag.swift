import BuntingJSON

/// One flag of a `FlagSet`, ready to resolve. A class, so that resolving
/// all flags passes one reference per flag rather than copying every field.
final class CompiledFlag: Sendable {
    let key: String
    let isEnabled: Bool
    let variants: VariantTable
    /// Nil when the definition names none (or names it as "" or null).
    let defaultVariant: String?
    /// The default variant's position in `variants`; nil when it names none.
    let defaultPosition: Int?
    /// Nil when there is no targeting (absent, null, or `{}`).
    let targeting: JSONLogicRule?
    /// Set when the definition cannot be used; the flag then resolves as
    /// ERROR / PARSE_ERROR.
    let unusable: RuleCompileError?
    let metadata: JSONObject

    init(
        key: String, isEnabled: Bool, variants: VariantTable, defaultVariant: String?, targeting: JSONLogicRule?,
        unusable: RuleCompileError?, metadata: JSONObject
    ) {
        self.key = key
        self.isEnabled = isEnabled
        self.variants = variants
        self.defaultVariant = defaultVariant
        defaultPosition = defaultVariant.flatMap { variants.position(of: $0) }
        self.targeting = targeting
        self.unusable = unusable
        self.metadata = metadata
    }
}
