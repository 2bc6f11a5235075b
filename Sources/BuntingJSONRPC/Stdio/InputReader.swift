#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingRuntime
import Synchronization

/// Reads the protocol descriptor on a thread of its own, cuts the bytes into
/// messages and parses them, then hands each chunk's worth to the loop.
///
/// Parsing here rather than on the loop lets the two work in parallel.
public final class InputReader: Sendable {
    private let fd: Int32
    private let choice: FramingChoice
    private let maxMessageBytes: Int
    private let maxDepth: Int
    private let stopped = Atomic<Bool>(false)

    public init(fd: Int32, framing: FramingChoice, maxMessageBytes: Int, maxDepth: Int) {
        self.fd = fd
        self.choice = framing
        self.maxMessageBytes = maxMessageBytes
        self.maxDepth = maxDepth
    }

    /// Starts reading. `framingDetected` is called once, before the first
    /// delivery; `deliver` gets the items of each read in order and may block
    /// (back-pressure); `ended` is called once, after the last delivery.
    public func start(
        framingDetected: @escaping @Sendable (Framing) -> Void,
        deliver: @escaping @Sendable ([InboundItem]) -> Void,
        ended: @escaping @Sendable () -> Void
    ) {
        startThread(name: "bunting-reader") { [self] in
            var framer = MessageFramer(choice: choice, maxMessageBytes: maxMessageBytes)
            var reported = false
            let chunkSize = 1 << 16
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { chunk.deallocate() }
            var items: [InboundItem] = []
            let parse: MessageFramer.Emit = { [maxDepth] event in
                switch event {
                case .problem(let problem):
                    items.append(.brokenFrame(problem))
                case .message(let bytes):
                    do throws(JSONParseError) {
                        items.append(.message(try JSON.parse(bytes, maxDepth: maxDepth)))
                    } catch {
                        items.append(.unparsable(error))
                    }
                }
            }
            while !stopped.load(ordering: .relaxed) {
                let count = read(fd, chunk.baseAddress, chunkSize)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    if count < 0 { log.warning("reading stdin failed (errno \(errno)); treating it as end of input") }
                    framer.finish(parse)
                } else {
                    framer.feed(UnsafeRawBufferPointer(rebasing: chunk[..<count]), parse)
                }
                if !reported, let framing = framer.framing {
                    reported = true
                    framingDetected(framing)
                }
                if !items.isEmpty && !stopped.load(ordering: .relaxed) {
                    deliver(items)
                }
                items.removeAll(keepingCapacity: true)
                if count <= 0 { break }
            }
            ended()
        }
    }

    /// Stops handing over input; the thread ends after its current read.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

}
