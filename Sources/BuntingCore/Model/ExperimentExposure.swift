import BuntingJSON

/// The current user was assigned an arm of an experiment by hash: what the
/// `experiment_viewed` analytics event records (GrowthBook's tracking call).
/// Not made for forced or overridden assignments, nor for evaluations of a
/// context given with the request.
public struct ExperimentExposure: Sendable, Equatable {
    public let experimentKey: String
    public let variationId: Int
    /// The variation's meta key, or its index as a string.
    public let variationKey: String
    public let hashAttribute: String
    /// As the attributes hold it (a number stays a number).
    public let hashValue: JSON
    /// The feature whose rule ran the experiment.
    public let featureId: String?
    /// Tells exposures apart for logging each once a session (with the user).
    public let deduplicationKey: String

    public init(
        experimentKey: String, variationId: Int, variationKey: String, hashAttribute: String, hashValue: JSON,
        featureId: String?, deduplicationKey: String
    ) {
        self.experimentKey = experimentKey
        self.variationId = variationId
        self.variationKey = variationKey
        self.hashAttribute = hashAttribute
        self.hashValue = hashValue
        self.featureId = featureId
        self.deduplicationKey = deduplicationKey
    }

    /// The members of the event at the sink and in the `EXPOSURE` notification.
    public static let fields = [
        "experimentKey", "variationId", "variationKey", "hashAttribute", "hashValue", "featureId",
    ]

    public var json: JSON {
        [
            "experimentKey": .string(experimentKey), "variationId": .int(variationId),
            "variationKey": .string(variationKey),
            "hashAttribute": .string(hashAttribute), "hashValue": hashValue,
            "featureId": featureId.map { .string($0) } ?? .null,
        ]
    }
}

/// A sticky bucket document (GrowthBook's sticky bucketing): the arms one
/// value of one attribute was assigned, kept across restarts so that a user
/// stays in the arm they had when an experiment's weights change.
public struct StickyDocument: Sendable, Equatable {
    public let attributeName: String
    public let attributeValue: String
    /// `"<experiment key>__<bucket version>"` → variation key.
    public let assignments: JSONObject

    public init(attributeName: String, attributeValue: String, assignments: JSONObject) {
        self.attributeName = attributeName
        self.attributeValue = attributeValue
        self.assignments = assignments
    }
}

/// What evaluating the GrowthBook features of a document for the current
/// user gave: the results (`cases.json`'s FeatureResult, as the text of the
/// reply), the flags the `featureFlags` channel lists (when asked for), the
/// exposures made (to log, each once a session), and the sticky documents
/// that changed (to save).
public struct FeatureEvaluation: Sendable {
    public var results: [(key: String, result: EncodedJSON)]
    public var flags: [FeatureFlag]
    public var exposures: [ExperimentExposure]
    public var changedStickyDocuments: [StickyDocument]
    /// The features whose flag a template left out for this user.
    public var unrendered: [UnrenderedItem] = []

    public init(
        results: [(key: String, result: EncodedJSON)] = [], flags: [FeatureFlag] = [],
        exposures: [ExperimentExposure] = [],
        changedStickyDocuments: [StickyDocument] = []
    ) {
        self.results = results
        self.flags = flags
        self.exposures = exposures
        self.changedStickyDocuments = changedStickyDocuments
    }

    public static let none = FeatureEvaluation()
}
