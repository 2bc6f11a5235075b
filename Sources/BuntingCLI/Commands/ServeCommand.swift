#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingDefinitions
import BuntingHTTP
import BuntingIO
import BuntingJSON
import BuntingJSONRPC
import BuntingServer
import BuntingRuntime

/// `bunting serve`: JSON-RPC on stdin/stdout until end of input or `shutdown`.
enum ServeCommand {
    static let help = helpText(
        usage: "bunting serve [options]",
        summary: """
            Serves feature flags, banners and content cards over JSON-RPC 2.0 on stdin/stdout.
            Requests are newline-delimited JSON or LSP-framed (Content-Length headers); replies
            use the framing of the input. Logs go to stderr. End of input or the `shutdown`
            method flushes pending work and exits 0.
            """,
        specs: ServeConfiguration.specs,
        footer: "Example: bunting serve --definitions examples/definitions/bunting.json --sink events.ndjson")

    static func run(_ arguments: ArraySlice<String>) throws(UsageError) -> ExitCode {
        guard let options = try ParsedOptions.unlessHelp(arguments, specs: ServeConfiguration.specs, command: "serve", help: help) else {
            return .success
        }
        let configuration = try ServeConfiguration(options)
        log.level = configuration.logLevel
        let source = try makeSource(configuration.definitions, http: configuration.http)
        let sink = try makeSink(configuration.sink, http: configuration.http)
        if sink == nil {
            log.info("no --sink: analytics stay queued until one is given")
        }
        let storage: ServeStorage
        switch ServeStorage.prepare(configuration.storage) {
        case .success(let prepared): storage = prepared
        case .failure(let refusal):
            printToStderr("bunting: \(refusal.message)\n")
            return .failure
        }
        // Over a file size limit (ulimit -f) a write then fails with EFBIG, which
        // storage reports like a full disk, instead of the signal killing the server.
        signal(SIGXFSZ, SIG_IGN)
        let engineConfiguration = engineConfiguration(configuration, localSource: source.isLocal)

        var serverOptions = StdioServer.Options()
        serverOptions.framing = configuration.framing
        serverOptions.maxMessageBytes = configuration.maxMessageBytes
        let server = StdioServer(options: serverOptions)
        log.info("bunting \(BuntingVersion.current) serving \(source.location) on stdin/stdout")
        let status = server.run { context in
            let (store, storageProblem, closeStore) = storage.open()
            let engine = Engine(
                configuration: engineConfiguration, loop: context.loop, worker: WorkerPool(), source: source,
                compile: Definitions.compiler, sink: sink, store: store
            ) { event in
                let notification = EventNotifications.notification(for: event)
                context.notify(method: notification.method, params: notification.params)
            }
            engine.start()
            if let storageProblem { engine.reportStorageProblem(storageProblem) }
            context.onShutdown { done in engine.shutDown(done) }
            context.onShutdown { done in
                closeStore()
                done()
            }
            return BuntingMethods.table(engine: engine, context: context)
        }
        // The directory's lock is held until here; the store was closed at shutdown.
        withExtendedLifetime(storage) {}
        let exitCode: ExitCode = status == 0 ? .success : .failure
        if source is HTTPSource || sink is HTTPSink {
            // A worker may still be inside libcurl (a request that outlived
            // shutdown): exit()'s clean-up handlers would tear OpenSSL down
            // under it and crash. Everything Bunting writes is out by now.
            _exit(exitCode.rawValue)
        }
        return exitCode
    }

    /// A URL was checked with the rest of the command line; libcurl itself
    /// is loaded on the first request, off the start-up path.
    static func makeSource(_ location: String?, http: HTTPSettings) throws(UsageError) -> any DefinitionsSource {
        guard let location else {
            return MemorySource(bytes: BundledExample.definitions, location: "(bundled example)")
        }
        if HTTPURL.isHTTP(location) {
            return HTTPSource(url: try url(location, option: "definitions"), settings: http)
        }
        return FileSource(path: location)
    }

    static func makeSink(_ location: String?, http: HTTPSettings) throws(UsageError) -> (any AnalyticsSink)? {
        guard let location else { return nil }
        if HTTPURL.isHTTP(location) {
            return HTTPSink(url: try url(location, option: "sink"), settings: http)
        }
        return NDJSONFileSink(path: location)
    }

    private static func url(_ text: String, option: String) throws(UsageError) -> HTTPURL {
        do {
            return try HTTPURL(text)
        } catch {
            throw UsageError("--\(option): '\(text)' \(error.why)", command: "serve")
        }
    }

    static func engineConfiguration(_ options: ServeConfiguration, localSource: Bool) -> Engine.Configuration {
        var configuration = Engine.Configuration()
        configuration.retry = RetryPolicy(
            initialDelay: options.retryInitialDelay, maxDelay: options.retryMaxDelay, maxRetries: options.retryMaxAttempts)
        configuration.flushInterval = options.flushInterval
        configuration.maxQueuedEvents = options.maxQueuedEvents
        // A file costs one stat a poll, so files are watched closely; servers are asked less often.
        configuration.pollInterval = options.pollInterval ?? (localSource ? 1 : 30)
        if let limit = options.refreshRateLimit {
            for channel in Channel.allCases {
                let perSession = TokenBucket.defaultRules[channel]?.refillsPerSession ?? false
                configuration.refreshRules[channel] = TokenBucket.Rule(
                    capacity: limit.tokens, refillInterval: limit.seconds, refillsPerSession: perSession)
            }
        }
        return configuration
    }
}
