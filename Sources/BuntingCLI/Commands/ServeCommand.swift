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
        // Before any thread starts (the log writer, the schema's preparation): each inherits the mask.
        TerminationSignals.blockInThisThread()
        guard
            let options = try ParsedOptions.unlessHelp(
                arguments, specs: ServeConfiguration.specs, command: "serve", help: help)
        else {
            return .success
        }
        let configuration = try ServeConfiguration(options)
        log.level = configuration.logLevel
        // Freed memory is given back when refreshes pause (the engine's timer), not free by free.
        keepFreedMemoryUntilReleased()
        let testing = ServeTesting(configuration.testing)
        let source = try makeSource(
            configuration.definitions, http: configuration.http, maxBytes: configuration.maxDocumentBytes,
            clock: testing.clock)
        let stream = try makeStream(
            configuration.stream, http: configuration.http, maxBytes: configuration.maxDocumentBytes,
            clock: testing.clock)
        let sink = try makeSink(configuration.sink, http: configuration.http, clock: testing.clock)
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
        let notesDirectory =
            configuration.cacheDirectory.map { "\($0)/\(KnownDocuments.subdirectory)" }
            ?? storage.knownDocumentsDirectory
        let knownDocuments = configuration.noCache ? nil : notesDirectory.map { KnownDocuments(directory: $0) }
        let compiler = Definitions.compiler(
            strict: configuration.strict, known: knownDocuments, preparesSchema: true,
            decryptionKey: configuration.decryptionKey)
        if source.isLocal {
            let firstCompiler = Definitions.compiler(
                strict: configuration.strict, known: knownDocuments, beginsLoading: false, preparesSchema: true,
                decryptionKey: configuration.decryptionKey, servesUnseen: true)
            let load = Engine.fetchAndCompile(source: source, since: nil, compile: firstCompiler)
            if let problem = load.problem, !configuration.startWithoutDefinitions {
                printToStderr(
                    "bunting: cannot use the definitions at \(source.location): \(problem)\n"
                        + "(serve anyway, polling the file, with --start-without-definitions)\n")
                return .failure
            }
            initialLoad = load
        }
        if isatty(0) == 1 {
            printToStderr("bunting: reading JSON-RPC requests on stdin, one JSON object a line (Ctrl-D ends)\n")
        }

        let engineConfiguration = configuration.engineConfiguration(localSource: source.isLocal)
        let server = StdioServer(options: configuration.server, clock: testing.clock)
        // The loop must never wait on a reader of stderr.
        log.writeInBackground()
        log.info("bunting \(BuntingVersion.current) serving \(source.location) on stdin/stdout")
        let status = server.run { context in
            let parts = testing.parts(
                ServerAssembly.Parts(
                    configuration: engineConfiguration, worker: WorkerPool(), source: testing.source(source),
                    compile: compiler,
                    stream: testing.stream(stream), sink: testing.sink(sink), store: storage.store), on: context)
            let assembly = ServerAssembly(context: context, parts: parts)
            storage.deferCheckpoints(on: context.loop)
            storage.makeOwedCheck(on: context.loop)
            storage.forgetUsers(configuration.retention, on: context.loop)
            context.onShutdown { done in
                storage.close()
                done()
            }
            assembly.start(initialLoad: initialLoad, storageProblem: storage.problem)
            if case .loaded(let deferred as DeferredDefinitions, _, _)? = initialLoad {
                beginLoading(deferred, on: context.loop)
            }
            return assembly.table
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
}
