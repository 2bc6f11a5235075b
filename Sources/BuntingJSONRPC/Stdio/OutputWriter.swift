#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingRuntime

/// Writes framed messages to the protocol descriptor on a thread of its own,
/// in the order they were handed over.
///
/// The loop encodes and frames each message into a staging buffer of its own
/// (`stage`), and hands the whole buffer over once per batch of loop jobs
/// (`flushStaged`): one lock and at most one wake-up per batch, not per reply.
///
/// Back-pressure: when more than `maxPendingBytes` wait to be written (the
/// client stopped reading), handing over blocks the caller — the event loop —
/// which in turn stops taking input, so memory stays bounded.
///
/// `@unchecked Sendable`: the mutable fields are guarded by `lock`, except
/// `staged`, which only the event loop's thread touches.
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
    /// Guarded by `lock`: the writer thread sleeps for want of bytes.
    private var writerWaiting = false
    /// Guarded by `lock`: a producer sleeps for want of room.
    private var producersWaiting = 0
    /// Owned by the event loop's thread: framed bytes not yet handed over.
    private var staged: [UInt8] = []
    /// Owned by the event loop's thread: an LSP body before its header is known.
    private var scratch: [UInt8] = []
    /// Owned by the event loop's thread: the framing `staged` is written in.
    private var stagingFraming: Framing = .ndjson

    public init(fd: Int32, maxPendingBytes: Int = 8 << 20) {
        self.fd = fd
        self.maxPendingBytes = maxPendingBytes
    }

    /// Sets the framing of every message staged from now on.
    public func setFraming(_ framing: Framing) {
        lock.withLock { self.framing = framing }
    }

    public func start() {
        startThread(name: "bunting-writer") { [self] in run() }
    }

    /// Encodes and frames `message` into the staging buffer. Call on the
    /// event loop; `flushStaged` hands the buffer to the writer thread.
    public func stage(_ message: JSON) {
        if staged.isEmpty { stagingFraming = lock.withLock { framing } }
        switch stagingFraming {
        case .ndjson:
            message.encode(appendingTo: &staged)
            staged.append(UInt8(ascii: "\n"))
        case .lsp:
            scratch.removeAll(keepingCapacity: true)
            message.encode(appendingTo: &scratch)
            Framing.lsp.appendFrame(scratch, to: &staged)
        }
        if staged.count >= maxPendingBytes / 4 { flushStaged() }
    }

    /// Hands the staged bytes to the writer thread, first waiting while
    /// more than the limit waits to be written.
    public func flushStaged() {
        guard !staged.isEmpty else { return }
        lock.withLock {
            while pending.count >= maxPendingBytes && !failed {
                producersWaiting += 1
                lock.wait()
                producersWaiting -= 1
            }
            if !failed {
                if pending.isEmpty {
                    swap(&pending, &staged)
                } else {
                    pending.append(contentsOf: staged)
                }
                if writerWaiting { lock.broadcast() }
            }
        }
        staged.removeAll(keepingCapacity: staged.capacity <= 1 << 20)
    }

    /// Stages and hands over one message at once.
    public func enqueue(_ message: JSON) {
        stage(message)
        flushStaged()
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
                while pending.isEmpty {
                    writerWaiting = true
                    lock.broadcast()  // a drain may be waiting for idleness
                    lock.wait()
                    writerWaiting = false
                }
                swap(&batch, &pending)
                writing = true
                if producersWaiting > 0 { lock.broadcast() }
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
