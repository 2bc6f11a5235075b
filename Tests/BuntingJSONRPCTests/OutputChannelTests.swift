#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
@testable import BuntingJSONRPC
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
        let message = OutgoingMessage.notification(
            method: "event", params: SplicedJSON(EncodedJSON(["padding": .string(String(repeating: "x", count: 4000))]))
        )
        let messageBytes = message.encoded.count + 1 // and its newline
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
            log.record("staged") // the full pipe did not block the loop's thread
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

/// What the kernel does not take at once is written by the channel's writer
/// thread: a snapshot of megabytes reaches the client while the loop's
/// thread is busy with the rest of its turn (a refresh being evaluated).
@Suite struct OutputChannelWriterTests {
    @Test func aLargeOutputReachesTheReaderWhileTheLoopIsBusy() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writeEnd = ends[1]
        let loopSide = StateLog()
        let readerSide = StateLog()
        let message = OutgoingMessage.notification(
            method: "event", params: SplicedJSON(EncodedJSON(["padding": .string(String(repeating: "x", count: 4000))]))
        )
        let expected = 1000 * (message.encoded.count + 1)
        startThread(name: "test-output") {
            let loop = EventLoop()
            let output = OutputChannel(loop: loop, fd: writeEnd)
            // 4 MB, four times what the pipe holds; the loop never runs.
            for _ in 0..<1000 { output.stage(message) }
            output.flush()
            loopSide.record("staged")
            // Busy until the reader has everything: only another thread can write it meanwhile.
            loopSide.record(readerSide.waitFor("read all") ? "read while busy" : "not read while busy")
            close(writeEnd)
        }
        #expect(loopSide.waitFor("staged"))
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = SystemClock().monotonicTime() + 30
        while received < expected && SystemClock().monotonicTime() < deadline {
            var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 1000) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += count
        }
        #expect(received == expected, "every byte reached the reader while the loop's thread waited")
        if received == expected { readerSide.record("read all") }
        #expect(loopSide.waitFor("read while busy"))
    }
}

/// A reader that keeps up but never empties the pipe: the channel keeps
/// what waits, not everything it ever wrote.
@Suite struct OutputChannelMemoryTests {
    @Test func whatWasWrittenIsGivenBackWhileTheReaderKeepsUp() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writeEnd = ends[1]
        let log = StateLog()
        let loopBox = Mutex<EventLoop?>(nil)
        let outputBox = LoopOwned()
        // The most held beyond twice what waits plus one round's output (the
        // chunk being written is held whole until it is out), over every round.
        let worstExcess = Mutex(Int.min)
        let message = OutgoingMessage.notification(
            method: "event", params: SplicedJSON(EncodedJSON(["padding": .string(String(repeating: "x", count: 4000))]))
        )
        let messageBytes = message.encoded.count + 1
        startThread(name: "test-output") {
            let loop = EventLoop()
            let output = OutputChannel(loop: loop, fd: writeEnd, maxPendingBytes: 1 << 30)
            loopBox.withLock { $0 = loop }
            outputBox.output = output
            log.record("ready")
            loop.run()
            close(writeEnd)
        }
        #expect(log.waitFor("ready"))
        let loop = try #require(loopBox.withLock { $0 })
        let rounds = 300
        let perRound = 10 // about 40 KB a round; the reader takes about 32 KB of it
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 32 << 10)
        for round in 0..<rounds {
            loop.post {
                guard let output = outputBox.output else { return }
                for _ in 0..<perRound { output.stage(message) }
                output.flush()
                let excess = output.heldBytes - 2 * output.waitingBytes - perRound * messageBytes
                worstExcess.withLock { $0 = max($0, excess) }
                log.record("round \(round)")
            }
            #expect(log.waitFor("round \(round)"))
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count > 0 { received += count }
        }
        // Then read the rest: nothing was lost on the way.
        while received < rounds * perRound * messageBytes {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += count
        }
        #expect(received == rounds * perRound * messageBytes)
        #expect(worstExcess.withLock { $0 } <= 0, "the channel held more than twice what waited")
        loop.stop()
    }
}

/// The channel, made and used on the loop's thread only; the test thread
/// merely hands the box to the jobs it posts.
private final class LoopOwned: @unchecked Sendable {
    var output: OutputChannel?
}
