#if canImport(Glibc)
import Glibc
#endif
import CRuntime

/// SIGTERM, SIGINT and SIGHUP, delivered to the event loop as readable
/// events of a signalfd instead of to a handler: the loop reacts to them
/// between turns, whatever else it is doing, and no code runs in signal
/// context.
///
/// Make it before any other thread starts: the signals are blocked in the
/// thread that makes it, and threads started from it inherit the mask, so
/// that no thread takes them the ordinary way.
public final class TerminationSignals {
    private let fd: Int32

    public init() {
        var set = Self.signals
        pthread_sigmask(SIG_BLOCK, &set, nil)
        fd = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        if fd < 0 { log.error("cannot watch termination signals (errno \(errno)); they will be ignored") }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    private static var signals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        return set
    }

    /// Blocks the signals in the calling thread now, for a program that
    /// starts threads (a log writer, a worker) before it makes the watcher:
    /// a thread started with them unblocked would take one the ordinary way,
    /// which ends the process without its shutdown.
    public static func blockInThisThread() {
        var set = signals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Calls `handler` on the loop with each signal's number.
    public func watch(on loop: EventLoop, _ handler: @escaping (Int32) -> Void) {
        guard fd >= 0 else { return }
        _ = loop.watch(fd, for: .readable) { [fd] _ in
            var info = signalfd_siginfo()
            while withUnsafeMutableBytes(of: &info, { read(fd, $0.baseAddress, $0.count) })
                == MemoryLayout<signalfd_siginfo>.size
            {
                handler(Int32(info.ssi_signo))
            }
        }
    }
}
