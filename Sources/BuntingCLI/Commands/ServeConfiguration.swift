#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingHTTP
import BuntingJSONRPC
import BuntingRuntime
import BuntingStorage

/// Everything `bunting serve` was asked for, checked. Defaults are not kept
/// here: each setting starts from the default of the layer it configures
/// (the engine's, the HTTP client's, the server's), and the help text prints
/// those same values.
struct ServeConfiguration {
    /// A file path or an http(s) URL; nil means the example bundled in the binary.
    var definitions: String?
    /// An http(s) URL of a Server-Sent Events stream of the definitions.
    var stream: String?
    /// The largest definitions document: a file, a URL's answer, a stream's event.
    var maxDocumentBytes = HTTPSource.defaultMaxBytes
    /// A directory, or `:memory:` to keep nothing on disk; nil means the default state directory.
    var storage: String?
    /// Where notes of documents that loaded are kept; nil means the storage directory's.
    var cacheDirectory: String?
    /// Keep no notes of documents that loaded, and use none.
    var noCache = false
    /// How long the store keeps users not seen, and how much of each.
    var retention = UserRetention()
    /// An NDJSON file path or an http(s) URL; nil means no sink (events stay queued).
    var sink: String?
    /// Nil: the engine's default for the kind of source (a file is watched closely, a URL polled less often).
    var pollInterval: Double?
    var logLevel: LogLevel = .warning
    /// Serve even when a local definitions file cannot be read or parsed at start-up.
    var startWithoutDefinitions = false
    /// Refuse a definitions document with any problem, instead of serving the rest.
    var strict = false
    /// Decrypts an encrypted GrowthBook payload (base64 of its 16-byte key).
    var decryptionKey: String?
    var engine = Engine.Configuration()
    var server = StdioServer.Options()
    /// Timeouts, CA file and headers of the HTTP definitions source and sink.
    var http = HTTPSettings()
    /// `--clock manual[=TIME]` and `--faults`, for testing campaigns.
    var testing = ServeTesting.Options()

    private static let engineDefaults = Engine.Configuration()
    private static let serverDefaults = StdioServer.Options()
    private static let httpDefaults = HTTPSettings()

    static let specs: [OptionSpec] = [
        OptionSpec(
            name: "definitions", valueName: "PATH|URL",
            help: "the definitions document: a file (watched "
                + "for changes)\nor an http(s):// URL (polled); default: the bundled example"),
        OptionSpec(
            name: "stream", valueName: "URL",
            help: "a Server-Sent Events stream of the definitions "
                + "(nchan, or\nGrowthBook's {apiHost}/sub/{clientKey}, found without this\noption from its "
                + "x-sse-support header): an event's document is\nadopted at once, an empty "
                + "one ({}) fetches --definitions again;\npolls wait while it is connected"
        ),
        OptionSpec(
            name: "stream-idle-timeout", valueName: "S",
            help: "seconds the stream may send nothing, not "
                + "even a comment,\nbefore it counts as dropped and is connected "
                + "again (default: \(seconds(httpDefaults.streamIdleTimeout)))"
        ),
        OptionSpec(
            name: "max-document-size", valueName: "BYTES",
            help: "largest definitions document: a file, "
                + "a URL's answer or an\nevent of the stream (default: \(HTTPSource.defaultMaxBytes))"),
        OptionSpec(
            name: "decryption-key", valueName: "KEY",
            help: "the key (base64) that decrypts an encrypted "
                + "GrowthBook payload\n(its encryptedFeatures and "
                + "encryptedSavedGroups); from the\nGrowthBook SDK connection"
        ),
        OptionSpec(
            name: "strict", valueName: nil,
            help: "refuse a definitions document with any problem at all "
                + "(by\ndefault, as flagd: a broken flag resolves as flagd does, "
                + "a\nbroken banner or card is left out, and the rest serves)"
        ),
        OptionSpec(
            name: "start-without-definitions", valueName: nil,
            help: "serve even if the --definitions "
                + "file cannot be read or\nparsed at start-up (subscribers are told why; it is polled)"),
        OptionSpec(
            name: "storage", valueName: "DIR",
            help: "where the SQLite store lives (made 0700; it must "
                + "be this\nuser's and writable by no one else; one server at a time);\n':memory:' keeps "
                + "nothing on disk (default:\n$XDG_STATE_HOME/bunting, else ~/.local/state/bunting)"
        ),
        OptionSpec(
            name: "forget-after", valueName: "DAYS",
            help: "forget stored users (caches, item states, "
                + "attributes) not seen\nfor DAYS, the current user never; 0 keeps the current user\nonly "
                + "(default: \(seconds(UserRetention.defaultForgetAfterDays)); a user's item states "
                + "are\nkept up to \(UserRetention.defaultMaxItemStatesPerUser), the oldest forgotten first)"
        ),
        OptionSpec(
            name: "cache-dir", valueName: "DIR",
            help: "where to note each definitions document that "
                + "loaded, so that\na start on the same document answers at once while it is\nchecked and compiled "
                + "in the background: notes go in\nDIR/bunting-known-definitions, nothing else in DIR is "
                + "touched\n(default: the storage directory's known-definitions; none\nwith ':memory:')"
        ),
        OptionSpec(
            name: "no-cache", valueName: nil,
            help: "neither use nor keep notes of documents that "
                + "loaded:\nevery start checks and compiles before it serves"),
        OptionSpec(
            name: "sink", valueName: "PATH|URL",
            help: "where analytics go: an NDJSON file (appended) or an\nhttp(s):// URL receiving POSTed batches"),
        OptionSpec(
            name: "framing", valueName: "auto|ndjson|lsp",
            help: "input and output framing (default: auto, from the first bytes)"),
        OptionSpec(
            name: "poll-interval", valueName: "S",
            help: "seconds between checks of the definitions for "
                + "changes\n(default: \(seconds(Engine.Configuration.defaultPollInterval(localSource: true))) "
                + "for a file, \(seconds(Engine.Configuration.defaultPollInterval(localSource: false))) for a URL)"
        ),
        OptionSpec(
            name: "flush-interval", valueName: "S",
            help: "seconds between sends of queued analytics (default: \(seconds(engineDefaults.flushInterval)))"),
        OptionSpec(
            name: "max-queued-events", valueName: "N",
            help: "analytics events kept for the sink; past "
                + "N the oldest\nare dropped, with an ERROR event (default: \(engineDefaults.maxQueuedEvents))"),
        OptionSpec(
            name: "retry-initial-delay", valueName: "S",
            help: "first delay before retrying a failed "
                + "fetch (default: \(seconds(engineDefaults.retry.initialDelay)))"),
        OptionSpec(
            name: "retry-max-delay", valueName: "S",
            help: "cap of the doubling retry delay (default: \(seconds(engineDefaults.retry.maxDelay)))"),
        OptionSpec(
            name: "retry-max-attempts", valueName: "N",
            help: "retries of a failed fetch before giving up (default: \(engineDefaults.retry.maxRetries))"),
        OptionSpec(
            name: "refresh-rate-limit", valueName: "N/S",
            help: "manual refreshes per channel: N tokens, "
                + "one back every S seconds\n(default: the Braze SDKs' per-channel buckets)"),
        OptionSpec(
            name: "shutdown-timeout", valueName: "S",
            help: "longest wait at end of input or shutdown "
                + "for a fetch under\nway and the last flush of analytics "
                + "(default: \(seconds(engineDefaults.shutdownTimeout)))"
        ),
        OptionSpec(
            name: "header", valueName: "'NAME: VALUE'",
            help: "a header sent with every request to the "
                + "--definitions,\n--stream and --sink URLs (API keys, tokens); repeatable;\nnever logged",
            repeatable: true),
        OptionSpec(
            name: "ca-file", valueName: "PATH",
            help: "PEM certificates to trust for https:// URLs instead "
                + "of the\nsystem's (TLS certificates are always verified)"),
        OptionSpec(
            name: "connect-timeout", valueName: "S",
            help: "seconds to wait for an HTTP connection (default: \(seconds(httpDefaults.connectTimeout)))"),
        OptionSpec(
            name: "timeout", valueName: "S",
            help: "seconds one HTTP request may take in all (default: \(seconds(httpDefaults.timeout)))"),
        OptionSpec(
            name: "clock", valueName: "system|manual[=TIME]",
            help: "the server's clock: the machine's "
                + "(default), or, for test\nscripts, one that moves only when told "
                + "(setClock,\nadvanceClock), starting at TIME (Unix seconds or RFC 3339;\ndefault: now)"
        ),
        OptionSpec(
            name: "faults", valueName: nil,
            help: "for test scripts: allow injectFault, which makes the "
                + "next\nrequests to the definitions, the sink or the stream fail as\nasked, and clearFaults"),
        OptionSpec(
            name: "log-level", valueName: "LEVEL",
            help: "stderr logging: off, error, warn, info or debug (default: warn)"),
        OptionSpec(
            name: "max-message-size", valueName: "BYTES",
            help: "largest message accepted (default: \(serverDefaults.maxMessageBytes))"),
        OptionSpec(
            name: "max-subscriptions", valueName: "N",
            help: "subscriptions the server keeps at once; "
                + "past N, subscribe is\nanswered LIMIT_REACHED (default: \(engineDefaults.maxSubscriptions))"),
        OptionSpec(
            name: "max-reply-size", valueName: "BYTES",
            help: "largest result one reply may carry; a "
                + "larger one is answered\nREPLY_TOO_LARGE (default: \(serverDefaults.limits.maxReplyBytes))"),
        OptionSpec(name: "help", valueName: nil, help: "show this help"),
    ]

    /// `1` rather than `1.0` in help texts.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    init(_ options: ParsedOptions) throws(UsageError) {
        if let positional = options.positionals.first {
            throw UsageError("unexpected argument '\(positional)'", command: "serve")
        }
        definitions = options.value("definitions")
        stream = options.value("stream")
        if let value = options.value("max-document-size") {
            guard let bytes = Int(value), bytes >= 1024 else {
                throw UsageError("--max-document-size must be a byte count ≥ 1024, not '\(value)'", command: "serve")
            }
            maxDocumentBytes = bytes
        }
        decryptionKey = options.value("decryption-key")
        storage = options.value("storage")
        sink = options.value("sink")
        cacheDirectory = options.value("cache-dir")
        noCache = options.has("no-cache")
        if noCache, cacheDirectory != nil {
            throw UsageError("--cache-dir and --no-cache cannot be given together", command: "serve")
        }
        if let value = options.value("forget-after") {
            guard let days = Double(value), days.isFinite, days >= 0, days <= 1_000_000 else {
                throw UsageError("--forget-after must be a number of days ≥ 0, not '\(value)'", command: "serve")
            }
            retention.forgetAfter = days * 86_400
        }
        startWithoutDefinitions = options.has("start-without-definitions")
        strict = options.has("strict")
        if let value = options.value("framing") {
            guard let choice = FramingChoice(rawValue: value) else {
                throw UsageError("--framing must be auto, ndjson or lsp, not '\(value)'", command: "serve")
            }
            server.framing = choice
        }
        if options.has("poll-interval") {
            pollInterval = try Self.interval(options, "poll-interval", default: 0)
        }
        engine.flushInterval = try Self.interval(options, "flush-interval", default: engine.flushInterval)
        engine.retry.initialDelay = try Self.seconds(
            options, "retry-initial-delay", default: engine.retry.initialDelay, allowZero: true)
        engine.retry.maxDelay = try Self.seconds(
            options, "retry-max-delay", default: engine.retry.maxDelay, allowZero: true)
        engine.shutdownTimeout = try Self.seconds(
            options, "shutdown-timeout", default: engine.shutdownTimeout, allowZero: true)
        if let value = options.value("max-queued-events") {
            guard let count = Int(value), count >= 1 else {
                throw UsageError("--max-queued-events must be a whole number ≥ 1, not '\(value)'", command: "serve")
            }
            engine.maxQueuedEvents = count
        }
        if let value = options.value("max-subscriptions") {
            guard let count = Int(value), count >= 1 else {
                throw UsageError("--max-subscriptions must be a whole number ≥ 1, not '\(value)'", command: "serve")
            }
            engine.maxSubscriptions = count
        }
        if let value = options.value("retry-max-attempts") {
            guard let attempts = Int(value), attempts >= 0 else {
                throw UsageError("--retry-max-attempts must be a whole number ≥ 0, not '\(value)'", command: "serve")
            }
            engine.retry.maxRetries = attempts
        }
        if let value = options.value("refresh-rate-limit") {
            let parts = value.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let tokens = Int(parts[0]), tokens >= 1,
                let seconds = Double(parts[1]), seconds > 0, seconds.isFinite
            else {
                throw UsageError(
                    "--refresh-rate-limit must be N/S (tokens ≥ 1 / seconds > 0), not '\(value)'", command: "serve"
                )
            }
            for channel in Channel.allCases {
                let perSession = TokenBucket.defaultRules[channel]?.refillsPerSession ?? false
                engine.refreshRules[channel] = TokenBucket.Rule(
                    capacity: tokens, refillInterval: seconds, refillsPerSession: perSession)
            }
        }
        for text in options.all("header") {
            do {
                http.headers.append(try HTTPHeader(parsing: text))
            } catch {
                throw UsageError("--header: \(error.why)", command: "serve")
            }
        }
        if let path = options.value("ca-file") {
            guard access(path, R_OK) == 0 else {
                throw UsageError(
                    "--ca-file: cannot read '\(path)': \(String(cString: strerror(errno)))", command: "serve")
            }
            http.caFile = path
        }
        http.connectTimeout = try Self.seconds(
            options, "connect-timeout", default: http.connectTimeout, allowZero: false)
        http.timeout = try Self.seconds(options, "timeout", default: http.timeout, allowZero: false)
        http.streamIdleTimeout = try Self.interval(options, "stream-idle-timeout", default: http.streamIdleTimeout)
        if let value = options.value("log-level") {
            guard let level = LogLevel(name: value) else {
                throw UsageError(
                    "--log-level must be off, error, warn, info or debug, not '\(value)'", command: "serve")
            }
            logLevel = level
        }
        if let value = options.value("max-message-size") {
            guard let bytes = Int(value), bytes >= 1024 else {
                throw UsageError("--max-message-size must be a byte count ≥ 1024, not '\(value)'", command: "serve")
            }
            server.maxMessageBytes = bytes
        }
        if let value = options.value("max-reply-size") {
            guard let bytes = Int(value), bytes >= 1024 else {
                throw UsageError("--max-reply-size must be a byte count ≥ 1024, not '\(value)'", command: "serve")
            }
            server.limits.maxReplyBytes = bytes
        }
        testing = try ServeTesting.Options(clock: options.value("clock"), faults: options.has("faults"))
        // The last output gets as long as the rest of the shutdown.
        server.outputDrainTimeout = max(1, engine.shutdownTimeout)
    }

    /// The engine's configuration for a source of this kind.
    func engineConfiguration(localSource: Bool) -> Engine.Configuration {
        var configuration = engine
        configuration.pollInterval = pollInterval ?? Engine.Configuration.defaultPollInterval(localSource: localSource)
        return configuration
    }

    /// Intervals of timers that repeat have a floor: below a millisecond a
    /// timer came due again before it had run, and the loop did nothing else.
    static let minimumInterval = 0.001

    private static func interval(_ options: ParsedOptions, _ name: String, default value: Double) throws(UsageError)
        -> Double
    {
        let seconds = try Self.seconds(options, name, default: value, allowZero: false)
        guard seconds >= minimumInterval else {
            throw UsageError(
                "--\(name) must be at least \(minimumInterval) seconds, not '\(options.value(name) ?? "")'",
                command: "serve")
        }
        return seconds
    }

    private static func seconds(_ options: ParsedOptions, _ name: String, default value: Double, allowZero: Bool)
        throws(UsageError) -> Double
    {
        guard let text = options.value(name) else { return value }
        guard let seconds = Double(text), seconds.isFinite, allowZero ? seconds >= 0 : seconds > 0 else {
            throw UsageError(
                "--\(name) must be a number of seconds \(allowZero ? "≥ 0" : "> 0"), not '\(text)'",
                command: "serve")
        }
        return seconds
    }
}
