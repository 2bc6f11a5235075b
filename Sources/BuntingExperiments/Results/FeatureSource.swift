/// Where a feature's value came from, as GrowthBook's `FeatureResult.source` says it.
public enum FeatureSource: String, Sendable, Hashable {
    case defaultValue
    case force
    case experiment
    case unknownFeature
    case prerequisite
    case cyclicPrerequisite
    case override
}
