/// What flagd adds to every evaluation context under `$flagd`: the key of the
/// flag being evaluated and the time of evaluation. Time is passed in, never
/// read from a clock here.
public struct FlagdProperties: Sendable, Hashable {
    public var flagKey: String
    /// Unix seconds.
    public var timestamp: Int64

    public init(flagKey: String, timestamp: Int64) {
        self.flagKey = flagKey
        self.timestamp = timestamp
    }

    static let key = "$flagd"
}
