#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingRuntime

/// Writes framed messages to the protocol descriptor from the event loop,
/// in the order they were staged, without ever blocking the loop: a client
/// that stops reading cannot stall timers, flushes to the sink or signals.
///
/// Messages are encoded and framed into `staged` as the loop produces them;
/// at the end of each turn `flush()` hands them to the kernel in as few
/// writes as it takes. What the kernel does not take waits in `pending`
/// until the descriptor has room again.
///
/// Back-pressure: past `maxPendingBytes` waiting, `onFull` tells the server
/// to stop reading input until the client catches up (`onRoom`), so memory
/// stays bounded by what the requests already read can produce.
///
/// Owned by the event loop: every method runs on the loop's thread.
public final class OutputChannel {
    private let loop: EventLoop
    private let output: ProtocolOutput
    public let maxPendingBytes: Int
    private var framing: Framing = .ndjson
    /// Framed messages of this turn, not yet handed to the kernel.
    private var staged: [UInt8] = []
    /// An LSP body before its header is known.
    private var scratch: [UInt8] = []
    /// Handed over and not yet written; `written` bytes of it are out.
    private var pending: [UInt8] = []
    private var written = 0
    private var watch: EventLoop.WatchToken?
    /// The descriptor failed (the client closed it): output is dropped.
    public private(set) var failed = false
    /// Runs before staged bytes reach the kernel: what was staged may only be
    /// seen once what it reports is done (storage commits, for ENQUEUED).
    public var beforeWrite: (() -> Void)?
    /// Called when more than the limit waits to be written: stop producing.
    public var onFull: (() -> Void)?
    /// Called when, after `onFull`, the waiting bytes fell below half the limit.
    public var onRoom: (() -> Void)?
    /// `onFull` was called and `onRoom` is owed.
    private var full = false

    public init(loop: EventLoop, fd: Int32, maxPendingBytes: Int = 8 << 20) {
        self.loop = loop
        self.output = ProtocolOutput(fd)
        self.maxPendingBytes = maxPendingBytes
    }

    /// The framing of every message staged from now on.
    public func setFraming(_ framing: Framing) {
        self.framing = framing
    }

    /// Bytes flushed that the kernel has not taken yet.
    var waitingBytes: Int { pending.count - written }
    /// What the channel holds in memory for output: what waits, and the
    /// written start of `pending` not yet given back.
    var heldBytes: Int { pending.count + staged.count }
    /// Below this the written start of `pending` is left in place: moving
    /// the rest forward costs more than the memory is worth.
    static let compactionBytes = 64 << 10

    /// Encodes and frames `message` after those staged before it.
    public func stage(_ message: OutgoingMessage) {
        switch framing {
        case .ndjson:
            message.encode(appendingTo: &staged)
            staged.append(UInt8(ascii: "\n"))
        case .lsp:
            scratch.removeAll(keepingCapacity: true)
            message.encode(appendingTo: &scratch)
            Framing.lsp.appendFrame(scratch, to: &staged)
            if scratch.capacity > 1 << 20 { scratch = [] }
        }
        // A turn that produces a lot (a large batch) starts writing early.
        if staged.count >= maxPendingBytes / 4 { flush() }
    }

    /// Hands the staged bytes to the kernel, as much as it takes now.
    public func flush() {
        guard !staged.isEmpty else { return }
        beforeWrite?()
        if failed {
            staged.removeAll()
            return
        }
        if written == pending.count {
            pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
            written = 0
            swap(&pending, &staged)
        } else {
            // A reader that keeps up but never empties the pipe would
            // otherwise keep everything ever written in `pending`: drop the
            // written start once it is as large as what still waits (so each
            // byte is moved at most once on average).
            if written >= Self.compactionBytes && written >= waitingBytes {
                pending.removeFirst(written)
                written = 0
            }
            pending.append(contentsOf: staged)
            staged.removeAll(keepingCapacity: staged.capacity <= 1 << 20)
        }
        writeSome()
    }

    /// Writes until the kernel takes no more; then waits for room on the loop.
    private func writeSome() {
        while written < pending.count {
            let count = pending.withUnsafeBytes { output.write($0.baseAddress! + written, $0.count - written) }
            guard let count else {
                failed = true
                pending.removeAll()
                written = 0
                stopWatching()
                log.warning("the client stopped reading (stdout closed); further output is dropped")
                if full {
                    full = false
                    onRoom?()
                }
                return
            }
            written += count
            if count == 0 || !output.writesUntilFull { break }
        }
        if written == pending.count {
            pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
            written = 0
            stopWatching()
        } else if watch == nil {
            watch = loop.watch(output.fd, for: .writable) { [unowned self] _ in writeSome() }
        }
        if !full && waitingBytes >= maxPendingBytes {
            full = true
            onFull?()
        } else if full && waitingBytes < maxPendingBytes / 2 {
            full = false
            onRoom?()
        }
    }

    private func stopWatching() {
        if let watch { loop.unwatch(watch) }
        watch = nil
    }

    /// Writes everything staged and pending, for the end of the process, when
    /// the loop no longer runs: as long as the client keeps reading, and at
    /// most `timeout` seconds after it last took anything (a client that
    /// reads slowly gets all of it; one that stopped does not hold the exit
    /// up). Returns whether all was written.
    @discardableResult
    public func drain(timeout: Double) -> Bool {
        flush()
        var deadline = SystemClock().monotonicTime() + timeout
        while !failed && written < pending.count {
            let left = deadline - SystemClock().monotonicTime()
            guard left > 0 else { return false }
            guard FileDescriptorIO.waitUntilWritable(output.fd, seconds: left) else { return false }
            let count = pending.withUnsafeBytes { output.write($0.baseAddress! + written, $0.count - written) }
            guard let count else { return false }
            written += count
            if count > 0 { deadline = SystemClock().monotonicTime() + timeout }
        }
        return !failed
    }
}
