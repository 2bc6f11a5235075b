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
/// them as the client reads while the loop goes on. A message that carries
/// a large text (a snapshot of megabytes) is not copied into `staged`: the
/// text is written from its own buffer, between the bytes framed around it.
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
    /// Framed messages of this turn, not yet handed to the kernel: `sealed`
    /// (large texts in their own buffers, and what was staged before each),
    /// then `staged`.
    private var staged: [UInt8] = []
    private var sealed: [[UInt8]] = []
    private var sealedBytes = 0
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
    var heldBytes: Int { staged.count + sealedBytes + writer.heldBytes }

    /// A text this large is written from its own buffer rather than copied
    /// into the staged bytes (copying 4 MB costs more than a write of its own).
    static let sharedTextMinimum = 64 << 10

    /// Encodes and frames `message` after those staged before it.
    public func stage(_ message: OutgoingMessage) {
        if message.largestSharedText >= Self.sharedTextMinimum {
            stageInPieces(message.pieces)
        } else {
            stageCopied(message)
        }
        // A turn that produces a lot (a large batch) starts writing early: the
        // writer's thread takes what the kernel does not, while the loop goes
        // on with the turn. Not sooner: each flush commits the store first.
        if staged.count + sealedBytes >= maxPendingBytes / 4 { flush() }
    }

    private func stageCopied(_ message: OutgoingMessage) {
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
    }

    /// The message's large pieces sealed as they are, the small ones (and
    /// the framing) copied into `staged` around them.
    private func stageInPieces(_ pieces: [[UInt8]]) {
        if framing == .lsp {
            Framing.appendLSPHeader(bodyLength: pieces.reduce(0) { $0 + $1.count }, to: &staged)
        }
        for piece in pieces {
            if piece.count >= Self.sharedTextMinimum {
                seal(staged)
                staged = []
                seal(piece)
            } else {
                staged.append(contentsOf: piece)
            }
        }
        if framing == .ndjson { staged.append(UInt8(ascii: "\n")) }
    }

    private func seal(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        sealed.append(bytes)
        sealedBytes += bytes.count
    }

    /// Hands the staged bytes to the kernel, as much as it takes now, and
    /// the rest to the writer.
    public func flush() {
        guard !staged.isEmpty || !sealed.isEmpty else { return }
        beforeWrite?()
        if failed {
            dropStaged()
            return
        }
        if sealed.isEmpty {
            if writer.isIdle {
                // Nothing queued before these bytes: the loop may write them itself.
                guard let written = writeNow(staged) else { return fail() }
                if written == staged.count {
                    staged.removeAll(keepingCapacity: staged.capacity <= 1 << 20)
                    return
                }
                writer.enqueue(CollectionOfOne(staged), from: written)
            } else {
                writer.enqueue(CollectionOfOne(staged))
            }
            staged = []
        } else {
            seal(staged)
            let chunks = sealed
            dropStaged()
            var first = 0
            var written = 0
            if writer.isIdle {
                while first < chunks.count {
                    guard let count = writeNow(chunks[first]) else { return fail() }
                    guard count == chunks[first].count else {
                        written = count
                        break
                    }
                    first += 1
                }
            }
            writer.enqueue(chunks[first...], from: written)
        }
        if !full && writer.markFull(limit: maxPendingBytes, resumeBelow: maxPendingBytes / 2) {
            full = true
            onFull?()
        }
    }

    /// Writes what the kernel takes of `bytes` now: how many it took, or nil
    /// when the descriptor failed.
    private func writeNow(_ bytes: [UInt8]) -> Int? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { output.write($0.baseAddress! + written, $0.count - written) }
            guard let count else { return nil }
            written += count
            if count == 0 || !output.writesUntilFull { break }
        }
        return written
    }

    private func dropStaged() {
        staged = []
        sealed = []
        sealedBytes = 0
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
        dropStaged()
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
