import BuntingJSONRPC
import Testing

/// A framing slip never wedges the stream: each slip below gives exactly one
/// problem, and every well-framed message after it is read — however the
/// bytes are cut into chunks (here: at every byte boundary, and one byte at
/// a time).
@Suite struct FramingSlipTests {
    static let request = #"{"jsonrpc":"2.0","id":1,"method":"status"}"#

    /// The slips, each with what it must be reported as: one error each, a
    /// body cut short included (its rest, up to the next header, is skipped
    /// quietly).
    static let slips: [(name: String, bytes: String, problem: FramingProblem?, cutBody: String?)] = [
        (
            "Content-Length counted in characters", "Content-Length: 16\r\n\r\n{\"userId\":\"zoë\"}",
            .bodyEndsInsideJSON(declared: 16, nonASCII: 1), nil
        ),
        // Cut right after an inner closing bracket: the body's ends look whole.
        (
            "Content-Length counted in characters, cut after a bracket",
            "Content-Length: 39\r\n\r\n{\"params\":{\"userId\":\"zoë\",\"tier\":\"gü\"}}",
            .bodyEndsInsideJSON(declared: 39, nonASCII: 2), nil
        ),
        // ASCII cut short: the parser reports where the JSON broke off, and the rest is skipped quietly.
        (
            "Content-Length three bytes short", "Content-Length: \(request.utf8.count - 3)\r\n\r\n\(request)",
            nil, String(request.dropLast(3))
        ),
        (
            "Content-Length one byte too long", "Content-Length: \(request.utf8.count + 1)\r\n\r\n\(request)",
            .bodyShorterThanContentLength(declared: request.utf8.count + 1, valueEnds: request.utf8.count), nil
        ),
        ("Content-Length of -1", "Content-Length: -1\r\n\r\n\(request)", .invalidContentLength("-1"), nil),
        (
            "two different Content-Length headers",
            "Content-Length: \(request.utf8.count)\r\nContent-Length: \(request.utf8.count + 5)\r\n\r\n\(request)",
            .conflictingContentLength(request.utf8.count, request.utf8.count + 5), nil
        ),
        (
            "a misspelt Content-Length", "Content-Lenght: \(request.utf8.count)\r\n\r\n\(request)",
            .misspeltContentLength("Content-Lenght"), nil
        ),
        ("a stray byte before a header", "x" + lspFrame(request), .misspeltContentLength("xContent-Length"), nil),
    ]

    static let followers = (1...5).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"status"}"# }

    @Test(arguments: slips.indices)
    func aSlipIsReportedOnceAndEveryLaterMessageIsRead(index: Int) {
        let slip = Self.slips[index]
        let before = lspFrame(Self.request)
        for (prefix, expectedPrefix) in [("", [MessageFramer.Output]()), (before, [message(Self.request)])] {
            let input = Array((prefix + slip.bytes + Self.followers.map { lspFrame($0) }.joined()).utf8)
            let expected =
                expectedPrefix + (slip.cutBody.map { [message($0)] } ?? [])
                + (slip.problem.map { [.problem($0)] } ?? [])
                + Self.followers.map(message)
            for choice in [FramingChoice.lsp, .auto] {
                #expect(
                    frame(input, choice: choice, chunkSize: 1).outputs == expected,
                    "\(slip.name), \(choice), byte by byte")
                for cut in 1..<input.count {
                    let outputs = frameInTwo(input, at: cut, choice: choice)
                    #expect(outputs == expected, "\(slip.name), \(choice), cut at \(cut)")
                    if outputs != expected { break }
                }
            }
        }
    }

    /// In auto mode a stray byte before the first header still means LSP.
    @Test func aStrayByteBeforeTheFirstHeaderIsStillLSP() {
        let result = frame("x" + lspFrame(Self.request) + lspFrame(Self.followers[0]), choice: .auto)
        #expect(result.framing == .lsp)
        #expect(result.outputs.last == message(Self.followers[0]))
    }

    /// A first line that holds no header is NDJSON, whatever its first byte.
    @Test func aFirstLineWithoutAHeaderIsNDJSON() {
        let result = frame("garbage\n{\"a\":1}\n", choice: .auto, chunkSize: 3)
        #expect(result.framing == .ndjson)
        #expect(result.outputs == [message("garbage"), message("{\"a\":1}")])
    }

    /// Two well-framed messages fused with no slip are not mistaken for one.
    @Test func wellFramedBodiesAreNeverScannedAsSlips() {
        let bodies = [#"{"a":"}"}"#, #"["]"]"#, #"{"s":"\"{"}"#, "42", "null", #""Content-Length: 3""#]
        let result = frame(bodies.map { lspFrame($0) }.joined(), choice: .lsp, chunkSize: 1)
        #expect(result.outputs == bodies.map(message))
    }
}

/// Feeds `input` in two chunks cut at `cut`.
func frameInTwo(_ input: [UInt8], at cut: Int, choice: FramingChoice) -> [MessageFramer.Output] {
    var framer = MessageFramer(choice: choice, maxMessageBytes: 1 << 20)
    var outputs: [MessageFramer.Output] = []
    input[..<cut].withUnsafeBytes { framer.feed($0, into: &outputs) }
    input[cut...].withUnsafeBytes { framer.feed($0, into: &outputs) }
    framer.finish(into: &outputs)
    return outputs
}

/// Found by fuzzing: in auto mode, a first line that starts with neither a
/// bracket nor a header and ends with the input was emitted whatever its size.
@Suite struct FramerFuzzRegressionTests {
    @Test func anUndecidedFirstLineKeepsTheLimit() {
        let line = [UInt8(0xFF)] + Array(repeating: 0xB7, count: 140)
        #expect(frame(line, choice: .auto, limit: 64).outputs == [.problem(.messageTooLarge(limit: 64))])
        #expect(frame(line, choice: .auto, limit: 200).outputs == [.message(line)])
    }
}
