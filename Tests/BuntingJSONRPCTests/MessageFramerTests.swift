import BuntingJSONRPC
import Testing

/// Feeds `input` to a framer in chunks of `chunkSize` bytes (0: all at once)
/// and returns what it produced, end of input included.
func frame(_ input: [UInt8], choice: FramingChoice, chunkSize: Int = 0, limit: Int = 1 << 20) -> (
    outputs: [MessageFramer.Output], framing: Framing?
) {
    var framer = MessageFramer(choice: choice, maxMessageBytes: limit)
    var outputs: [MessageFramer.Output] = []
    let size = chunkSize == 0 ? max(1, input.count) : chunkSize
    var start = 0
    while start < input.count {
        let end = min(input.count, start + size)
        input[start..<end].withUnsafeBytes { framer.feed($0, into: &outputs) }
        start = end
    }
    framer.finish(into: &outputs)
    return (outputs, framer.framing)
}

func frame(_ text: String, choice: FramingChoice, chunkSize: Int = 0, limit: Int = 1 << 20) -> (
    outputs: [MessageFramer.Output], framing: Framing?
) {
    frame(Array(text.utf8), choice: choice, chunkSize: chunkSize, limit: limit)
}

func message(_ text: String) -> MessageFramer.Output { .message(Array(text.utf8)) }

func lspFrame(_ body: String, extraHeaders: String = "") -> String {
    "Content-Length: \(body.utf8.count)\r\n\(extraHeaders)\r\n\(body)"
}

@Suite struct NDJSONFramingTests {
    @Test(arguments: [0, 1, 2, 7])
    func splitsLinesWhateverTheChunking(chunkSize: Int) {
        let result = frame("{\"a\":1}\n[2]\r\n\n   \n\"x\"", choice: .ndjson, chunkSize: chunkSize)
        #expect(result.outputs == [message("{\"a\":1}"), message("[2]"), message("\"x\"")])
    }

    @Test func aLongLineIsReportedOnceAndSkipped() {
        let long = String(repeating: "x", count: 5000)
        for chunkSize in [0, 100, 4999] {
            let result = frame("[1]\n\(long)\n[3]\n", choice: .ndjson, chunkSize: chunkSize, limit: 1024)
            #expect(result.outputs == [message("[1]"), .problem(.messageTooLarge(limit: 1024)), message("[3]")])
        }
    }

    @Test func aLineExactlyAtTheLimitIsKept() {
        let body = "\"" + String(repeating: "y", count: 1022) + "\""
        #expect(frame(body + "\n", choice: .ndjson, limit: 1024).outputs == [message(body)])
    }

    @Test func endOfInputInsideATooLongLineSaysNothingMore() {
        let result = frame(String(repeating: "z", count: 3000), choice: .ndjson, chunkSize: 1000, limit: 1024)
        #expect(result.outputs == [.problem(.messageTooLarge(limit: 1024))])
    }
}

@Suite struct LSPFramingTests {
    @Test(arguments: [0, 1, 3, 16])
    func readsFusedFramesWhateverTheChunking(chunkSize: Int) {
        let input =
            lspFrame("{\"a\":1}")
            + lspFrame("[1,2]", extraHeaders: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
        let result = frame(input, choice: .lsp, chunkSize: chunkSize)
        #expect(result.outputs == [message("{\"a\":1}"), message("[1,2]")])
    }

    @Test func headerNamesAreCaseInsensitiveAndBareNewlinesAccepted() {
        let result = frame("content-length:   3\n\n[1]CONTENT-LENGTH: 2\r\n\r\n{}", choice: .lsp)
        #expect(result.outputs == [message("[1]"), message("{}")])
    }

    @Test func bodiesMayHoldNewlinesAndMultibyteText() {
        let body = "{\n\"k\": \"é😀\"\n}"
        #expect(frame(lspFrame(body), choice: .lsp, chunkSize: 1).outputs == [message(body)])
    }

    @Test func missingContentLengthIsReportedAndTheNextFrameRead() {
        let result = frame("Content-Type: x\r\n\r\n" + lspFrame("[1]"), choice: .lsp)
        #expect(result.outputs == [.problem(.missingContentLength), message("[1]")])
    }

    @Test(arguments: ["abc", "-5", "1e3", "", "12 34", "+7"])
    func invalidContentLengthIsReported(value: String) {
        let result = frame("Content-Length: \(value)\r\n\r\n" + lspFrame("[1]"), choice: .lsp)
        #expect(result.outputs.first == .problem(.invalidContentLength(value)))
        #expect(result.outputs.last == message("[1]"))
    }

    @Test func junkLinesGiveOneErrorThenTheStreamResynchronises() {
        let result = frame("{\"not\":\"framed\"}\r\nmore junk\r\n\r\n" + lspFrame("[7]"), choice: .lsp)
        #expect(result.outputs == [.problem(.invalidHeader("{\"not\":\"framed\"}")), message("[7]")])
    }

    @Test func anOversizedBodyIsSkippedWithoutBeingStored() {
        let big = "[" + String(repeating: "1,", count: 2000) + "1]"
        for chunkSize in [0, 1, 500] {
            let result = frame(lspFrame(big) + lspFrame("[2]"), choice: .lsp, chunkSize: chunkSize, limit: 1024)
            #expect(result.outputs == [.problem(.messageTooLarge(limit: 1024)), message("[2]")])
        }
    }

    @Test func aHugeHeaderLineIsCutOff() {
        let result = frame(
            "X-Junk: " + String(repeating: "j", count: 20_000) + "\r\n\r\n" + lspFrame("[3]"), choice: .lsp,
            chunkSize: 999)
        #expect(result.outputs.count == 2)
        if case .problem(.invalidHeader) = result.outputs[0] {
        } else {
            Issue.record("expected an invalid header, got \(result.outputs[0])")
        }
        #expect(result.outputs[1] == message("[3]"))
    }

    @Test func aBodyCutShortByEndOfInputIsReported() {
        let result = frame("Content-Length: 10\r\n\r\n[1,2", choice: .lsp)
        #expect(result.outputs == [.problem(.truncated(expected: 10, received: 4))])
    }

    @Test func endOfInputInsideHeadersIsReported() {
        #expect(
            frame("Content-Length: 10\r\n", choice: .lsp).outputs == [.problem(.truncated(expected: 0, received: 0))])
        #expect(frame("Content-Len", choice: .lsp).outputs == [.problem(.truncated(expected: 0, received: 0))])
    }

    @Test func zeroLengthBodyIsAnEmptyMessage() {
        #expect(frame("Content-Length: 0\r\n\r\n", choice: .lsp).outputs == [.message([])])
    }
}

@Suite struct FramingDetectionTests {
    @Test func headersMeanLSP() {
        let result = frame("\r\n " + lspFrame("[1]"), choice: .auto, chunkSize: 1)
        #expect(result.framing == .lsp)
        #expect(result.outputs == [message("[1]")])
    }

    @Test(arguments: ["{\"a\":1}", "[1]", "null", "true", "42", "\"s\"", "garbage"])
    func anythingElseMeansNDJSON(line: String) {
        let result = frame("\n\(line)\n", choice: .auto)
        #expect(result.framing == .ndjson)
        #expect(result.outputs == [message(line)])
    }

    @Test func nothingYetMeansUndecided() {
        #expect(frame("  \n", choice: .auto).framing == nil)
    }

    @Test func framingIsWrittenTheWayItIsRead() {
        var lsp: [UInt8] = []
        Framing.lsp.appendFrame(Array("{}".utf8), to: &lsp)
        #expect(String(decoding: lsp, as: UTF8.self) == "Content-Length: 2\r\n\r\n{}")
        var ndjson: [UInt8] = []
        Framing.ndjson.appendFrame(Array("{}".utf8), to: &ndjson)
        #expect(String(decoding: ndjson, as: UTF8.self) == "{}\n")
    }
}
