import BuntingJSON

/// One flag of a `FlagSet`, ready to resolve. A class, so that resolving
/// all flags passes one reference per flag rather than copying every field.
///
/// Small on purpose (96 bytes with its variant table held in it, which was
/// an object of 40 of its own; 128 at first): a flag-heavy document keeps
/// tens of thousands. What few flags have (a definition that cannot be
/// used, a default variant that is not defined) is kept apart, behind one
/// reference.
final class CompiledFlag: Sendable {
    let key: String
    let variants: VariantTable
    let metadata: JSONObject
    /// How the flag resolves, worked out as far as the context does not matter.
    let plan: ResolutionPlan
    private let rare: Rare?
    /// The default variant's position in `variants`; -1 when it names none
    /// or one that is not defined.
    private let defaultIndex: Int32

    /// What few flags have.
    private final class Rare: Sendable {
        let unusable: RuleCompileError?
        /// A default variant named but not defined.
        let undefinedDefault: String?

        init(unusable: RuleCompileError?, undefinedDefault: String?) {
            self.unusable = unusable
            self.undefinedDefault = undefinedDefault
        }
    }

    /// Nil when the definition names none (or names it as "" or null).
    var defaultVariant: String? {
        defaultIndex >= 0 ? variants.names[Int(defaultIndex)] : rare?.undefinedDefault
    }
    /// The default variant's position in `variants`; nil when it names none.
    var defaultPosition: Int? { defaultIndex >= 0 ? Int(defaultIndex) : nil }
    /// Why the definition cannot be used, when it cannot.
    var unusable: RuleCompileError? { rare?.unusable }

    /// - Parameters:
    ///   - targeting: nil when there is none (absent, null, or `{}`).
    ///   - unusable: set when the definition cannot be used; the flag then
    ///     resolves as ERROR / PARSE_ERROR.
    init(
        key: String, isEnabled: Bool, variants: VariantTable, defaultVariant: String?, targeting: JSONLogicRule?,
        unusable: RuleCompileError?, metadata: JSONObject
    ) {
        self.key = key
        self.variants = variants
        let defaultPosition = defaultVariant.flatMap { variants.position(of: $0) }
        defaultIndex = defaultPosition.map { Int32($0) } ?? -1
        let undefinedDefault = defaultPosition == nil ? defaultVariant : nil
        rare =
            unusable == nil && undefinedDefault == nil
            ? nil : Rare(unusable: unusable, undefinedDefault: undefinedDefault)
        self.metadata = metadata
        let answers = Answers(variants: variants, defaultVariant: defaultVariant, defaultPosition: defaultPosition)
        if let unusable {
            plan = ResolutionPlan.Fixed(.failure(.parseError, "flag definition is invalid: \(unusable)"))
        } else if !isEnabled {
            plan = ResolutionPlan.Fixed(.noVariant(.disabled))
        } else if let targeting {
            plan = ResolutionPlan.targeting(targeting.root, outcome: answers.outcome(ofTargetingResult:))
        } else {
            plan = ResolutionPlan.Fixed(answers.defaultOutcome(reason: .static))
        }
    }

    /// The outcome for the context `interpreter` holds, readied for this
    /// flag. Called on the flag, so that its plan is reached through `self`
    /// (which costs no reference counting, where reaching it through a local
    /// variable retained and released it).
    func outcome(_ interpreter: inout Interpreter) -> FlagOutcome {
        plan.outcome(self, &interpreter)
    }

    /// What a targeting result means (see `Answers`).
    func outcome(ofTargetingResult result: JSON) -> FlagOutcome {
        Answers(variants: variants, defaultVariant: defaultVariant, defaultPosition: defaultPosition)
            .outcome(ofTargetingResult: result)
    }

    /// How a flag's variants answer a targeting result; apart from the flag
    /// so that its plan can be made before the flag is.
    private struct Answers {
        let variants: VariantTable
        let defaultVariant: String?
        let defaultPosition: Int?

        /// As flagd reads a targeting result: null is the default variant; a
        /// string, Boolean or number names a variant.
        func outcome(ofTargetingResult result: JSON) -> FlagOutcome {
            let name: String
            switch result {
            case .null: return defaultOutcome(reason: .default)
            case .string(let text): name = text
            case .bool(let value): name = value ? "true" : "false"
            case .integer, .real: name = JavaScript.toString(result)
            case .array, .object: return .failure(.general, "targeting gave \(result.typeName), not a variant name")
            }
            guard !name.isEmpty, let position = variants.position(of: name), !variants.values.isNull(at: position)
            else {
                return .failure(.general, "targeting gave variant \"\(name)\", which is not defined")
            }
            return .variant(position, .targetingMatch)
        }

        /// The default variant, or no variant (reason DEFAULT) when none is named.
        func defaultOutcome(reason: FlagReason) -> FlagOutcome {
            guard let name = defaultVariant else { return .noVariant(.default) }
            guard let position = defaultPosition else {
                return .failure(.general, "default variant \"\(name)\" is not defined")
            }
            return .variant(position, reason)
        }
    }
}
