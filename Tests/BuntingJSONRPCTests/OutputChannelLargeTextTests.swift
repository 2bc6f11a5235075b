#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
@testable import BuntingJSONRPC
import BuntingRuntime
import Synchronization
import Testing

/// A message that carries a large text (a snapshot) is written from the
/// text's own buffer, between the bytes framed around it: what the reader
/// gets is, byte for byte, what copying it would have given, in order with
/// the messages around it, in both framings.
@Suite struct OutputChannelLargeTextTests {
    @Test(arguments: Framing.allCases)
    func messagesWithLargeTextsArriveAsIfCopied(framing: Framing) throws {
        // About 1.5 MB: more than the pipe holds (1 MiB), so the writer's
        // thread takes part, and less than a turn stages before it starts
        // writing early (2 MiB), so all of it is staged before the flush.
        let snapshot = EncodedJSON.array((0..<230_000).map { EncodedJSON(.int($0)) })
        #expect(snapshot.bytes.count > 1 << 20 && snapshot.bytes.count < 1 << 21)
        var params = EncodedJSON.ObjectBuilder()
        params.add(contentsOf: ["subscriptionId": "s1", "type": "CACHE_LOAD"])
        params.add(
            EncodedJSON.Key("cacheSnapshot"), prefix: Array(#"{"cards":"#.utf8), sharing: snapshot.bytes,
            suffix: Array(#","lastSyncAt":0}"#.utf8))
        params.add(contentsOf: ["reason": "AUTO_SERVER_REFRESH"])
        let small = OutgoingMessage.notification(method: "event", params: SplicedJSON(EncodedJSON(["n": 1])))
        let messages: [OutgoingMessage] = [
            small,
            .notification(method: "event", params: params.finishSpliced()),
            .success(id: .number("7"), result: EncodedJSON(trustedText: Array(snapshot.bytes.prefix(100_000)) + [93])),
            small,
        ]
        #expect(
            messages.map(\.largestSharedText).map { $0 >= OutputChannel.sharedTextMinimum } == [
                false, true, true, false,
            ])
        var framed: [UInt8] = []
        for message in messages { framing.appendFrame(message.encoded, to: &framed) }
        let expected = framed

        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writeEnd = ends[1]
        let loopSide = StateLog()
        let held = Mutex(0)
        startThread(name: "test-output") {
            let loop = EventLoop()
            let output = OutputChannel(loop: loop, fd: writeEnd)
            output.setFraming(framing)
            for message in messages { output.stage(message) }
            held.withLock { $0 = output.heldBytes }
            loopSide.record("staged")
            output.flush()
            loopSide.record(output.drain(timeout: 30) ? "drained" : "not drained")
            close(writeEnd)
        }
        #expect(loopSide.waitFor("staged"))
        #expect(held.withLock { $0 } == expected.count, "what is staged counts as held, shared texts too")
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = SystemClock().monotonicTime() + 30
        // Up to the expected count, not to the end of input: the channel
        // writes through a descriptor of its own, open as long as it lives.
        while received.count < expected.count && SystemClock().monotonicTime() < deadline {
            var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 1000) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        #expect(loopSide.waitFor("drained"))
        // Compared as one answer: a failed comparison of arrays of megabytes
        // would have the test library work out their difference.
        let firstDifference =
            zip(received, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(received.count, expected.count)
        #expect(received.count == expected.count)
        #expect(
            received.count == expected.count && firstDifference == expected.count,
            "the same bytes as the messages framed whole; first difference at \(firstDifference)")
    }
}
