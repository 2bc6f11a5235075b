#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingJSON

/// Writes framed messages to the protocol descriptor on a thread of its own,
/// in the order they were handed over.
///
/// Back-pressure: when more than `maxPendingBytes` wait to be written (the
/// client stopped reading), `enqueue` blocks the caller — the event loop —
/// which in turn stops taking input, so memory stays bounded.
///
/// `@unchecked Sendable`: the mutable fields are guarded by `lock`.
public final class OutputWriter: @unchecked Sendable {
    private let fd: Int32
    private let maxPendingBytes: Int
    private let lock = ConditionLock()
    /// Guarded by `lock`: bytes framed and waiting for the thread.
    private var pending: [UInt8] = []
    /// Guarded by `lock`: the thread is writing a batch it took from `pending`.
    private var writing = false
    /// Guarded by `lock`: the descriptor failed (the client closed it); output is dropped.
    private var failed = false
    /// Guarded by `lock`.
    private var framing: Framing = .ndjson

    public init(fd: Int32, maxPendingBytes: Int = 8 << 20) {
        self.fd = fd
        self.maxPendingBytes = maxPendingBytes
    }

    /// Sets the framing of every message enqueued from now on.
    public func setFraming(_ framing: Framing) {
        lock.withLock { self.framing = framing }
    }

    public func start() {
        startThread(name: "bunting-writer") { [self] in run() }
    }

    /// Encodes and frames `message`, then queues it, waiting while the queue is full.
    public func enqueue(_ message: JSON) {
        var body: [UInt8] = []
        body.reserveCapacity(128)
        message.encode(appendingTo: &body)
        lock.withLock {
            while pending.count >= maxPendingBytes && !failed { lock.wait() }
            guard !failed else { return }
            framing.appendFrame(body, to: &pending)
            lock.broadcast()
        }
    }

    /// Waits until everything queued has been written (or writing failed),
    /// at most `timeout` seconds. Returns whether all was written.
    @discardableResult
    public func drain(timeout: Double) -> Bool {
        var clock = SystemClock().monotonicTime()
        let deadline = clock + timeout
        return lock.withLock {
            while (!pending.isEmpty || writing) && !failed && clock < deadline {
                lock.wait(seconds: min(0.05, deadline - clock))
                clock = SystemClock().monotonicTime()
            }
            return pending.isEmpty && !writing && !failed
        }
    }

    private func run() {
        var batch: [UInt8] = []
        while true {
            lock.withLock {
                writing = false
                lock.broadcast()
                while pending.isEmpty { lock.wait() }
                swap(&batch, &pending)
                writing = true
                lock.broadcast()  // room for producers
            }
            if !writeAll(batch) {
                lock.withLock {
                    failed = true
                    pending.removeAll()
                    writing = false
                    lock.broadcast()
                }
                log.warning("the client stopped reading (stdout closed); further output is dropped")
                return
            }
            batch.removeAll(keepingCapacity: batch.capacity <= 1 << 20)
        }
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
