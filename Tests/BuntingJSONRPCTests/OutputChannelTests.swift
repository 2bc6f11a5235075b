#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime
import Synchronization
import Testing

/// What a loop thread reports, awaited by the test thread with a deadline.
final class StateLog: Sendable {
    private let states = Mutex<[String]>([])
    private let changed = ConditionLock()

    func record(_ state: String) {
        changed.withLock {
            states.withLock { $0.append(state) }
            changed.broadcast()
        }
    }

    var all: [String] { states.withLock { $0 } }

    func waitFor(_ state: String) -> Bool {
        changed.withLock {
            let deadline = SystemClock().monotonicTime() + 30
            while !states.withLock({ $0.contains(state) }) {
                guard SystemClock().monotonicTime() < deadline else { return false }
                changed.wait(seconds: 1)
            }
            return true
        }
    }
}

/// The output channel never blocks its loop: past its limit it tells the
/// server to stop producing, and when the reader catches up, to go on.
@Suite struct OutputChannelTests {
    @Test func aReaderThatStopsFillsTheChannelAndOneThatReadsEmptiesIt() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let log = StateLog()
        let loopBox = Mutex<EventLoop?>(nil)
        let writeEnd = ends[1]
        let message = OutgoingMessage.notification(method: "event", params: EncodedJSON(["padding": .string(String(repeating: "x", count: 4000))]))
        let messageBytes = message.encoded.count + 1  // and its newline
        startThread(name: "test-output") {
            let loop = EventLoop()
            loopBox.withLock { $0 = loop }
            let output = OutputChannel(loop: loop, fd: writeEnd, maxPendingBytes: 64 << 10)
            output.onFull = { log.record("full") }
            output.onRoom = { log.record("room") }
            loop.addTurnEndHook { output.flush() }
            // 4 MB of notifications, far more than the pipe and the limit hold.
            for _ in 0..<1000 { output.stage(message) }
            output.flush()
            log.record("staged")  // the full pipe did not block the loop's thread
            loop.run()
            close(writeEnd)
        }
        #expect(log.waitFor("staged"))
        #expect(log.waitFor("full"))
        #expect(!log.all.contains("room"), "nobody read yet")
        // Read it all back: the loop writes the rest as the pipe drains.
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while received < 1000 * messageBytes {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += count
        }
        #expect(received == 1000 * messageBytes, "every message reached the reader")
        #expect(log.waitFor("room"))
        loopBox.withLock { $0?.stop() }
    }
}
