/// Where a feature's value came from, as GrowthBook's `FeatureResult.source` says it.
public enum FeatureSource: String, Sendable, Hashable, CaseIterable {
    case defaultValue
    case force
    case experiment
    case unknownFeature
    case prerequisite
    case cyclicPrerequisite
    case override
}
