/// A token bucket for manual refreshes: `capacity` tokens, one back every
/// `refillInterval` seconds. Times are Unix seconds from the engine's clock.
public struct TokenBucket: Equatable, Sendable {
    public struct Rule: Equatable, Sendable {
        public var capacity: Int
        public var refillInterval: Double
        /// Refilled to capacity when a session starts (the banners' bucket).
        public var refillsPerSession: Bool

        public init(capacity: Int, refillInterval: Double, refillsPerSession: Bool = false) {
            self.capacity = capacity
            self.refillInterval = refillInterval
            self.refillsPerSession = refillsPerSession
        }
    }

    public let rule: Rule
    public private(set) var tokens: Int
    /// When the last token came back (or the bucket was last full).
    private var refilledAt: Double

    public init(rule: Rule, now: Double) {
        self.rule = rule
        self.tokens = rule.capacity
        self.refilledAt = now
    }

    /// Takes a token. On refusal, returns when the next token comes back.
    public mutating func take(now: Double) -> Double? {
        refill(now: now)
        guard tokens == 0 else {
            if tokens == rule.capacity { refilledAt = now }
            tokens -= 1
            return nil
        }
        return refilledAt + rule.refillInterval
    }

    public mutating func fill(now: Double) {
        tokens = rule.capacity
        refilledAt = now
    }

    private mutating func refill(now: Double) {
        guard tokens < rule.capacity, rule.refillInterval > 0 else { return }
        let earned = Int(((now - refilledAt) / rule.refillInterval).rounded(.down))
        guard earned > 0 else { return }
        tokens = min(rule.capacity, tokens + earned)
        refilledAt = tokens == rule.capacity ? now : refilledAt + Double(earned) * rule.refillInterval
    }

    /// The Braze SDKs' buckets: content cards 5, one back every 180 s;
    /// banners 5 per session, one back every 180 s; feature flags 5, one back every 300 s.
    public static let defaultRules: [Channel: Rule] = [
        .contentCards: Rule(capacity: 5, refillInterval: 180),
        .banners: Rule(capacity: 5, refillInterval: 180, refillsPerSession: true),
        .featureFlags: Rule(capacity: 5, refillInterval: 300),
    ]
}
