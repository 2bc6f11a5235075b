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
            name: "at", valueName: "TIME",
            help: "evaluate as of this time, Unix seconds or RFC "
                + "3339\n(2026-12-08T09:00:00Z; default: now), for schedules, expiry\nand $flagd.timestamp"),
        OptionSpec(
            name: "explain", valueName: nil,
            help: "add to each line why: each flag's resolution and the "
                + "rule\nthat decided, each banner and card in or out "
                + "(targeting,\nschedule, expiry, control group, priority, a problem)"
        ),
        OptionSpec(
            name: "summary", valueName: "table|json",
            help: "instead of a line per context, how many "
                + "contexts got what:\nper flag and variant, per placement and "
                + "banner, per card\n(counts and shares), as a table (default) or JSON",
            valueIsOptional: true),
        OptionSpec(name: "rule", valueName: "JSON", help: "a JSONLogic rule to evaluate instead of definitions"),
        OptionSpec(name: "data", valueName: "JSON", help: "the data for --rule (default: null)"),
        OptionSpec(name: "help", valueName: nil, help: "show this help"),
    ]

    static let help = helpText(
        usage: "bunting eval --definitions PATH [--contexts FILE|-] [--at TIME] [--explain "
            + "| --summary[=table|json]]\n       bunting eval --rule JSON [--data JSON]",
        summary: """
            With --definitions, reads evaluation contexts (one JSON object a line: targetingKey and
            attributes) and writes one JSON line per context:
              {"flags": {"<key>": {"variant", "value", "reason"}}, "features": {...}?,
               "featureFlags": [...], "banners": {...}, "contentCards": [...]}
            where flags are resolved exactly as flagd resolves them, and GrowthBook features (a
            payload, or a `features` section) as GrowthBook's JavaScript SDK does, with `id` the
            targetingKey unless the context has one. A line that is not a JSON
            object gets {"error": ...} in its place, and the exit status is then 1.
            Problems of the document (entries left out, flags in error) are written on
            stderr in the words `bunting serve` logs them with.
            With --rule, prints the JSONLogic result of the rule on --data.
            """,
        specs: specs)

    static func run(_ arguments: ArraySlice<String>) throws(UsageError) -> ExitCode {
        guard let options = try ParsedOptions.unlessHelp(arguments, specs: specs, command: "eval", help: help) else {
            return .success
        }
        if let extra = options.positionals.first {
            let hint =
                options.has("summary") && EvalSummary.Format(rawValue: extra) != nil
                ? " (write --summary=\(extra))" : ""
            throw UsageError("unexpected argument '\(extra)'\(hint)", command: "eval")
        }
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
            guard let seconds = UnixTime.parse(at) else {
                throw UsageError("--at must be \(UnixTime.expected), not '\(at)'", command: "eval")
            }
            now = seconds
        }
        return evaluateContexts(
            definitionsPath: path, contexts: options.value("contexts") ?? "-", at: now,
            decryptionKey: options.value("decryption-key"),
            output: try Output(options))
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
        definitionsPath: String, contexts: String, at now: Double, decryptionKey: String? = nil,
        output mode: Output = .lines
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
        if !definitions.problems.isEmpty {
            log.warning(DefinitionsProblem.loadedWithProblems(definitions.problems, location: definitionsPath))
        }
        let summary: EvalSummary?
        if case .summary = mode {
            summary = EvalSummary(cardIds: definitions.contentCardIds, placementIds: definitions.placementIds)
        } else {
            summary = nil
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
            if let summary {
                // A line that is not a context: counted, and said on stderr (stdout holds the summary).
                summary.errors += 1
                printToStderr("bunting: \(result["error"]?.stringValue ?? "")\n")
                return
            }
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
                    var evaluation = definitions.evaluation(for: context, at: now)
                    if let summary { return summary.add(evaluation) }
                    if case .explain = mode {
                        evaluation["explain"] = .object(definitions.explanation(for: context, at: now))
                    }
                    answer(.object(evaluation))
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
        while case .transferred(let count) = chunk.withUnsafeMutableBytes({ FileDescriptorIO.readSome(input, into: $0) }
        ) {
            chunk[..<count].withUnsafeBytes { framer.feed($0, handle) }
        }
        framer.finish(handle)
        if input != 0 { close(input) }
        if let summary, case .summary(let format) = mode {
            FileDescriptorIO.writeAll(
                1, Array((format == .json ? summary.json.encodedString() + "\n" : summary.table).utf8))
        }
        return failed ? .failure : .success
    }
}

extension EvalCommand {
    /// What `eval --definitions` writes: a line per context, the same with
    /// why (`--explain`), or a summary of them all (`--summary`).
    enum Output: Equatable {
        case lines, explain
        case summary(EvalSummary.Format)

        init(_ options: ParsedOptions) throws(UsageError) {
            switch (options.has("explain"), options.value("summary")) {
            case (true, _?): throw UsageError("--explain and --summary do not go together", command: "eval")
            case (true, nil): self = .explain
            case (false, nil): self = .lines
            case (false, let format?):
                guard let chosen = format.isEmpty ? .table : EvalSummary.Format(rawValue: format) else {
                    throw UsageError(
                        "--summary is written --summary, --summary=table or --summary=json, not '\(format)'",
                        command: "eval")
                }
                self = .summary(chosen)
            }
        }
    }
}

/// Why `bunting eval` could not load its definitions.
struct EvalLoadError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
