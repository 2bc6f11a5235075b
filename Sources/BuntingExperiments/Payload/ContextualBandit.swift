import BuntingJSON

/// A contextual bandit of the payload's `contextualBandits`: leaves whose
/// conditions route a user to weights of their own.
struct ContextualBandit: Sendable {
    struct Leaf: Sendable {
        let id: Int?
        let condition: Condition
        let weights: [Double]?
        let weightsJSON: JSON?
    }

    let version: Int?
    let leaves: [Leaf]

    init(_ json: JSON, at pointer: JSONPointer, compiler: inout ConditionCompiler) throws(FeatureCompileError) {
        let limits = compiler.limits
        let fields = try FieldReader(json, at: pointer, what: "a contextual bandit")
        version = fields["banditVersion"].flatMap(Self.identifier)
        var leaves: [Leaf] = []
        for (index, element) in (try fields.array("contexts") ?? []).enumerated() {
            let leaf = try FieldReader(element, at: fields.at("contexts").appending(index), what: "a bandit leaf")
            let conditionJSON = leaf["condition"].flatMap { JSValues.isTruthy($0) ? $0 : nil } ?? .object(JSONObject())
            let condition = Condition(root: try compiler.condition(conditionJSON, at: leaf.at("condition")))
            let weights = try leaf.numbers("weights", limit: limits.maxVariations)
            leaves.append(
                Leaf(
                    id: leaf["leafId"].flatMap(Self.identifier), condition: condition, weights: weights,
                    weightsJSON: weights == nil ? nil : leaf["weights"]))
        }
        self.leaves = leaves
    }

    /// Leaf ids and bandit versions are integers; anything else counts as absent.
    private static func identifier(_ json: JSON) -> Int? {
        guard case .integer(let value) = json else { return nil }
        return Int(exactly: value)
    }
}
