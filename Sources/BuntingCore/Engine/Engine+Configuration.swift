/// How an engine is set up: its timings and bounds.
extension Engine {
    public struct Configuration: Sendable {
        public var retry = RetryPolicy()
        public var refreshRules = TokenBucket.defaultRules
        public var flushInterval = 10.0
        /// How often the source is checked for a new document; nil: never.
        public var pollInterval: Double? = Self.defaultPollInterval(localSource: false)
        public var maxBatchSize = 100
        public var maxQueuedEvents = 10_000
        public var maxPlacementsPerRefresh = 10
        /// Subscriptions one server keeps (see `SubscriptionTable`).
        public var maxSubscriptions = SubscriptionTable.defaultMaxSubscriptions
        /// Longest wait at shutdown for a fetch under way and then the sink;
        /// what is not sent stays queued.
        public var shutdownTimeout = 5.0

        public init() {}

        /// A file costs one `stat` a poll, so files are watched closely;
        /// servers are asked less often.
        public static func defaultPollInterval(localSource: Bool) -> Double {
            localSource ? 1 : 30
        }
    }
}
