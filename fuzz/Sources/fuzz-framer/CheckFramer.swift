import BuntingJSON
import BuntingJSONRPC // the framer's module; the one line to change if it moves
import FuzzSupport

/// Longest LSP header line the framer keeps (`MessageFramer.maxHeaderLineBytes`).
private let headerLineLimit = 8192

/// Drives `MessageFramer` with the input. The first byte picks the framing
/// choice and the mode, the second the message size limit, the next two seed
/// the chunking; the rest is the payload.
///
/// - Stream mode: the payload is the wire. Fed at once, in fuzzer-chosen
///   chunks, and a byte at a time, the framer must produce the same messages
///   and problems and detect the same framing; no message may exceed the
///   limit; no buffer it holds may grow past the limit (or a header line's).
/// - Round-trip mode: the payload, cut at 0xFF bytes, is a list of message
///   bodies, framed as the server frames its output and fed in chunks; the
///   framer must give back each body, and `messageTooLarge` for each body over
///   the limit.
func checkFramer(_ bytes: UnsafeRawBufferPointer) {
    var input = FuzzInput(bytes)
    let settings = input.byte()
    let limitByte = input.byte()
    let seed = input.uint16()
    let limit = limitByte == 255 ? 1 << 20 : Int(limitByte) + 1
    let choices: [FramingChoice] = [.auto, .ndjson, .lsp, .auto]
    let choice = choices[Int(settings & 3)]
    let payload = Array(input.remaining)
    var chunking = SplitMix64(seed: UInt64(seed))

    if settings & 4 == 0 {
        checkStream(payload, choice: choice, limit: limit, chunking: &chunking)
    } else {
        checkRoundTrip(
            payload, framing: choice == .ndjson ? .ndjson : .lsp, choice: choice, limit: limit,
            chunking: &chunking)
    }
}

private func checkStream(_ payload: [UInt8], choice: FramingChoice, limit: Int, chunking: inout SplitMix64) {
    let whole = frame(payload, choice: choice, limit: limit, chunkSizes: { $0 })
    let chunked = frame(
        payload, choice: choice, limit: limit, checkingHeldBytes: true,
        chunkSizes: { chunking.next(in: 1...max(1, $0)) })
    let bytewise = frame(payload, choice: choice, limit: limit, chunkSizes: { _ in 1 })
    require(chunked.outputs == whole.outputs, "chunked input framed differently from whole input")
    require(bytewise.outputs == whole.outputs, "byte-at-a-time input framed differently from whole input")
    require(chunked.framing == whole.framing && bytewise.framing == whole.framing, "framing detected differently")
    for output in whole.outputs {
        if case .message(let body) = output {
            require(body.count <= limit, "a \(body.count)-byte message passed the limit of \(limit)")
            if whole.framing == .ndjson {
                require(!body.contains(UInt8(ascii: "\n")), "an NDJSON message holds a newline")
            }
        }
    }
}

private func checkRoundTrip(
    _ payload: [UInt8], framing: Framing, choice: FramingChoice, limit: Int, chunking: inout SplitMix64
) {
    var bodies = payload.split(separator: 0xFF, omittingEmptySubsequences: false).map(Array.init)
    if framing == .ndjson {
        // A line cannot hold a newline; a trailing CR and blank lines are dropped by design.
        bodies = bodies.map { $0.filter { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") } }
            .filter { $0.contains { !isWhitespace($0) } }
    } else {
        // A body that opens an object or array but is not one may be read
        // as a slip of its Content-Length by design (its value ends early, or
        // it ends inside a string past characters beyond ASCII, as a length
        // counted in characters leaves it); the server writes only JSON.
        bodies = bodies.filter { !mayReadAsSlip($0) }
    }
    var wire: [UInt8] = []
    var expected: [MessageFramer.Output] = []
    for body in bodies {
        framing.appendFrame(body, to: &wire)
        expected.append(body.count > limit ? .problem(.messageTooLarge(limit: limit)) : .message(body))
    }
    let result = frame(
        wire, choice: choice, limit: limit, checkingHeldBytes: true, chunkSizes: { chunking.next(in: 1...max(1, $0)) })
    require(
        result.outputs == expected,
        """
        framed \(bodies.count) bodies, got back \(result.outputs.count) outputs that differ
        expected: \(String(describing: expected).prefix(2000))
        got:      \(String(describing: result.outputs).prefix(2000))
        """)
    if !bodies.isEmpty {
        require(result.framing == framing, "detected \(String(describing: result.framing)), wrote \(framing)")
    }
}

/// Feeds `input` in chunks whose sizes `chunkSizes` picks from the bytes left,
/// checking after each feed, if asked (reflection is slow), that the framer
/// holds no more than it may.
private func frame(
    _ input: [UInt8], choice: FramingChoice, limit: Int, checkingHeldBytes: Bool = false, chunkSizes: (Int) -> Int
) -> (outputs: [MessageFramer.Output], framing: Framing?) {
    var framer = MessageFramer(choice: choice, maxMessageBytes: limit)
    var outputs: [MessageFramer.Output] = []
    var start = 0
    while start < input.count {
        let end = min(input.count, start + chunkSizes(input.count - start))
        input[start..<end].withUnsafeBytes { framer.feed($0, into: &outputs) }
        start = end
        if checkingHeldBytes { checkHeldBytes(framer, limit: limit) }
    }
    framer.finish(into: &outputs)
    return (outputs, framer.framing)
}

/// Every byte buffer the framer keeps, found by reflection so that the check
/// survives renaming, stays within the limit of what it may be collecting.
private func checkHeldBytes(_ framer: MessageFramer, limit: Int) {
    let bound = max(limit, headerLineLimit)
    for child in Mirror(reflecting: framer).children {
        if let held = child.value as? [UInt8] {
            require(held.count <= bound, "the framer holds \(held.count) bytes in \(child.label ?? "?"), past \(bound)")
        }
    }
}

/// Whether a body opens an object or array without being JSON, so that the
/// framer may take it for a body cut short or run over. Bodies of ASCII that
/// end with the bracket they open with are passed on their two ends, as the
/// framer passes them.
private func mayReadAsSlip(_ body: [UInt8]) -> Bool {
    guard let first = body.first(where: { !isWhitespace($0) }), let last = body.last(where: { !isWhitespace($0) })
    else { return false }
    let close: UInt8
    switch first {
    case UInt8(ascii: "{"): close = UInt8(ascii: "}")
    case UInt8(ascii: "["): close = UInt8(ascii: "]")
    default: return false
    }
    if last == close && body.allSatisfy({ $0 < 0x80 }) { return false }
    return (try? JSON.parse(body)) == nil
}

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}
