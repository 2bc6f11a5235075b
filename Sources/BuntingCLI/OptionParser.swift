import BuntingJSONRPC

/// One option a command accepts.
struct OptionSpec: Sendable {
    let name: String
    /// The placeholder of its value (`PATH`, `S`); nil for a flag without value.
    let valueName: String?
    let help: String
    var repeatable = false
    /// The value may be left out (`--summary`) and is then "": given, it is
    /// written `--name=value`, since the next argument is never taken.
    var valueIsOptional = false
}

/// The command line of one command, checked against its option specs.
struct ParsedOptions {
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { values[name] != nil }

    /// Parses a command's arguments; with `--help` (or `-h`) among them, prints
    /// `help` instead and returns nil.
    static func unlessHelp(
        _ arguments: ArraySlice<String>, specs: [OptionSpec], command: String, help: @autoclosure () -> String
    ) throws(UsageError) -> ParsedOptions? {
        let options = try ParsedOptions(arguments, specs: specs, command: command)
        guard !options.has("help") else {
            printToStdout(help())
            return nil
        }
        return options
    }

    /// Accepts `--name value`, `--name=value` and, after `--`, positionals only.
    init(_ arguments: ArraySlice<String>, specs: [OptionSpec], command: String) throws(UsageError) {
        var remaining = arguments
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            guard let spec = specs.first(where: { "--" + $0.name == name }) else {
                let closest = EditDistance.closest(to: name, among: specs.map { "--" + $0.name })
                throw UsageError(
                    "unknown option '\(name)'" + (closest.map { " (did you mean '\($0)'?)" } ?? ""),
                    command: command)
            }
            if values[spec.name] != nil && !spec.repeatable {
                throw UsageError("option '\(name)' given twice", command: command)
            }
            if spec.valueIsOptional {
                values[spec.name, default: []].append(inlineValue ?? "")
                continue
            }
            if spec.valueName == nil {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value", command: command) }
                values[spec.name, default: []].append("")
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw UsageError("option '\(name)' needs a value (\(spec.valueName!))", command: command)
            }
            values[spec.name, default: []].append(value)
        }
    }
}

/// Help text for a command: its usage line, description and options.
func helpText(usage: String, summary: String, specs: [OptionSpec], footer: String = "") -> String {
    var text = "Usage: \(usage)\n\n\(summary)\n"
    if !specs.isEmpty {
        text += "\nOptions:\n"
        let labels = specs.map { spec in
            "  --\(spec.name)" + (spec.valueName.map { spec.valueIsOptional ? "[=\($0)]" : " \($0)" } ?? "")
        }
        let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
        for (label, spec) in zip(labels, specs) {
            let padding =
                label.count < width
                ? String(repeating: " ", count: width - label.count) : "\n" + String(repeating: " ", count: width)
            let lines = spec.help.split(separator: "\n", omittingEmptySubsequences: false)
            text += label + padding + lines.joined(separator: "\n" + String(repeating: " ", count: width)) + "\n"
        }
    }
    if !footer.isEmpty { text += "\n" + footer + "\n" }
    return text
}
