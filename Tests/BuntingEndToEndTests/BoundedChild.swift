#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Every wait of the harness for a child process has a deadline. A child
/// that never ends (a server stuck at exit, a tool waiting on a terminal)
/// would otherwise hold its test, and with it the whole run, until CI's own
/// limit ends everything without a word about which test it was; past the
/// deadline the child is killed and the test fails, naming it.
extension Process {
    /// Waits until the process has ended, up to `seconds`; one still running
    /// then is killed (SIGKILL) and the wait throws.
    func waitForExit(within seconds: TimeInterval = ServerProcess.deadline, _ what: @autoclosure () -> String) throws {
        if endsWithin(seconds) { return }
        throw HarnessError(description: "\(what()) was still running after \(seconds) s, and was killed")
    }

    /// The same for where nothing can throw (a deinit): whether it ended by itself.
    @discardableResult
    func endsWithin(_ seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning {
            guard Date() < deadline else {
                Glibc.kill(processIdentifier, SIGKILL)
                waitUntilExit()
                return false
            }
            usleep(2_000)
        }
        // Foundation says the process has ended once it has been reaped; its
        // status is set by then.
        return true
    }
}

/// Kills a child still running at its deadline, from a timer of its own:
/// for a test blocked in a read of the child's output, which the kill ends
/// (the child's end of the pipe closes with it).
final class ChildDeadline: @unchecked Sendable {
    private let process: Process
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var settled = false
    private var killed = false

    init(_ process: Process, seconds: TimeInterval = ServerProcess.deadline) {
        self.process = process
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            lock.lock()
            defer { lock.unlock() }
            // `isRunning` is false once the child is reaped, so its pid is
            // never signalled after another process may have been given it.
            guard !settled, process.isRunning else { return }
            killed = true
            Glibc.kill(process.processIdentifier, SIGKILL)
        }
    }

    /// Waits for the child to end (`Process.waitForExit`), then ends the
    /// watch; throws if either deadline had to kill it.
    func waitForExit(_ what: @autoclosure () -> String) throws {
        try process.waitForExit(what())
        lock.lock()
        settled = true
        let wasKilled = killed
        lock.unlock()
        if wasKilled { throw HarnessError(description: "\(what()) ran past its deadline, and was killed") }
    }
}
