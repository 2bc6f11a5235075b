#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingDefinitions
import BuntingIO
import BuntingJSONRPC
import BuntingJSON
import BuntingJSONRPC
import BuntingServer
import BuntingRuntime

/// `bunting eval`: what the definitions give each evaluation context, or
/// what one JSONLogic rule gives one piece of data.
enum EvalCommand {
    static let specs = [
        OptionSpec(
            name: "definitions", valueName: "PATH",
            help: "the definitions document to evaluate (or a GrowthBook SDK payload)"),
        OptionSpec(
            name: "decryption-key", valueName: "KEY", help: "the key (base64) of an encrypted GrowthBook payload"),
        OptionSpec(
            name: "contexts", valueName: "FILE|-",
            help: "evaluation contexts, one JSON object a line\n(default: -, standard input)"),
        OptionSpec(
            name: "at", valueName: "UNIX_SECONDS",
            help: "evaluate as of this time (default: now), for schedules,\nexpiry and $flagd.timestamp"),
        OptionSpec(name: "rule", valueName: "JSON", help: "a JSONLogic rule to evaluate instead of definitions"),
        OptionSpec(name: "data", valueName: "JSON", help: "the data for --rule (default: null)"),
        OptionSpec(name: "help", valueName: nil, help: "show this help"),
    ]

    static let help = helpText(
        usage: "bunting eval --definitions PATH [--contexts FILE|-] [--at "
            + "UNIX_SECONDS]\n       bunting eval --rule JSON [--data JSON]",
        summary: """
            With --definitions, reads evaluation contexts (one JSON object a line: targetingKey and
            attributes) and writes one JSON line per context:
              {"flags": {"<key>": {"variant", "value", "reason"}}, "features": {...}?,
               "featureFlags": [...], "banners": {...}, "contentCards": [...]}
            where flags are resolved exactly as flagd resolves them, and GrowthBook features (a
            payload, or a `features` section) as GrowthBook's JavaScript SDK does, with `id` the
            targetingKey unless the context has one. A line that is not a JSON
            object gets {"error": ...} in its place, and the exit status is then 1.
            With --rule, prints the JSONLogic result of the rule on --data.
            """,
        specs: specs)

    static func run(_ arguments: ArraySlice<String>) throws(UsageError) -> ExitCode {
        guard let options = try ParsedOptions.unlessHelp(arguments, specs: specs, command: "eval", help: help) else {
            return .success
        }
        if let extra = options.positionals.first { throw UsageError("unexpected argument '\(extra)'", command: "eval") }
        if let rule = options.value("rule") {
            guard !options.has("definitions"), !options.has("contexts") else {
                throw UsageError("--rule does not go with --definitions or --contexts", command: "eval")
            }
            return evaluateRule(rule, data: options.value("data"))
        }
        guard let path = options.value("definitions") else {
            throw UsageError("give --definitions PATH or --rule JSON", command: "eval")
        }
        if options.has("data") { throw UsageError("--data goes with --rule", command: "eval") }
        var now = SystemClock().unixTime()
        if let at = options.value("at") {
            guard let seconds = Double(at), seconds.isFinite else {
                throw UsageError("--at must be Unix seconds, not '\(at)'", command: "eval")
            }
            now = seconds
        }
        return evaluateContexts(
            definitionsPath: path, contexts: options.value("contexts") ?? "-", at: now,
            decryptionKey: options.value("decryption-key"))
    }

    static func evaluateRule(_ ruleText: String, data dataText: String?) -> ExitCode {
        let rule: JSON
        let data: JSON
        do {
            rule = try JSON.parse(ruleText)
            data = try dataText.map { text throws(JSONParseError) in try JSON.parse(text) } ?? .null
        } catch {
            printToStderr("bunting: not JSON: \(error.description)\n")
            return .failure
        }
        do {
            let result = try RuleMethods.evaluate(rule, data: data)
            printToStdout(result.encodedString() + "\n")
            return .success
        } catch {
            printToStderr("bunting: \(error.message)\n")
            return .failure
        }
    }

    static func evaluateContexts(
        definitionsPath: String, contexts: String, at now: Double, decryptionKey: String? = nil
    ) -> ExitCode {
        let definitions: Definitions
        switch FileDescriptorIO.readRegularFile(definitionsPath, limit: FileSource.maxBytes).mapError({
            EvalLoadError($0.message)
        }).flatMap({ bytes in
            Definitions.load(bytes, decryptionKey: decryptionKey).mapError { failure in
                EvalLoadError(failure.problems.map { "\(definitionsPath): \($0)" }.joined(separator: "\n"))
            }
        }) {
        case .success(let loaded): definitions = loaded
        case .failure(let failure):
            printToStderr("bunting: \(failure.message)\n")
            return .failure
        }
        let input: Int32 = contexts == "-" ? 0 : open(contexts, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            printToStderr("bunting: cannot open \(contexts): \(String(cString: strerror(errno)))\n")
            return .failure
        }
        var failed = false
        var output: [UInt8] = []
        /// One answer a line, written as it is made, so that a caller
        /// streaming contexts gets answers as it goes.
        func answer(_ result: JSON) {
            result.encode(appendingTo: &output)
            output.append(UInt8(ascii: "\n"))
            FileDescriptorIO.writeAll(1, output)
            output.removeAll(keepingCapacity: true)
        }
        // Contexts are NDJSON, cut by the server's own framer.
        var framer = MessageFramer(choice: .ndjson, maxMessageBytes: StdioServer.Options().maxMessageBytes)
        let handle: MessageFramer.Emit = { event in
            switch event {
            case .problem(let problem):
                failed = true
                answer(.object(["error": .string(problem.message)]))
            case .message(let line):
                switch Result(catching: { () throws(JSONParseError) -> JSON in try JSON.parse(line) }) {
                case .success(.object(let context)):
                    answer(.object(definitions.evaluation(for: context, at: now)))
                case .success(let other):
                    failed = true
                    answer(.object(["error": .string("a context must be a JSON object, not \(other.typeName)")]))
                case .failure(let error):
                    failed = true
                    answer(.object(["error": .string(error.description)]))
                }
            }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            chunk[..<count].withUnsafeBytes { framer.feed($0, handle) }
        }
        framer.finish(handle)
        if input != 0 { close(input) }
        return failed ? .failure : .success
    }
}

/// Why `bunting eval` could not load its definitions.
struct EvalLoadError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
