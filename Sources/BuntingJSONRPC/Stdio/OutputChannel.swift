#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingRuntime

/// Writes framed messages to the protocol descriptor in the order they were
/// staged, without ever blocking the loop: a client that stops reading
/// cannot stall timers, flushes to the sink or signals.
///
/// Messages are encoded and framed into `staged` as the loop produces them;
/// at the end of each turn `flush()` hands them to the kernel, directly
/// while it takes them, else to the `OutputWriter`'s thread, which writes
/// them as the client reads while the loop goes on.
///
/// Back-pressure: past `maxPendingBytes` waiting, `onFull` tells the server
/// to stop reading input until the client catches up (`onRoom`), so memory
/// stays bounded by what the requests already read can produce.
///
/// Owned by the event loop: every method runs on the loop's thread.
/// `@unchecked Sendable` only so that the writer's notices can be posted
/// back to the loop, where they run.
public final class OutputChannel: @unchecked Sendable {
    private let output: ProtocolOutput
    public let maxPendingBytes: Int
    private var framing: Framing = .ndjson
    /// Framed messages of this turn, not yet handed to the kernel.
    private var staged: [UInt8] = []
    /// An LSP body before its header is known.
    private var scratch: [UInt8] = []
    /// Writes what the kernel did not take at once.
    private var writer: OutputWriter!
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
        self.output = ProtocolOutput(fd)
        self.maxPendingBytes = maxPendingBytes
        let relay = NoticeRelay()
        writer = OutputWriter(output: output) { [loop] notice in
            loop.post { relay.channel?.hear(notice) }
        }
        relay.channel = self
    }

    deinit { writer.stop() }

    /// The framing of every message staged from now on.
    public func setFraming(_ framing: Framing) {
        self.framing = framing
    }

    /// Bytes flushed that the kernel has not taken yet.
    var waitingBytes: Int { writer.waitingBytes }
    /// What the channel holds in memory for output: what is staged, what
    /// waits, and the written start of the message being written.
    var heldBytes: Int { staged.count + writer.heldBytes }

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
        // A turn that produces a lot (a large batch) starts writing early: the
        // writer's thread takes what the kernel does not, while the loop goes
        // on with the turn. Not sooner: each flush commits the store first.
        if staged.count >= maxPendingBytes / 4 { flush() }
    }

    /// Hands the staged bytes to the kernel, as much as it takes now, and
    /// the rest to the writer.
    public func flush() {
        guard !staged.isEmpty else { return }
        beforeWrite?()
        if failed {
            staged.removeAll()
            return
        }
        if writer.isIdle {
            // Nothing queued before these bytes: the loop may write them itself.
            var written = 0
            while written < staged.count {
                let count = staged.withUnsafeBytes { output.write($0.baseAddress! + written, $0.count - written) }
                guard let count else {
                    fail()
                    return
                }
                written += count
                if count == 0 || !output.writesUntilFull { break }
            }
            if written == staged.count {
                staged.removeAll(keepingCapacity: staged.capacity <= 1 << 20)
                return
            }
            writer.enqueue(staged, from: written)
        } else {
            writer.enqueue(staged)
        }
        staged = []
        if !full && writer.markFull(limit: maxPendingBytes, resumeBelow: maxPendingBytes / 2) {
            full = true
            onFull?()
        }
    }

    /// What the writer's thread reported, heard on the loop.
    private func hear(_ notice: OutputWriter.Notice) {
        switch notice {
        case .room:
            guard full else { return }
            full = false
            onRoom?()
        case .failed:
            fail()
        }
    }

    private func fail() {
        guard !failed else { return }
        failed = true
        staged.removeAll()
        log.warning("the client stopped reading (stdout closed); further output is dropped")
        if full {
            full = false
            onRoom?()
        }
    }

    /// Writes everything staged and pending, for the end of the process, when
    /// the loop no longer runs: as long as the client keeps reading, and at
    /// most `timeout` seconds after it last took anything (a client that
    /// reads slowly gets all of it; one that stopped does not hold the exit
    /// up). Returns whether all was written.
    @discardableResult
    public func drain(timeout: Double) -> Bool {
        flush()
        if failed || writer.hasFailed { return false }
        return writer.isIdle || writer.drain(timeout: timeout)
    }
}

/// Hands the writer's notices to the channel without the writer keeping it
/// alive: the channel owns the writer, not the other way round.
private final class NoticeRelay: @unchecked Sendable {
    /// Set once, on the loop, before the writer can report anything.
    weak var channel: OutputChannel?
}
