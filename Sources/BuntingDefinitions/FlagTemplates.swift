import BuntingCore
import BuntingJSON
import BuntingRules

/// The templates in the flags' variant properties, by the flag's place in
/// the flag set (the order of `resolveAll`'s answer), so that a user change
/// over thousands of untemplated flags reads one empty array and nothing else.
struct FlagTemplates: Sendable {
    /// By place; empty when no flag has a template.
    private let byPlace: [[String: VariantTemplates]?]

    init() {
        byPlace = []
    }

    init(_ byKey: [String: [String: VariantTemplates]], flagKeys: [String]) {
        guard !byKey.isEmpty else {
            byPlace = []
            return
        }
        byPlace = flagKeys.map { byKey[$0] }
    }

    var isEmpty: Bool { byPlace.isEmpty }

    /// The templates of the variant `resolution` chose, for the flag at `place`.
    func variant(at place: Int, _ resolution: FlagResolution) -> VariantTemplates? {
        guard place < byPlace.count, let variants = byPlace[place], let name = resolution.variant else { return nil }
        return variants[name]
    }
}
