#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingHTTP
import BuntingJSONRPC
import BuntingServer
import BuntingRuntime

/// Everything `bunting serve` was asked for, checked and with defaults filled in.
public struct ServeConfiguration: Equatable, Sendable {
    /// A file path or an http(s) URL; nil means the example bundled in the binary.
    public var definitions: String?
    /// A directory, or `:memory:` to keep nothing on disk; nil means the default state directory.
    public var storage: String?
    /// An NDJSON file path or an http(s) URL; nil means no sink (events stay queued).
    public var sink: String?
    public var framing: FramingChoice = .auto
    /// Nil: one second for a file, 30 for a server.
    public var pollInterval: Double?
    public var flushInterval = 10.0
    /// Past this many queued analytics events the oldest are dropped (with an ERROR).
    public var maxQueuedEvents = Engine.Configuration().maxQueuedEvents
    public var retryInitialDelay = 1.0
    public var retryMaxDelay = 30.0
    public var retryMaxAttempts = 5
    /// Overrides every channel's manual-refresh bucket: N tokens, one back every S seconds.
    public var refreshRateLimit: (tokens: Int, seconds: Double)?
    public var logLevel: LogLevel = .warning
    public var maxMessageBytes = 16 << 20
    /// Timeouts, CA file and headers of the HTTP definitions source and sink.
    public var http = HTTPSettings()

    public init() {}

    public static func == (lhs: ServeConfiguration, rhs: ServeConfiguration) -> Bool {
        lhs.definitions == rhs.definitions && lhs.storage == rhs.storage && lhs.sink == rhs.sink
            && lhs.framing == rhs.framing && lhs.pollInterval == rhs.pollInterval
            && lhs.flushInterval == rhs.flushInterval && lhs.maxQueuedEvents == rhs.maxQueuedEvents
            && lhs.retryInitialDelay == rhs.retryInitialDelay
            && lhs.retryMaxDelay == rhs.retryMaxDelay && lhs.retryMaxAttempts == rhs.retryMaxAttempts
            && lhs.refreshRateLimit?.tokens == rhs.refreshRateLimit?.tokens
            && lhs.refreshRateLimit?.seconds == rhs.refreshRateLimit?.seconds
            && lhs.logLevel == rhs.logLevel && lhs.maxMessageBytes == rhs.maxMessageBytes && lhs.http == rhs.http
    }

    static let specs: [OptionSpec] = [
        OptionSpec(name: "definitions", valueName: "PATH|URL", help: "the definitions document: a file (watched for changes)\nor an http(s):// URL (polled); default: the bundled example"),
        OptionSpec(name: "storage", valueName: "DIR", help: "where the SQLite store lives (made 0700; one server at a\ntime); ':memory:' keeps nothing on disk (default:\n$XDG_STATE_HOME/bunting, else ~/.local/state/bunting)"),
        OptionSpec(name: "sink", valueName: "PATH|URL", help: "where analytics go: an NDJSON file (appended) or an\nhttp(s):// URL receiving POSTed batches"),
        OptionSpec(name: "framing", valueName: "auto|ndjson|lsp", help: "input and output framing (default: auto, from the first bytes)"),
        OptionSpec(name: "poll-interval", valueName: "S", help: "seconds between checks of the definitions for changes\n(default: 1 for a file, 30 for a URL)"),
        OptionSpec(name: "flush-interval", valueName: "S", help: "seconds between sends of queued analytics (default: 10)"),
        OptionSpec(name: "max-queued-events", valueName: "N", help: "analytics events kept for the sink; past N the oldest\nare dropped, with an ERROR event (default: 10000)"),
        OptionSpec(name: "retry-initial-delay", valueName: "S", help: "first delay before retrying a failed fetch (default: 1)"),
        OptionSpec(name: "retry-max-delay", valueName: "S", help: "cap of the doubling retry delay (default: 30)"),
        OptionSpec(name: "retry-max-attempts", valueName: "N", help: "retries of a failed fetch before giving up (default: 5)"),
        OptionSpec(name: "refresh-rate-limit", valueName: "N/S", help: "manual refreshes per channel: N tokens, one back every S seconds\n(default: the Braze SDKs' per-channel buckets)"),
        OptionSpec(name: "header", valueName: "'NAME: VALUE'", help: "a header sent with every request to the --definitions and\n--sink URLs (API keys, tokens); repeatable; never logged", repeatable: true),
        OptionSpec(name: "ca-file", valueName: "PATH", help: "PEM certificates to trust for https:// URLs instead of the\nsystem's (TLS certificates are always verified)"),
        OptionSpec(name: "connect-timeout", valueName: "S", help: "seconds to wait for an HTTP connection (default: 10)"),
        OptionSpec(name: "timeout", valueName: "S", help: "seconds one HTTP request may take in all (default: 30)"),
        OptionSpec(name: "log-level", valueName: "LEVEL", help: "stderr logging: off, error, warn, info or debug (default: warn)"),
        OptionSpec(name: "max-message-size", valueName: "BYTES", help: "largest message accepted (default: 16777216)"),
        OptionSpec(name: "help", valueName: nil, help: "show this help"),
    ]

    init(_ options: ParsedOptions) throws(UsageError) {
        if let positional = options.positionals.first {
            throw UsageError("unexpected argument '\(positional)'", command: "serve")
        }
        definitions = options.value("definitions")
        storage = options.value("storage")
        sink = options.value("sink")
        if let value = options.value("framing") {
            guard let choice = FramingChoice(rawValue: value) else {
                throw UsageError("--framing must be auto, ndjson or lsp, not '\(value)'", command: "serve")
            }
            framing = choice
        }
        if options.has("poll-interval") {
            pollInterval = try Self.seconds(options, "poll-interval", default: 0, allowZero: false)
        }
        flushInterval = try Self.seconds(options, "flush-interval", default: flushInterval, allowZero: false)
        retryInitialDelay = try Self.seconds(options, "retry-initial-delay", default: retryInitialDelay, allowZero: true)
        retryMaxDelay = try Self.seconds(options, "retry-max-delay", default: retryMaxDelay, allowZero: true)
        if let value = options.value("max-queued-events") {
            guard let count = Int(value), count >= 1 else {
                throw UsageError("--max-queued-events must be a whole number ≥ 1, not '\(value)'", command: "serve")
            }
            maxQueuedEvents = count
        }
        if let value = options.value("retry-max-attempts") {
            guard let attempts = Int(value), attempts >= 0 else {
                throw UsageError("--retry-max-attempts must be a whole number ≥ 0, not '\(value)'", command: "serve")
            }
            retryMaxAttempts = attempts
        }
        if let value = options.value("refresh-rate-limit") {
            let parts = value.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let tokens = Int(parts[0]), tokens >= 1,
                  let seconds = Double(parts[1]), seconds > 0, seconds.isFinite
            else {
                throw UsageError("--refresh-rate-limit must be N/S (tokens ≥ 1 / seconds > 0), not '\(value)'", command: "serve")
            }
            refreshRateLimit = (tokens, seconds)
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
                throw UsageError("--ca-file: cannot read '\(path)': \(String(cString: strerror(errno)))", command: "serve")
            }
            http.caFile = path
        }
        http.connectTimeout = try Self.seconds(options, "connect-timeout", default: http.connectTimeout, allowZero: false)
        http.timeout = try Self.seconds(options, "timeout", default: http.timeout, allowZero: false)
        if let value = options.value("log-level") {
            guard let level = LogLevel(name: value) else {
                throw UsageError("--log-level must be off, error, warn, info or debug, not '\(value)'", command: "serve")
            }
            logLevel = level
        }
        if let value = options.value("max-message-size") {
            guard let bytes = Int(value), bytes >= 1024 else {
                throw UsageError("--max-message-size must be a byte count ≥ 1024, not '\(value)'", command: "serve")
            }
            maxMessageBytes = bytes
        }
    }

    private static func seconds(_ options: ParsedOptions, _ name: String, default value: Double, allowZero: Bool) throws(UsageError) -> Double {
        guard let text = options.value(name) else { return value }
        guard let seconds = Double(text), seconds.isFinite, allowZero ? seconds >= 0 : seconds > 0 else {
            throw UsageError("--\(name) must be a number of seconds \(allowZero ? "≥ 0" : "> 0"), not '\(text)'", command: "serve")
        }
        return seconds
    }
}
