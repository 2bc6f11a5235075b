import BuntingJSON

/// The steps one evaluation may still take (see
/// `PayloadLimits.maxEvaluationSteps`), and whether it ran out.
struct EvaluationBudget {
    var steps: Int
    private(set) var exhausted = false
    /// Whether conditions are evaluated against the user's attributes (not
    /// an array element, or a parent's `{value}`): then attribute values
    /// read are kept in `attributeValues` by path.
    var testsAttributes = false
    /// Attribute values read so far, by `AttributePath.id`.
    var attributeValues: [JSON?] = []
    /// Attribute values read as versions so far, by `AttributePath.id`.
    var paddedVersions: [[UInt16]?] = []

    init(steps: Int) { self.steps = steps }

    /// Starts the evaluation of another feature for the same user: a full
    /// budget, the attribute values read so far kept.
    mutating func renew(steps: Int) {
        self.steps = steps
        exhausted = false
        testsAttributes = false
    }

    /// `VersionString.padded(value)`, made once per user for the attribute at `path`.
    mutating func paddedVersion(of value: JSON, at path: Int) -> [UInt16] {
        guard path >= 0, path < attributeValues.count else { return VersionString.padded(value) }
        if paddedVersions.isEmpty { paddedVersions = Array(repeating: nil, count: attributeValues.count) }
        if let known = paddedVersions[path] { return known }
        let padded = VersionString.padded(value)
        paddedVersions[path] = padded
        return padded
    }

    /// The value at `path` of `object`, read once per user when `object` is
    /// the attributes.
    @inline(__always)
    mutating func value(at path: AttributePath, in object: JSON) -> JSON {
        guard testsAttributes, path.id >= 0, path.id < attributeValues.count else { return path.value(in: object) }
        if let known = attributeValues[path.id] { return known }
        let value = path.value(in: object)
        attributeValues[path.id] = value
        return value
    }

    /// Takes `count` steps; false (and exhausted from then on) when there were not enough.
    @inline(__always)
    mutating func take(_ count: Int = 1) -> Bool {
        steps -= count
        if steps < 0 {
            steps = 0
            exhausted = true
            return false
        }
        return true
    }

    mutating func markExhausted() {
        steps = 0
        exhausted = true
    }
}
