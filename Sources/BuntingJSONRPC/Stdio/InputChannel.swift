#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingRuntime

/// Reads the protocol descriptor on the event loop when it is readable, cuts
/// the bytes into messages and parses them, handing each to `deliver` as it
/// is complete: a request that needs no I/O is read, answered and written in
/// one turn of one thread.
///
/// Owned by the event loop: every method runs on the loop's thread.
final class InputChannel {
    struct Settings {
        var framing: FramingChoice
        var maxMessageBytes: Int
        var maxDepth: Int
        var maxBatchLength: Int
    }

    private let loop: EventLoop
    private let fd: Int32
    private let settings: Settings
    private var framer: MessageFramer
    private let chunk: UnsafeMutableRawBufferPointer
    private var watch: EventLoop.WatchToken?
    private var paused = false
    private var ended = false

    /// Gets each message or problem, in order.
    var deliver: (InboundItem) -> Void = { _ in }
    /// Called once, when the first bytes decided the framing, before the
    /// first message is delivered.
    var framingDetected: (Framing) -> Void = { _ in } {
        didSet { framer.framingDecided = framingDetected }
    }
    /// Called once, after the last delivery.
    var inputEnded: () -> Void = {}

    /// Larger messages leave freed memory behind that is given back.
    private static let largeMessageBytes = 1 << 20

    init(loop: EventLoop, fd: Int32, settings: Settings) {
        self.loop = loop
        self.fd = fd
        self.settings = settings
        framer = MessageFramer(choice: settings.framing, maxMessageBytes: settings.maxMessageBytes)
        chunk = .allocate(byteCount: 1 << 16, alignment: 16)
    }

    deinit {
        chunk.deallocate()
    }

    func start() {
        guard watch == nil, !ended else { return }
        watch = loop.watch(fd, for: .readable) { [unowned self] events in readable(events) }
    }

    /// Stops reading until `resume()`: the client is not reading its replies.
    func pause() {
        guard !paused, let watch else { return }
        paused = true
        loop.setInterest([], of: watch)
    }

    func resume() {
        guard paused, let watch else { return }
        paused = false
        loop.setInterest(.readable, of: watch)
    }

    /// Reads no more (shutting down).
    func stop() {
        if let watch { loop.unwatch(watch) }
        watch = nil
    }

    private func readable(_ events: Int16) {
        let count: Int
        switch FileDescriptorIO.readSome(fd, into: chunk) {
        case .transferred(let read): count = read
        case .end: count = 0
        case .wouldBlock: return
        case .failed(let error):
            log.warning("reading stdin failed (\(error.message)); treating it as end of input")
            count = 0
        }
        var sawLarge = false
        let handle: MessageFramer.Emit = { [self] event in
            switch event {
            case .problem(let problem):
                deliver(.brokenFrame(problem))
            case .message(let bytes):
                if bytes.count >= Self.largeMessageBytes { sawLarge = true }
                deliver(.parse(bytes, maxDepth: settings.maxDepth, maxBatchLength: settings.maxBatchLength))
            }
        }
        if count > 0 {
            framer.feed(UnsafeRawBufferPointer(rebasing: chunk[..<count]), handle)
        } else {
            framer.finish(handle)
        }
        if sawLarge { releaseFreedMemory() }
        if count <= 0 {
            ended = true
            stop()
            inputEnded()
        }
    }
}
