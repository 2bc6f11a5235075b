import BuntingJSON
import BuntingRuntime

/// What the stream needs of the engine it works for: whether to connect at
/// all, and who hears that it is down.
protocol DefinitionsStreamDelegate: AnyObject {
    var isSDKEnabled: Bool { get }
    var subscribedChannels: [Channel] { get }
    var hasDefinitionsSubscribers: Bool { get }
    func sendError(_ channel: Channel, _ error: ChannelProblem)
    func tellDefinitions(_ notice: DefinitionsNotice)
}

/// Definitions pushed over a Server-Sent Events stream, beside the
/// fetcher's source: the connection, reconnecting it, and what its events
/// mean. Owned by the engine's loop; documents go to the `fetcher`, which
/// compiles and adopts them as it does what it fetched.
///
/// - An event carrying a document is adopted as if fetched; an empty one
///   makes the fetcher check its source. Documents are coalesced: one is
///   compiled at a time, and of those that came meanwhile the last wins.
/// - While connected, the fetcher's polls wait; while down, they go on.
/// - A connection that ends is tried again: after `retry:` (or
///   `--retry-initial-delay`), doubling with jitter up to
///   `--retry-max-delay`, never sooner than `minimumReconnectDelay`, and
///   with `Last-Event-ID`. It is never given up: a refusal (a 404, an HTML
///   page) is tried again after `--retry-max-delay`.
/// - An outage is told once, as an ERROR to the subscribed channels and the
///   definitions subscribers, when a try to connect fails (a connection that
///   drops and comes back at the first try is no outage); again only if what
///   fails changes its reason or retry state; READY when it is back.
///
/// `@unchecked Sendable`: confined to the loop; captured by jobs that run on
/// that loop only.
final class DefinitionsStream: @unchecked Sendable {
    private let loop: EventLoop
    private let fetcher: DefinitionsFetcher
    private let retry: RetryPolicy
    private let random: RandomSource
    weak var delegate: (any DefinitionsStreamDelegate)?

    /// Reconnections are at most this frequent, whatever the server says.
    static let minimumReconnectDelay = 0.1
    /// A connection that lasted this long was a good one: its end starts a
    /// new count of failed tries (as one that brought an event does).
    static let lastingConnection = 10.0

    // MARK: State

    private var source: (any DefinitionsStreamSource)?
    /// The source was announced by the definitions server, not given.
    private var discovered = false
    private var connection: (any StreamConnection)?
    /// Where the connection under way reports; reports of another are stale.
    private var inbox: StreamInbox?
    private var isConnected = false
    /// Unix time of the last change: connected since, or down since.
    private var since: Double?
    /// Monotonic time the connection under way opened.
    private var openedAt: Double?
    private var eventsOnConnection = 0
    private var lastEventId: String?
    /// Connections tried after the first.
    private var reconnects = 0
    private var connections = 0
    private var events = 0
    /// Tries that failed since the stream last worked.
    private var failedTries = 0
    /// The server's `retry:`, in seconds.
    private var serverRetry: Double?
    private var reconnectTimer: EventLoop.TimerToken?
    /// The ERROR told for the outage under way.
    private var toldError: ChannelProblem?
    private var lastError: String?
    /// A document that came while another was compiled: the next to compile.
    private var nextDocument: [UInt8]?
    private var compiling = false
    private var isShutDown = false

    /// `source`: the stream given on the command line, if any.
    init(
        source: (any DefinitionsStreamSource)?, loop: EventLoop, fetcher: DefinitionsFetcher, retry: RetryPolicy,
        random: RandomSource
    ) {
        self.source = source
        self.loop = loop
        self.fetcher = fetcher
        self.retry = retry
        self.random = random
    }

    private var now: Double { loop.clock.unixTime() }
    private var location: String { source?.location ?? "(no stream)" }

    // MARK: - Start and stop

    /// Connects the stream given on the command line.
    func start() {
        if source != nil { connect() }
    }

    /// The definitions server announced a stream: it is used unless one was
    /// given or is already in use.
    func announced(_ stream: any DefinitionsStreamSource) {
        guard source == nil, !isShutDown else { return }
        log.info("the definitions server announces a stream at \(stream.location)")
        source = stream
        discovered = true
        connect()
    }

    /// The connection ends; nothing is tried again.
    func shutDown() {
        isShutDown = true
        disconnect()
        nextDocument = nil
    }

    /// The SDK was turned off: nothing goes to the network.
    func pause() {
        disconnect()
        nextDocument = nil
        failedTries = 0
        toldError = nil
    }

    /// The SDK is back on.
    func resume() {
        guard source != nil, connection == nil, reconnectTimer == nil else { return }
        connect()
    }

    private func disconnect() {
        connection?.close()
        connection = nil
        inbox = nil
        if let reconnectTimer { loop.cancel(reconnectTimer) }
        reconnectTimer = nil
        if isConnected { since = now }
        isConnected = false
        fetcher.streamConnected = false
    }

    // MARK: - Connecting

    private func connect() {
        guard let source, !isShutDown, delegate?.isSDKEnabled ?? false else { return }
        if connections > 0 { reconnects += 1 }
        connections += 1
        let inbox = StreamInbox(loop: loop) { [weak self] inbox in self?.takeReports(from: inbox) }
        self.inbox = inbox
        if since == nil { since = now }
        log.debug("connecting to the definitions stream at \(source.location)")
        connection = source.connect(lastEventId: lastEventId) { report in inbox.receive(report) }
    }

    private func takeReports(from reporting: StreamInbox) {
        // A connection closed since it reported is no longer heard.
        guard let inbox, inbox === reporting else { return }
        let batch = inbox.take()
        if batch.opened { opened() }
        events += batch.events
        eventsOnConnection += batch.events
        if let id = batch.lastEventId { lastEventId = id }
        if let seconds = batch.retry { serverRetry = seconds }
        if let limit = batch.oversized {
            fetcher.reportPushedProblem(
                "an event larger than \(limit) bytes (--max-document-size) was skipped", from: location)
            // It may have held the change: the source may have it.
            fetcher.checkNow()
        }
        if let document = batch.document { adopt(document) }
        if batch.refetch { fetcher.checkNow() }
        if let failure = batch.ended { ended(failure) }
    }

    private func opened() {
        isConnected = true
        since = now
        openedAt = loop.clock.monotonicTime()
        eventsOnConnection = 0
        lastError = nil
        fetcher.streamConnected = true
        log.info("connected to the definitions stream at \(location)")
        if let toldError {
            self.toldError = nil
            log.warning("the definitions stream at \(location) is back (was: \(toldError.message ?? "down"))")
            if let delegate, delegate.hasDefinitionsSubscribers, fetcher.definitions != nil, fetcher.lastProblem == nil,
                let loadedAt = fetcher.loadedAt
            {
                delegate.tellDefinitions(.ready(loadedAt: loadedAt))
            }
        }
        // A change made while the stream was down and after the last poll
        // would wait for the next one: ask now (a 304 when nothing changed).
        if reconnects > 0 { fetcher.checkNow() }
    }

    private func ended(_ failure: RemoteError) {
        let wasConnected = isConnected
        let lasted = openedAt.map { loop.clock.monotonicTime() - $0 } ?? 0
        let wasGood = wasConnected && (eventsOnConnection > 0 || lasted >= Self.lastingConnection)
        connection = nil
        inbox = nil
        isConnected = false
        openedAt = nil
        since = now
        lastError = failure.message
        fetcher.streamConnected = false
        if wasGood { failedTries = 0 }
        failedTries += 1
        if wasGood {
            log.info("the definitions stream at \(location) ended (\(failure.message)); connecting again")
        } else {
            tellOutage(failure)
        }
        let delay = reconnectDelay(after: failure)
        log.debug("next try of the definitions stream at \(location) in \(delay) s")
        reconnectTimer = loop.schedule(after: delay) { [self] in
            reconnectTimer = nil
            connect()
        }
    }

    /// Failures the server may get over are tried again with backoff; a
    /// refusal after the longest delay, so that a stream fixed later is
    /// found again without hammering one that is not.
    private func reconnectDelay(after failure: RemoteError) -> Double {
        let delay: Double
        if let until = failure.retryAfter {
            delay = min(max(0, until - now), retry.maxDelay)
        } else if failure.isRetried {
            let base = min(serverRetry ?? retry.initialDelay, retry.maxDelay)
            delay = random.delay(
                RetryPolicy(initialDelay: base, maxDelay: retry.maxDelay, maxRetries: .max), beforeRetry: failedTries)
        } else {
            delay = retry.maxDelay
        }
        return max(delay, Self.minimumReconnectDelay)
    }

    /// The ERROR of an outage: told when it begins, and again only when
    /// what fails changes its reason or retry state, never once per try.
    private func tellOutage(_ failure: RemoteError) {
        let error = ChannelProblem(
            failure.errorReason, failure.isRetried ? .sdkWillRetry : .doNotRetry, rateLimitedUntil: failure.retryAfter,
            message: "the definitions stream at \(location) is down (\(failure.message)); "
                + (failure.isRetried ? "connecting again" : "tried again every \(seconds(retry.maxDelay)) s")
                + ", polling meanwhile")
        if let toldError, toldError.reason == error.reason, toldError.retryState == error.retryState { return }
        toldError = error
        log.warning(error.message ?? "")
        guard let delegate else { return }
        for channel in delegate.subscribedChannels { delegate.sendError(channel, error) }
        if delegate.hasDefinitionsSubscribers {
            delegate.tellDefinitions(.error(error, stale: fetcher.definitions != nil))
        }
    }

    /// `30` rather than `30.0`.
    private func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    // MARK: - Documents

    /// One document compiles at a time; of those that come meanwhile, the last is next.
    private func adopt(_ document: [UInt8]) {
        guard !compiling else {
            nextDocument = document
            return
        }
        compiling = true
        fetcher.adoptPushed(document, from: location) { [self] in
            compiling = false
            if let next = nextDocument, !isShutDown {
                nextDocument = nil
                adopt(next)
            }
        }
    }

    // MARK: - Status

    /// `status.stream`, when there is a stream.
    var status: JSONObject? {
        guard let source else { return nil }
        var status: JSONObject = [
            "location": .string(source.location),
            "discovered": .bool(discovered),
            "connected": .bool(isConnected),
            "reconnects": .int(reconnects),
            "events": .int(events),
        ]
        if let since { status["since"] = .number(since) }
        if let lastEventId { status["lastEventId"] = .string(lastEventId) }
        if let lastError, !isConnected { status["lastError"] = .string(lastError) }
        return status
    }
}
