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
        // Before any file is opened: none may take the number of a closed stdin, stdout or stderr.
        guard StandardDescriptors.guardOpen() else { return .failure }
        guard let options = try ParsedOptions.unlessHelp(arguments, specs: ServeConfiguration.specs, command: "serve", help: help) else {
            return .success
        }
        let configuration = try ServeConfiguration(options)
        log.level = configuration.logLevel
        let source = try makeSource(configuration.definitions, http: configuration.http, maxBytes: configuration.maxDocumentBytes)
        let stream = try makeStream(configuration.stream, http: configuration.http, maxBytes: configuration.maxDocumentBytes)
        let sink = try makeSink(configuration.sink, http: configuration.http)
        if sink == nil {
            log.info("no --sink: analytics stay queued until one is given")
        }
        let storage: ServeStorage
        switch ServeStorage.open(configuration.storage) {
        case .success(let opened): storage = opened
        case .failure(let refusal):
            printToStderr("bunting: \(refusal.message)\n")
            return .failure
        }
        // Over a file size limit (ulimit -f) a write then fails with EFBIG, which
        // storage reports like a full disk, instead of the signal killing the server.
        signal(SIGXFSZ, SIG_IGN)

        // A local file is read before serving: one that cannot be used is
        // refused now, with the reason, rather than found out by subscribers.
        var initialLoad: Engine.FetchOutcome?
        let notesDirectory = configuration.cacheDirectory.map { "\($0)/\(KnownDocuments.subdirectory)" } ?? storage.knownDocumentsDirectory
        let knownDocuments = configuration.noCache ? nil : notesDirectory.map { KnownDocuments(directory: $0) }
        let compiler = Definitions.compiler(strict: configuration.strict, known: knownDocuments, preparesSchema: true)
        if source.isLocal {
            let firstCompiler = Definitions.compiler(
                strict: configuration.strict, known: knownDocuments, beginsLoading: false, preparesSchema: true)
            let load = Engine.fetchAndCompile(source: source, since: nil, compile: firstCompiler)
            if let problem = load.problem, !configuration.startWithoutDefinitions {
                printToStderr("bunting: cannot use the definitions at \(source.location): \(problem)\n"
                    + "(serve anyway, polling the file, with --start-without-definitions)\n")
                return .failure
            }
            initialLoad = load
        }
        if isatty(0) == 1 {
            printToStderr("bunting: reading JSON-RPC requests on stdin, one JSON object a line (Ctrl-D ends)\n")
        }

        let engineConfiguration = configuration.engineConfiguration(localSource: source.isLocal)
        let server = StdioServer(options: configuration.server)
        // The loop must never wait on a reader of stderr.
        log.writeInBackground()
        log.info("bunting \(BuntingVersion.current) serving \(source.location) on stdin/stdout")
        let status = server.run { context in
            let engine = Engine(
                configuration: engineConfiguration, loop: context.loop, worker: WorkerPool(), source: source,
                compile: compiler, stream: stream, sink: sink, store: storage.store
            ) { event in
                storage.sent(event)
                let notification = EventNotifications.notification(for: event)
                context.notify(method: notification.method, params: notification.params)
            }
            // One commit for the writes of a turn, made before the client can
            // see what they report (ENQUEUED), and at the turn's end at the latest.
            let commit = {
                storage.commit(engine: engine) { event in
                    let notification = EventNotifications.notification(for: event)
                    context.notify(method: notification.method, params: notification.params)
                }
            }
            context.beforeOutput = commit
            context.loop.addTurnEndHook(commit)
            storage.deferCheckpoints(on: context.loop)
            storage.forgetUsers(configuration.retention, on: context.loop)
            engine.start(initialLoad: initialLoad)
            if case .loaded(let deferred as DeferredDefinitions, _, _)? = initialLoad {
                beginLoading(deferred, on: context.loop)
            }
            if let problem = storage.problem { engine.reportStorageProblem(problem) }
            context.onShutdown { done in engine.shutDown(done) }
            context.onShutdown { done in
                storage.close()
                done()
            }
            return BuntingMethods.table(engine: engine, context: context)
        }
        // The directory's lock is held until here; the store was closed at shutdown.
        withExtendedLifetime(storage) {}
        // Briefly: a reader that takes no lines must not hold the exit.
        log.flush(timeout: 0.3)
        let exitCode: ExitCode = status == 0 ? .success : .failure
        if source is HTTPSource || sink is HTTPSink || stream != nil {
            // A worker may still be inside libcurl (a request that outlived
            // shutdown): exit()'s clean-up handlers would tear OpenSSL down
            // under it and crash. Everything Bunting writes is out by now.
            _exit(exitCode.rawValue)
        }
        return exitCode
    }

    /// A document served from its note (see `DeferredDefinitions`) is
    /// loaded in full once the requests already waiting have been answered,
    /// or after 10 ms without any, so that the first answers do not share
    /// the machine with the load. The loop's turn-end hooks run once before
    /// it first waits for input; the second time, requests have been read
    /// (or the timer fired), and their replies are flushed by the hook after
    /// this one: the load begins in the job that follows.
    private static func beginLoading(_ deferred: DeferredDefinitions, on loop: EventLoop) {
        var turnEnds = 0
        loop.addTurnEndHook {
            turnEnds += 1
            if turnEnds == 2 { loop.post { deferred.beginLoading() } }
        }
        _ = loop.schedule(after: 0.01) {}
    }

    /// A URL was checked with the rest of the command line; libcurl itself
    /// is loaded on the first request, off the start-up path.
    static func makeSource(_ location: String?, http: HTTPSettings, maxBytes: Int) throws(UsageError) -> any DefinitionsSource {
        guard let location else {
            return MemorySource(bytes: BundledExample.definitions, location: "(bundled example)")
        }
        if HTTPURL.isHTTP(location) {
            return HTTPSource(url: try url(location, option: "definitions"), settings: http, maxBytes: maxBytes)
        }
        return FileSource(path: location, maxBytes: maxBytes)
    }

    /// `--stream`: an http(s) URL only.
    static func makeStream(_ location: String?, http: HTTPSettings, maxBytes: Int) throws(UsageError) -> HTTPEventStream? {
        guard let location else { return nil }
        return HTTPEventStream(url: try url(location, option: "stream"), settings: http, maxEventBytes: maxBytes)
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
}
