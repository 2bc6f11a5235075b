import BuntingJSON

/// The outcome of resolving one flag for one context, as flagd reports it.
///
/// Compact on purpose: resolving all flags builds one per flag, so it
/// refers to the compiled flag and the chosen variant's position instead of
/// copying the key, value, name and metadata, and keeps the rare error
/// details behind one reference, so that a result is copied with two
/// reference counts at most.
public struct FlagResolution: Sendable, Hashable, CustomStringConvertible {
    private let flag: CompiledFlag?
    /// The chosen variant's position in the flag's variants; -1 for none.
    private let position: Int
    public let reason: FlagReason
    /// Whether the value, a real without a fraction, was asked for as an
    /// integer and is handed out as one.
    private let asInteger: Bool
    /// Set exactly when `reason` is `.error`.
    private let failure: Failure?

    private final class Failure: Sendable {
        let code: FlagErrorCode
        let message: String
        /// The key asked for, when no flag has it.
        let missingKey: String

        init(code: FlagErrorCode, message: String, missingKey: String = "") {
            self.code = code
            self.message = message
            self.missingKey = missingKey
        }
    }

    init(
        flag: CompiledFlag, position: Int?, reason: FlagReason, asInteger: Bool = false,
        errorCode: FlagErrorCode? = nil, errorMessage: String? = nil
    ) {
        self.flag = flag
        self.position = position ?? -1
        self.reason = reason
        self.asInteger = asInteger
        failure = errorCode.map { Failure(code: $0, message: errorMessage ?? "") }
    }

    /// FLAG_NOT_FOUND for `flagKey`.
    init(missing flagKey: String) {
        flag = nil
        position = -1
        reason = .error
        asInteger = false
        failure = Failure(code: .flagNotFound, message: "flag \"\(flagKey)\" not found", missingKey: flagKey)
    }

    /// Set exactly when `reason` is `.error`.
    public var errorCode: FlagErrorCode? { failure?.code }
    public var errorMessage: String? { failure?.message }

    public var flagKey: String { flag?.key ?? failure?.missingKey ?? "" }

    /// The variant's value; null when no variant applies (the caller's own
    /// default is meant: disabled flag, no default variant, or an error).
    public var value: JSON {
        guard let flag, position >= 0 else { return .null }
        if asInteger, case .real(let number) = flag.variants.values.typeStandIn(at: position) {
            return .integer(Int64(number))
        }
        return flag.variants.values[position]
    }

    /// The variant's value as compact text where it is an object kept as
    /// text (`VariantValues`), nil otherwise: `value` without reading it.
    public var objectText: VariantText? {
        guard let flag, position >= 0 else { return nil }
        return flag.variants.values.objectText(at: position)
    }

    public var variant: String? {
        guard let flag, position >= 0 else { return nil }
        return flag.variants.names[position]
    }

    /// The chosen variant's position in the flag's variants, nil for none:
    /// two resolutions of one flag that agree in it and in `reason` carry
    /// the same value and metadata (unless one was asked for as an integer;
    /// `resolveAll`'s never are), and comparing it reads nothing of the flag.
    public var variantPosition: Int? { position >= 0 ? position : nil }

    /// The flag set's metadata overlaid with the flag's own; empty for an
    /// unknown flag.
    public var metadata: JSONObject { flag?.metadata ?? JSONObject() }

    public static func == (lhs: FlagResolution, rhs: FlagResolution) -> Bool {
        lhs.flagKey == rhs.flagKey && lhs.value == rhs.value && lhs.variant == rhs.variant && lhs.reason == rhs.reason
            && lhs.errorCode == rhs.errorCode && lhs.errorMessage == rhs.errorMessage && lhs.metadata == rhs.metadata
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(flagKey)
        hasher.combine(variant)
        hasher.combine(reason)
        hasher.combine(errorCode)
    }

    public var description: String {
        var text = "\(flagKey): \(reason.rawValue)"
        if let variant { text += " \(variant) = \(value.encodedString())" }
        if let errorCode { text += " \(errorCode.rawValue)" }
        if let errorMessage { text += " (\(errorMessage))" }
        return text
    }
}
