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

extension FeatureSource {
    /// Its place in `allCases`, for tables by source.
    var ordinal: Int {
        switch self {
        case .defaultValue: 0
        case .force: 1
        case .experiment: 2
        case .unknownFeature: 3
        case .prerequisite: 4
        case .cyclicPrerequisite: 5
        case .override: 6
        }
    }
}
