#if canImport(Glibc)
import Glibc
#endif
import BuntingJSONRPC
import BuntingRuntime

/// The `bunting` command: picks a subcommand and turns its outcome into an exit status.
public enum BuntingCommand {
    static let help = """
        Usage: bunting <command> [options]

        The client-side core of a messaging and experimentation SDK (feature flags,
        banners, content cards) for any program, over JSON-RPC 2.0 on stdin/stdout.

        Commands:
          serve      serve JSON-RPC on stdin/stdout
          eval       evaluate definitions for contexts, or one JSONLogic rule
          validate   check a definitions document
          render     render a Liquid template for one user
          version    print the version
          help       show help for a command

        Run 'bunting <command> --help' for a command's options.

        """

    /// Runs the command line `arguments` (without the program name).
    public static func main(_ arguments: [String]) -> Int32 {
        do {
            return try run(arguments[...]).rawValue
        } catch {
            var message = "bunting: \(error.message)\n"
            if let command = error.command {
                message += "Run 'bunting \(command) --help' for usage.\n"
            } else {
                message += "Run 'bunting --help' for usage.\n"
            }
            printToStderr(message)
            return ExitCode.usage.rawValue
        }
    }

    static func run(_ arguments: ArraySlice<String>) throws(UsageError) -> ExitCode {
        guard let command = arguments.first else {
            printToStderr(help)
            return .usage
        }
        let rest = arguments.dropFirst()
        switch command {
        case "serve": return try ServeCommand.run(rest)
        case "eval": return try EvalCommand.run(rest)
        case "validate": return try ValidateCommand.run(rest)
        case "render": return try RenderCommand.run(rest)
        case "version", "--version": return try VersionCommand.run(rest)
        case "help", "--help", "-h":
            guard let topic = rest.first else {
                printToStdout(help)
                return .success
            }
            guard let text = helpFor(topic) else { throw unknownCommand(topic) }
            printToStdout(text)
            return .success
        default:
            throw unknownCommand(command)
        }
    }

    static let commands = ["serve", "eval", "validate", "render", "version", "help"]

    /// "no command 'srve'", with the command it most likely meant.
    private static func unknownCommand(_ name: String) -> UsageError {
        let suggestion = EditDistance.closest(to: name, among: commands).map { " (did you mean '\($0)'?)" } ?? ""
        return UsageError("no command '\(name)'\(suggestion)")
    }

    private static func helpFor(_ command: String) -> String? {
        switch command {
        case "serve": ServeCommand.help
        case "eval": EvalCommand.help
        case "validate": ValidateCommand.help
        case "render": RenderCommand.help
        case "version": VersionCommand.help
        default: nil
        }
    }
}

/// Writes text to stdout for the commands that print (help, version); `serve`
/// never prints, its stdout is the protocol.
func printToStdout(_ text: String) {
    FileDescriptorIO.writeAll(1, text)
}

func printToStderr(_ text: String) {
    FileDescriptorIO.writeAll(2, text)
}
