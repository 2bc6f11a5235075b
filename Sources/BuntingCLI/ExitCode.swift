/// How `bunting` ends, as a process exit status.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// The command ran and failed: an invalid definitions file, an unreadable input.
    case failure = 1
    /// The command line itself is wrong (as in BSD's sysexits, EX_USAGE).
    case usage = 64
}

/// A mistake on the command line, reported with a pointer to `--help`.
public struct UsageError: Error, Equatable, Sendable {
    public let message: String
    public let command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
