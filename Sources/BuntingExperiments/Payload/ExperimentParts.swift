import BuntingJSON

/// One of a rule's or experiment's `filters`: users whose hash (of
/// `attribute`, seeded by `seed`) falls in none of `ranges` are filtered out.
struct Filter: Sendable {
    let seed: String
    let ranges: [BucketRange]
    let hashVersion: Double
    let attribute: String?

    init(_ json: JSON, at pointer: JSONPointer, limits: PayloadLimits) throws(FeatureCompileError) {
        let fields = try FieldReader(json, at: pointer, what: "a filter")
        guard case .string(let seed)? = fields["seed"] else {
            throw FeatureCompileError(fields.at("seed"), "a filter needs a string seed")
        }
        self.seed = seed
        guard let ranges = try fields.ranges("ranges", limit: limits.maxVariations) else {
            throw FeatureCompileError(fields.at("ranges"), "a filter needs its ranges")
        }
        self.ranges = ranges
        // `filter.hashVersion || 2`
        let version = try fields.number("hashVersion") ?? 0
        hashVersion = version == 0 ? 2 : version
        attribute = try fields.string("attribute")
    }

    static func list(_ fields: FieldReader, limits: PayloadLimits) throws(FeatureCompileError) -> [Filter]? {
        guard let elements = try fields.array("filters") else { return nil }
        var filters: [Filter] = []
        for (index, element) in elements.enumerated() {
            filters.append(try Filter(element, at: fields.at("filters").appending(index), limits: limits))
        }
        return filters
    }
}

/// A prerequisite: the parent feature's value, as `{value: …}`, must pass
/// `condition`; with `gate`, failing it blocks the whole feature.
struct ParentCondition: Sendable {
    let id: String
    /// The parent's place in the payload; nil for a feature it does not have.
    let featureIndex: Int?
    let condition: Condition
    let gate: Bool

    init(_ json: JSON, at pointer: JSONPointer, compiler: ConditionCompiler) throws(FeatureCompileError) {
        let limits = compiler.limits
        let fields = try FieldReader(json, at: pointer, what: "a parent condition")
        guard case .string(let id)? = fields["id"] else {
            throw FeatureCompileError(fields.at("id"), "a parent condition needs the string id of a feature")
        }
        self.id = id
        featureIndex = compiler.featureIndices[ExactKey(id)]
        // The SDK evaluates prerequisites without the saved groups: `condition || {}`.
        var compiler = ConditionCompiler(savedGroups: .none, limits: limits)
        let conditionJSON = fields["condition"].flatMap { JSValues.isTruthy($0) ? $0 : nil } ?? .object(JSONObject())
        condition = Condition(root: try compiler.condition(conditionJSON, at: fields.at("condition")))
        gate = try fields.flag("gate")
    }

    static func list(_ fields: FieldReader, compiler: ConditionCompiler) throws(FeatureCompileError)
        -> [ParentCondition]?
    {
        guard let elements = try fields.array("parentConditions") else { return nil }
        var parents: [ParentCondition] = []
        for (index, element) in elements.enumerated() {
            parents.append(
                try ParentCondition(element, at: fields.at("parentConditions").appending(index), compiler: compiler))
        }
        return parents
    }
}

/// `meta[i]`: a variation's stable key, its name, and whether it passes
/// through (the feature goes on to its next rule).
struct VariationMeta: Sendable {
    let key: String?
    let name: JSON?
    let passthrough: JSON?

    init(_ json: JSON, at pointer: JSONPointer) throws(FeatureCompileError) {
        let fields = try FieldReader(json, at: pointer, what: "a variation's meta")
        key = try fields.string("key")
        name = fields["name"].flatMap { JSValues.isTruthy($0) ? $0 : nil }
        passthrough = fields["passthrough"].flatMap { JSValues.isTruthy($0) ? $0 : nil }
    }

    static func list(_ fields: FieldReader, limits: PayloadLimits) throws(FeatureCompileError) -> [VariationMeta]? {
        guard let elements = try fields.array("meta", limit: limits.maxVariations) else { return nil }
        var meta: [VariationMeta] = []
        for (index, element) in elements.enumerated() {
            meta.append(try VariationMeta(element, at: fields.at("meta").appending(index)))
        }
        return meta
    }
}

/// A condition field: absent, or a truthy value compiled (`x.condition && …`).
func compileCondition(
    _ fields: FieldReader, _ key: String, compiler: inout ConditionCompiler
) throws(FeatureCompileError) -> Condition? {
    guard let json = fields[key], JSValues.isTruthy(json) else { return nil }
    return Condition(root: try compiler.condition(json, at: fields.at(key)))
}
