/// The manual-refresh buckets, one per channel, on the clock's monotonic
/// time: on the wall clock, a clock stepped back five years refused every
/// refresh for five years. Owned by the engine's loop.
final class RefreshLimiter {
    private var buckets: [Channel: TokenBucket] = [:]

    init(rules: [Channel: TokenBucket.Rule], now: Double) {
        for channel in Channel.allCases {
            buckets[channel] = TokenBucket(rule: rules[channel] ?? TokenBucket.defaultRules[channel]!, now: now)
        }
    }

    /// Takes a token of `channel`'s bucket at monotonic time `now`; when
    /// there is none, the seconds until one comes back.
    func take(_ channel: Channel, now: Double) -> Double? {
        buckets[channel]?.take(now: now).map { max(0, $0 - now) }
    }

    /// A new session refills the buckets that refill per session (banners').
    func refillForSession(now: Double) {
        for channel in Channel.allCases where buckets[channel]?.rule.refillsPerSession == true {
            buckets[channel]?.fill(now: now)
        }
    }
}
