import BuntingCore

/// `bunting version`: the version of this build.
enum VersionCommand {
    static let help = helpText(
        usage: "bunting version",
        summary: "Prints the version of this build of Bunting.",
        specs: [OptionSpec(name: "help", valueName: nil, help: "show this help")])

    static func run(_ arguments: ArraySlice<String>) throws(UsageError) -> ExitCode {
        guard
            let options = try ParsedOptions.unlessHelp(
                arguments, specs: [OptionSpec(name: "help", valueName: nil, help: "")], command: "version", help: help)
        else {
            return .success
        }
        if let extra = options.positionals.first {
            throw UsageError("unexpected argument '\(extra)'", command: "version")
        }
        printToStdout("bunting \(BuntingVersion.current)\n")
        return .success
    }
}
