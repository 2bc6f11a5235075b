import BuntingCore
@testable import BuntingHTTP
import Testing

/// The WHATWG EventSource format, each case fed whole, one byte at a time,
/// and in uneven chunks: the same outputs must come out every way.
@Suite struct EventStreamParserTests {
    typealias Output = EventStreamParser.Output

    /// Outputs of `bytes` fed in pieces of the given sizes (repeated), after
    /// checking that whole and byte-at-a-time feeding agree with them.
    func parse(
        _ bytes: [UInt8], maxEventBytes: Int = 1 << 20, lastEventId: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Output] {
        func run(_ sizes: [Int]) -> [Output] {
            var parser = EventStreamParser(maxEventBytes: maxEventBytes, lastEventId: lastEventId)
            var outputs: [Output] = []
            var index = 0
            var turn = 0
            while index < bytes.count {
                let size = sizes[turn % sizes.count]
                let end = min(bytes.count, index + size)
                parser.feed(Array(bytes[index..<end])) { outputs.append($0) }
                index = end
                turn += 1
            }
            return outputs
        }
        let whole = run([max(1, bytes.count)])
        #expect(run([1]) == whole, "fed one byte at a time", sourceLocation: sourceLocation)
        #expect(run([2, 3, 1, 7]) == whole, "fed in uneven chunks", sourceLocation: sourceLocation)
        return whole
    }

    func parse(
        _ text: String, maxEventBytes: Int = 1 << 20, lastEventId: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Output] {
        parse(Array(text.utf8), maxEventBytes: maxEventBytes, lastEventId: lastEventId, sourceLocation: sourceLocation)
    }

    func event(_ data: String, type: String = "message") -> Output {
        .event(StreamEvent(type: type, data: Array(data.utf8)))
    }

    @Test func aBlankLineDispatchesTheDataOfTheLinesBeforeIt() {
        #expect(parse("data: hello\n\n") == [event("hello")])
        #expect(parse("data: a\ndata: b\n\ndata: c\n\n") == [event("a\nb"), event("c")])
        #expect(parse("event: features\ndata: {\"features\":{}}\n\n") == [event("{\"features\":{}}", type: "features")])
    }

    @Test func linesEndInCRLFOrCRLFAlone() {
        #expect(parse("data: a\rdata: b\r\n\r\ndata: c\n\r") == [event("a\nb"), event("c")])
        // A CR and the LF after it are one line end, however they are split.
        #expect(parse("data: x\r\n\r\n") == [event("x")])
        #expect(parse("data: x\n\r\n") == [event("x")])
    }

    @Test func oneSpaceAfterTheColonIsDropped() {
        #expect(parse("data:x\n\n") == [event("x")])
        #expect(parse("data:  x\n\n") == [event(" x")])
        #expect(parse("data: \n\n") == [event("")])
    }

    @Test func aFieldWithoutAColonHasAnEmptyValue() {
        #expect(parse("data\ndata\ndata: x\n\n") == [event("\n\nx")])
        // The data buffer is one line feed, not empty: an event with empty data.
        #expect(parse("data\n\n") == [event("")])
    }

    @Test func commentsAndUnknownFieldsAreIgnored() {
        #expect(parse(": hi\n\n:\n\n") == [])
        #expect(parse("foo: bar\ndata: x\n: between\nDATA: y\nevents: z\n\n") == [event("x")])
    }

    @Test func anEventWithoutDataIsNotDispatchedAndItsTypeDoesNotCarryOver() {
        #expect(parse("event: ping\n\n") == [])
        #expect(parse("event: features\n\ndata: x\n\n") == [event("x")])
    }

    @Test func anEventCutOffByTheEndIsNotDispatched() {
        #expect(parse("data: whole\n\ndata: half") == [event("whole")])
        #expect(parse("data: whole\n\ndata: half\n") == [event("whole")])
    }

    @Test func theLastEventIdIsSetAtDispatchAndKept() {
        #expect(parse("id: 7\ndata: a\n\ndata: b\n\n") == [.lastEventId("7"), event("a"), event("b")])
        // Set by an event without data too.
        #expect(parse("id: 8\n\n") == [.lastEventId("8")])
        // An empty id clears it; the one a connection starts with is kept.
        #expect(parse("data: a\n\nid\ndata: b\n\n", lastEventId: "5") == [event("a"), .lastEventId(""), event("b")])
        var parser = EventStreamParser(maxEventBytes: 100)
        parser.feed(Array("id: 1796412637:3\ndata: x\n\ndata: y\n\n".utf8)) { _ in }
        #expect(parser.lastEventId == "1796412637:3")
    }

    @Test func anIdWithANulOrTooLongToSendBackIsIgnored() {
        #expect(parse("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n") == [.lastEventId("1"), event("a"), event("b")])
        let long = String(repeating: "x", count: EventStreamParser.maxFieldBytes + 1)
        #expect(parse("id: \(long)\ndata: a\n\n") == [event("a")])
    }

    @Test func retryTakesDigitsOnly() {
        #expect(parse("retry: 2500\n") == [.retry(milliseconds: 2500)])
        #expect(parse("retry: 25x\nretry: -1\nretry:\nretry: 1.5\nretry: 9999999999999\n") == [])
        #expect(parse("retry:0\n") == [.retry(milliseconds: 0)])
    }

    @Test func oneLeadingByteOrderMarkIsSkipped() {
        #expect(parse("\u{FEFF}data: a\n\n") == [event("a")])
        // Only at the start: a second one is part of the field name.
        #expect(parse("\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n") == [event("b")])
        // What begins like a mark and is not one is text.
        #expect(parse([0xEF, 0xBB] + Array("\ndata: c\n\n".utf8)) == [event("c")])
    }

    @Test func anEventAsLargeAsTheLimitIsTakenAndOneOverItSkipped() {
        #expect(parse("data: 0123456789\n\n", maxEventBytes: 10) == [event("0123456789")])
        #expect(parse("data: 01234\ndata: 5678\n\n", maxEventBytes: 10) == [event("01234\n5678")])
        #expect(parse("data: 0123456789A\n\ndata: ok\n\n", maxEventBytes: 10) == [.oversized, event("ok")])
        #expect(parse("data: 01234\ndata: 56789\n\ndata: ok\n\n", maxEventBytes: 10) == [.oversized, event("ok")])
        #expect(parse("data: 0123456789\ndata\n\n", maxEventBytes: 10) == [.oversized])
        // The id of a skipped event still counts.
        #expect(parse("data: 0123456789A\nid: 9\n\n", maxEventBytes: 10) == [.lastEventId("9"), .oversized])
        let longType = String(repeating: "t", count: EventStreamParser.maxFieldBytes + 1)
        #expect(parse("event: \(longType)\ndata: a\n\ndata: b\n\n") == [.oversized, event("b")])
    }

    @Test func anEventOverTheLimitIsNeverHeld() {
        var parser = EventStreamParser(maxEventBytes: 1000)
        var outputs: [Output] = []
        parser.feed(Array("data: ".utf8)) { outputs.append($0) }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        var most = 0
        for _ in 0..<256 {
            parser.feed(chunk) { outputs.append($0) }
            most = max(most, parser.bufferedBytes)
        }
        // A megabyte went by in one line: at most the limit was held, and
        // after the skip nothing but the field's name.
        #expect(most <= 1000)
        #expect(parser.bufferedBytes <= "data".utf8.count)
        parser.feed(Array("\n\ndata: next\n\n".utf8)) { outputs.append($0) }
        #expect(outputs == [.oversized, event("next")])
    }

    @Test func whatNchanSendsReadsAsItsMessages() {
        let stream =
            ": hi\n\nid: 1796412637:0\ndata: {\"a\":1}\n\nid: "
            + "1796412637:1\ndata: line1\ndata: line2\n\nevent: ping\n\n"
        #expect(
            parse(stream) == [
                .lastEventId("1796412637:0"), event("{\"a\":1}"), .lastEventId("1796412637:1"), event("line1\nline2"),
            ])
    }
}

@Suite struct GrowthBookStreamTests {
    @Test func thePayloadURLLeadsToItsStream() throws {
        let stream = GrowthBookStream.streamURL(
            forPayloadAt: try HTTPURL("https://cdn.growthbook.io/api/features/sdk-abc123"))
        #expect(stream?.text == "https://cdn.growthbook.io/sub/sdk-abc123")
        #expect(
            GrowthBookStream.streamURL(forPayloadAt: try HTTPURL("http://127.0.0.1:9/gb/api/features/key?x=1"))?.text
                == "http://127.0.0.1:9/gb/sub/key")
    }

    @Test(arguments: ["http://host/definitions.json", "http://host/api/features/", "http://host/api/features/a/b"])
    func otherURLsHaveNone(text: String) throws {
        #expect(GrowthBookStream.streamURL(forPayloadAt: try HTTPURL(text)) == nil)
    }

    @Test func onlyEnabledAnnouncesIt() {
        #expect(GrowthBookStream.isAnnounced(by: HTTPResponse(status: 200, headers: ["x-sse-support": "enabled"])))
        #expect(GrowthBookStream.isAnnounced(by: HTTPResponse(status: 200, headers: ["x-sse-support": " Enabled "])))
        #expect(!GrowthBookStream.isAnnounced(by: HTTPResponse(status: 200, headers: ["x-sse-support": "disabled"])))
        #expect(!GrowthBookStream.isAnnounced(by: HTTPResponse(status: 200)))
    }
}
