import BuntingCore
import BuntingJSON
import BuntingRPC

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
        footer: "Example: bunting serve --definitions examples/definitions/bunting.json --storage :memory:")

    static func run(_ arguments: ArraySlice<String>) throws(UsageError) -> ExitCode {
        let options = try ParsedOptions(arguments, specs: ServeConfiguration.specs, command: "serve")
        if options.has("help") {
            printToStdout(help)
            return .success
        }
        let configuration = try ServeConfiguration(options)
        log.level = configuration.logLevel

        var serverOptions = StdioServer.Options()
        serverOptions.framing = configuration.framing
        serverOptions.maxMessageBytes = configuration.maxMessageBytes
        let server = StdioServer(options: serverOptions)
        log.info("bunting \(BuntingVersion.current) serving on stdin/stdout")
        let status = server.run { context in
            var table = ProtocolMethods.placeholderTable()
            ServerMethods.register(in: &table, context: context) { [:] }
            return table
        }
        return status == 0 ? .success : .failure
    }
}
