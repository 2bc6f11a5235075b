import BuntingJSON

/// Everything the engine tells its client, as values; the server turns each
/// into a notification (the one place that knows the wire names).
///
/// Every event is addressed to one subscription. The engine emits them in the
/// order things happen, and these rules fix that order:
///
/// 1. **A reply comes before the events its request caused.** The engine
///    emits while a request is being handled; the connection holds those
///    notifications and writes them right after the reply (after a batch's
///    whole array). A request answered later (`flush`) gets its reply when
///    it is ready; events in between go out as they happen.
/// 2. **`cacheReplay` (or `error(featureDisabled)`) is the first event of an
///    event subscription**, right after the `subscribe` reply; a storage
///    problem found at start-up follows it at once, so that a client can
///    tell an empty cache from a lost one.
/// 3. **`enqueued` follows the commit of its analytics event** to the store,
///    and `flushed` (same event id) follows the sink's acceptance — and, for
///    a `flush` request, that request's reply.
/// 4. **A dismissal** is `analytics(.dismiss, .enqueued)` then
///    `dataUpdated(.clientAction)` without the item.
/// 5. **A refresh** ends in exactly one `dataUpdated` or `error` per waiting
///    channel; a failed try that will be retried says so (`sdkWillRetry`),
///    and the last one says who may retry.
/// 6. **Update subscriptions** (the deprecated pattern) get `updates` for
///    every `cacheLoad` and `dataUpdated` of their channel, and nothing else.
/// 7. **Definitions subscriptions** get `definitions(.ready)` right after
///    the subscribe reply when definitions are loaded; `changed` comes
///    before the `dataUpdated` events that the new document causes; an
///    `error` is told once per lasting problem, like the channels' ERROR.
public enum EngineEvent: Sendable {
    /// The cache as it is, right after the subscription was made.
    case cacheReplay(EventTarget, ChannelSnapshot)
    /// The cache changed without a refresh: user change, wipe, channel turned off.
    case cacheLoad(EventTarget, ChannelSnapshot)
    /// A refresh finished (even with no change), or a local change such as a dismissal.
    case dataUpdated(EventTarget, ChannelSnapshot, DataUpdatedReason)
    case error(EventTarget, ChannelProblem)
    /// An impression, click or dismissal was stored (`enqueued`) or accepted by the sink (`flushed`).
    case analytics(EventTarget, AnalyticsNotice)
    /// The deprecated pattern: the channel's data after any cache change.
    case updates(EventTarget, ChannelSnapshot)
    /// What became of the definitions, for a definitions subscription.
    case definitions(subscriptionId: String, DefinitionsNotice)

    /// The channel subscription the event is for; nil for definitions events.
    public var target: EventTarget? {
        switch self {
        case .cacheReplay(let target, _), .cacheLoad(let target, _), .dataUpdated(let target, _, _),
            .error(let target, _), .analytics(let target, _), .updates(let target, _):
            target
        case .definitions:
            nil
        }
    }
}

/// What a definitions subscription hears: the provider events of OpenFeature.
public enum DefinitionsNotice: Equatable, Sendable {
    /// The definitions in use are loaded and current: right after the
    /// subscription when they are, when the first document loads, and when
    /// the source answers again after an error without a change.
    case ready(loadedAt: Double)
    /// A new document was adopted; the flags whose resolution could differ.
    case changed(loadedAt: Double, flagsChanged: [String])
    /// The source failed or sent an invalid document; `stale`: older
    /// definitions are still served (false: none are loaded).
    case error(ChannelProblem, stale: Bool)
}

/// Who an event is for: one subscription, and its channel.
public struct EventTarget: Equatable, Sendable {
    public let subscriptionId: String
    public let channel: Channel

    public init(subscriptionId: String, channel: Channel) {
        self.subscriptionId = subscriptionId
        self.channel = channel
    }
}

/// A channel's cache as the client sees it: its data (what `getSnapshot`
/// answers under the channel's key) and when it was last synced. The data
/// is kept as text, written once from the items' own text and spliced into
/// every notification that carries it.
public struct ChannelSnapshot: Sendable, JSONText {
    public let channel: Channel
    public let encodedData: EncodedJSON
    /// Unix seconds; 0 before the first sync for this user; nil while the channel is disabled.
    public let lastSyncAt: Double?
    /// `,"lastSyncAt":N|null}`: what follows the data, written once.
    private let tail: [UInt8]

    public init(channel: Channel, encodedData: EncodedJSON, lastSyncAt: Double?) {
        self.channel = channel
        self.encodedData = encodedData
        self.lastSyncAt = lastSyncAt
        tail = Self.lastSyncAtKey + (lastSyncAt.map(JSON.number) ?? .null).encoded() + [UInt8(ascii: "}")]
    }

    /// The data as a tree, for readers that need one.
    public var data: JSON { encodedData.value }

    /// `{"<channel>": data, "lastSyncAt": N|null}`.
    public var encoded: EncodedJSON { EncodedJSON(writing: self) }

    /// The same, written straight into a larger text (a notification), so
    /// that the data, often megabytes, is copied once.
    public func appendEncoded(to output: inout [UInt8]) {
        output.append(contentsOf: Self.heads[channel]!)
        output.append(contentsOf: encodedData.bytes)
        output.append(contentsOf: tail)
    }

    public var encodedCount: Int { Self.heads[channel]!.count + encodedData.bytes.count + tail.count }

    /// The same as `key`'s value in an object, the data shared rather than
    /// copied (the notification is then written as pieces, see `SplicedJSON`).
    public func add(to object: inout EncodedJSON.ObjectBuilder, as key: EncodedJSON.Key) {
        object.add(key, prefix: Self.heads[channel]!, sharing: encodedData.bytes, suffix: tail)
    }

    /// `{"<channel>":` for each channel.
    private static let heads = Dictionary(
        uniqueKeysWithValues: Channel.allCases.map {
            ($0, [UInt8(ascii: "{")] + JSON.string($0.dataKey).encoded() + [UInt8(ascii: ":")])
        })
    private static let lastSyncAtKey = Array(#","lastSyncAt":"#.utf8)

    public var json: JSON { encoded.value }
}

/// An ERROR event: what failed, and who (if anyone) tries again.
public struct ChannelProblem: Equatable, Sendable {
    public let reason: ErrorReason
    public let retryState: RetryState
    /// When a rate limit ends (Unix seconds).
    public let rateLimitedUntil: Double?
    public let message: String?

    public init(
        _ reason: ErrorReason, _ retryState: RetryState, rateLimitedUntil: Double? = nil, message: String? = nil
    ) {
        self.reason = reason
        self.retryState = retryState
        self.rateLimitedUntil = rateLimitedUntil
        self.message = message
    }
}

/// An analytics event as its notification tells it.
public struct AnalyticsNotice: Sendable {
    public let kind: AnalyticsEvent.Kind
    public let action: AnalyticsAction
    public let eventId: String
    /// The item as the client saw it (card, banner or flag).
    public let item: JSON
    public let buttonId: String?

    public init(kind: AnalyticsEvent.Kind, action: AnalyticsAction, eventId: String, item: JSON, buttonId: String?) {
        self.kind = kind
        self.action = action
        self.eventId = eventId
        self.item = item
        self.buttonId = buttonId
    }
}

/// Where an analytics event is: saved locally, or accepted by the sink.
public enum AnalyticsAction: Sendable {
    case enqueued
    case flushed
}

/// Why a cache changed, as DATA_UPDATED reports it.
public enum DataUpdatedReason: Sendable {
    case autoServerRefresh
    case manualServerRefresh
    case clientAction
}

/// The `reason` of an ERROR event.
public enum ErrorReason: Sendable {
    case serverError
    case clientError
    case rateLimited
    case sdkDisabled
    case invalidServerData
    case featureDisabled
}

/// The `retryState` of an ERROR event: who, if anyone, tries again.
public enum RetryState: Sendable {
    case sdkWillRetry
    case integratorMayRetry
    case doNotRetry
}
