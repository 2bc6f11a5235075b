import BuntingJSON

/// Why a cache changed, as DATA_UPDATED reports it.
public enum DataUpdatedReason: String, Sendable {
    case autoServerRefresh = "AUTO_SERVER_REFRESH"
    case manualServerRefresh = "MANUAL_SERVER_REFRESH"
    case clientAction = "CLIENT_ACTION"
}

/// The `reason` of an ERROR event.
public enum ErrorReason: String, Sendable {
    case serverError = "SERVER_ERROR"
    case clientError = "CLIENT_ERROR"
    case rateLimited = "RATE_LIMITED"
    case sdkDisabled = "SDK_DISABLED"
    case invalidServerData = "INVALID_SERVER_DATA"
    case featureDisabled = "FEATURE_DISABLED"
}

/// The `retryState` of an ERROR event: who, if anyone, tries again.
public enum RetryState: String, Sendable {
    case sdkWillRetry = "SDK_WILL_RETRY"
    case integratorMayRetry = "INTEGRATOR_MAY_RETRY"
    case doNotRetry = "DO_NOT_RETRY"
}

/// The two subscription patterns: event subscriptions, and the deprecated
/// update subscriptions that only hear about cache changes.
public enum SubscriptionKind: Sendable {
    case events
    case updates
}

/// A request the engine refuses. The RPC layer maps `kind` to an error code;
/// `field` names the param at fault and `why` says what is wrong with it.
public struct EngineError: Error, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// An id that names no item the current user has (-32002).
        case notFound
        /// A well-formed request this item does not allow (-32003).
        case notAllowed
        /// Refused while the SDK is disabled (-32004).
        case sdkDisabled
        /// Local storage failed (-32007).
        case storage
        /// Params the schema cannot rule out: a click on a flag, placements of cards (-32602).
        case invalidParams
    }

    public var kind: Kind
    public var field: String
    public var why: String

    public init(_ kind: Kind, field: String = "", _ why: String) {
        self.kind = kind
        self.field = field
        self.why = why
    }

    public static let sdkDisabled = EngineError(.sdkDisabled, "the SDK is disabled")
    static func storage(_ error: StoreError) -> EngineError { EngineError(.storage, error.message) }
}

/// One subscription: its opaque id, channel and pattern.
struct Subscription {
    let id: String
    let channel: Channel
    let kind: SubscriptionKind
}

/// A refresh of one channel waiting for the definitions source.
struct RefreshRequest {
    let channel: Channel
    let reason: DataUpdatedReason
    /// Banners only: the placements to refresh; nil means every placement.
    let placementIds: [String]?
    /// The user it was made for; a refresh for an earlier user is dropped.
    let userGeneration: Int
}

/// A small, fast generator: seeded from the system for ids and jitter in
/// production, from a fixed seed in tests so that retry delays are known.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 128 random bits as 32 hex digits: event, session and device ids.
    public mutating func identifier() -> String {
        let high = String(next(), radix: 16)
        let low = String(next(), radix: 16)
        return String(repeating: "0", count: 16 - high.count) + high + String(repeating: "0", count: 16 - low.count) + low
    }
}
