#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Log levels, most severe first.
public enum LogLevel: Int, Sendable, CaseIterable, Comparable {
    case off, error, warning, info, debug

    public init?(name: String) {
        switch name.lowercased() {
        case "off", "none": self = .off
        case "error": self = .error
        case "warn", "warning": self = .warning
        case "info": self = .info
        case "debug", "trace": self = .debug
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .off: "off"
        case .error: "error"
        case .warning: "warn"
        case .info: "info"
        case .debug: "debug"
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Writes log lines to stderr, never to stdout (which carries the protocol).
///
/// One process-wide instance, `log`; its level is set once at start-up from
/// `--log-level`. A line is written with a single `write(2)` so that lines
/// from different threads never interleave.
public final class Logger: Sendable {
    private let threshold = Atomic<Int>(LogLevel.warning.rawValue)

    public init() {}

    public var level: LogLevel {
        get { LogLevel(rawValue: threshold.load(ordering: .relaxed)) ?? .warning }
        set { threshold.store(newValue.rawValue, ordering: .relaxed) }
    }

    public func isEnabled(_ level: LogLevel) -> Bool {
        level != .off && level.rawValue <= threshold.load(ordering: .relaxed)
    }

    public func error(_ message: @autoclosure () -> String) { write(.error, message) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private func write(_ level: LogLevel, _ message: () -> String) {
        guard isEnabled(level) else { return }
        var line = "bunting[\(level.name)] " + message()
        line.append("\n")
        FileDescriptorIO.writeAll(2, line)
    }
}

/// The process-wide logger.
public let log = Logger()
