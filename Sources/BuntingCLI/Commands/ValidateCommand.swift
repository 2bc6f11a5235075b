import BuntingCore
import BuntingDefinitions
import BuntingIO
import BuntingRuntime

/// `bunting validate PATH`: checks a definitions document and names each
/// problem by line:column and JSON pointer.
enum ValidateCommand {
    static let specs = [
        OptionSpec(
            name: "strict", valueName: nil, help: "say what `bunting serve --strict` would do with the document"),
        OptionSpec(
            name: "decryption-key", valueName: "KEY", help: "the key (base64) of an encrypted GrowthBook payload"),
        OptionSpec(name: "help", valueName: nil, help: "show this help"),
    ]

    static let help = helpText(
        usage: "bunting validate [--strict] [--decryption-key KEY] PATH",
        summary: """
            Checks a definitions document: that it is JSON, that it satisfies the definitions
            schema, that every rule compiles and every id is unique. Prints each problem as
            PATH:LINE:COLUMN: POINTER: MESSAGE, then what `bunting serve` would do with the
            document (serve the rest, as flagd does, or refuse it), and exits 1 when there is
            any problem; prints a summary and exits 0 when there is none. A GrowthBook SDK
            payload is checked as `bunting serve` reads one.
            """,
        specs: specs)

    static func run(_ arguments: ArraySlice<String>) throws(UsageError) -> ExitCode {
        guard let options = try ParsedOptions.unlessHelp(arguments, specs: specs, command: "validate", help: help)
        else {
            return .success
        }
        guard options.positionals.count == 1, let path = options.positionals.first else {
            throw UsageError("validate takes one PATH", command: "validate")
        }
        let bytes: [UInt8]
        switch FileDescriptorIO.readRegularFile(path, limit: FileSource.maxBytes) {
        case .success(let read): bytes = read
        case .failure(let error):
            printToStderr("bunting: \(error.message)\n")
            return .failure
        }
        let strict = options.has("strict")
        let problems: [DefinitionsProblem]
        let verdict: String
        switch Definitions.load(bytes, strict: strict, decryptionKey: options.value("decryption-key")) {
        case .success(let definitions):
            var summary = [
                counted(definitions.flagSet.flagKeys.count, "flag"), counted(definitions.bannerCount, "banner"),
                counted(definitions.cardCount, "content card"),
            ].joined(separator: ", ")
            if !definitions.featureKeys.isEmpty {
                summary += ", " + counted(definitions.featureKeys.count, "GrowthBook feature")
            }
            guard !definitions.problems.isEmpty else {
                printToStdout("\(path): valid (\(summary))\n")
                return .success
            }
            problems = definitions.problems
            verdict =
                "bunting serve would serve it (\(summary)): flags in error resolve as flagd resolves them, "
                + "banners and cards in error are left out"
        case .failure(let failure):
            problems = failure.problems
            verdict = "bunting serve\(strict ? " --strict" : "") would refuse it"
        }
        var text = ""
        for problem in problems {
            let place = problem.line > 0 ? "\(path):\(problem.line):\(problem.column)" : path
            text += "\(place): \(problem.pointer.isEmpty ? "(document)" : problem.pointer): \(problem.message)\n"
        }
        text += "\(path): \(verdict)\n"
        text += "\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")\n"
        printToStdout(text)
        return .failure
    }
}

/// "1 flag", "0 flags", "2 flags".
private func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
