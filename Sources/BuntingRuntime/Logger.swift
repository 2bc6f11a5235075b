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
///
/// A server must not wait on a reader of its stderr: once a pipe nobody
/// reads is full, a `write(2)` blocks, and with it the event loop (no reply,
/// no timer, no SIGTERM). `writeInBackground()` hands lines to a thread of
/// their own through a bounded buffer instead: when the reader lags, lines
/// past the buffer are dropped and counted, and the count is written once
/// the reader takes lines again. One-shot commands write directly.
public final class Logger: Sendable {
    private let threshold = Atomic<Int>(LogLevel.warning.rawValue)
    private let background = Mutex<BackgroundLogWriter?>(nil)

    public init() {}

    /// Also gets each line the current task logs (without its newline), for
    /// that task alone: a test reads what a server it runs in process logged
    /// without sharing stderr with the tests that run beside it. It sees the
    /// lines the level lets through.
    @TaskLocal public static var taskObserver: (@Sendable (String) -> Void)?

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

    /// From now on lines go through a writer thread and a buffer of
    /// `maxPendingBytes`, never blocking the caller.
    public func writeInBackground(maxPendingBytes: Int = BackgroundLogWriter.defaultMaxPendingBytes) {
        background.withLock { writer in
            if writer == nil { writer = BackgroundLogWriter(fd: 2, maxPendingBytes: maxPendingBytes) }
        }
    }

    /// Waits up to `timeout` seconds for the lines handed to the writer thread to be written.
    public func flush(timeout: Double) {
        background.withLock { $0 }?.flush(timeout: timeout)
    }

    /// Lines dropped so far because stderr was not read.
    public var droppedLines: Int { background.withLock { $0 }?.droppedLines ?? 0 }

    private func write(_ level: LogLevel, _ message: () -> String) {
        guard isEnabled(level) else { return }
        var line = "bunting[\(level.name)] " + message()
        Self.taskObserver?(line)
        line.append("\n")
        if let writer = background.withLock({ $0 }) {
            writer.append(line)
        } else {
            FileDescriptorIO.writeAll(2, line)
        }
    }
}

/// The process-wide logger.
public let log = Logger()

/// Writes log lines on a thread of its own (see `Logger.writeInBackground`).
///
/// `@unchecked Sendable`: every field but `fd` and `maxPendingBytes` is
/// guarded by `condition`.
public final class BackgroundLogWriter: @unchecked Sendable {
    /// A megabyte of lines: minutes of a busy server's info log.
    public static let defaultMaxPendingBytes = 1 << 20

    private let fd: Int32
    private let maxPendingBytes: Int
    private let condition = ConditionLock()
    private var pending: [UInt8] = []
    /// Lines dropped since the last notice of it was written.
    private var droppedSinceNotice = 0
    private var droppedTotal = 0
    /// The thread is writing what it took from `pending`.
    private var writing = false

    init(fd: Int32, maxPendingBytes: Int) {
        self.fd = fd
        self.maxPendingBytes = maxPendingBytes
        startThread(name: "bunting-log", stackSize: 256 << 10) { [self] in run() }
    }

    var droppedLines: Int { condition.withLock { droppedTotal } }

    func append(_ line: String) {
        condition.withLock {
            guard pending.count + line.utf8.count <= maxPendingBytes else {
                droppedSinceNotice += 1
                droppedTotal += 1
                return
            }
            pending.append(contentsOf: line.utf8)
            condition.broadcast()
        }
    }

    func flush(timeout: Double) {
        let deadline = monotonicSeconds() + timeout
        condition.withLock {
            while !pending.isEmpty || writing {
                let left = deadline - monotonicSeconds()
                guard left > 0 else { return }
                condition.wait(seconds: left)
            }
        }
    }

    private func run() {
        while true {
            var batch: [UInt8] = []
            condition.withLock {
                while pending.isEmpty { condition.wait() }
                if droppedSinceNotice > 0 {
                    batch = Array(
                        "bunting[warn] \(droppedSinceNotice) log lines were dropped: stderr was not read\n".utf8)
                    droppedSinceNotice = 0
                }
                batch += pending
                pending.removeAll(keepingCapacity: true)
                writing = true
            }
            FileDescriptorIO.writeAll(fd, batch)
            condition.withLock {
                writing = false
                condition.broadcast()
            }
        }
    }

    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
