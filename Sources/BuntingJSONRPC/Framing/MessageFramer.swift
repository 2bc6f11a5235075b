#if canImport(Glibc)
import Glibc
#endif

/// Cuts a byte stream into messages: a small state machine fed bytes as they
/// arrive, in chunks of any size (one byte at a time works the same as one
/// chunk holding several messages).
///
/// Memory stays bounded by the message size limit: an oversized message is
/// reported once and its bytes are skipped as they stream by.
public struct MessageFramer {
    /// What `feed` and `finish` produce, collected (the bytes copied).
    public enum Output: Equatable, Sendable {
        case message([UInt8])
        case problem(FramingProblem)
    }

    /// What `feed` and `finish` produce, as it happens. A message's bytes are
    /// only valid during the call: a message that arrived whole within one
    /// chunk is handed over in place, without a copy.
    public enum Event {
        case message(UnsafeRawBufferPointer)
        case problem(FramingProblem)
    }

    public typealias Emit = (Event) -> Void

    private enum State {
        /// Auto mode, before the first byte that is not white space.
        case detecting
        /// NDJSON: collecting a line; `discarding` once it grew past the limit.
        case line(discarding: Bool)
        /// LSP: collecting a header line; `discarding` once it grew past its limit.
        case header(discarding: Bool)
        /// LSP: collecting (or skipping) the rest of a body.
        case body(remaining: Int, discarding: Bool)
    }

    /// Longest LSP header line accepted; real ones are a few dozen bytes.
    static let maxHeaderLineBytes = 8192

    public let maxMessageBytes: Int
    /// The framing in use: fixed by the choice, or detected from the first bytes.
    public private(set) var framing: Framing?

    private var state: State
    private var buffer: [UInt8] = []
    /// LSP: the header block being read.
    private var contentLength: Int?
    private var headerProblem: FramingProblem?
    private var headerLinesSeen = 0
    private var bodyExpected = 0
    /// LSP: after a broken header line, further junk is skipped quietly until
    /// a well-formed block appears, so that one bad message gives one error.
    private var resyncing = false

    public init(choice: FramingChoice, maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
        switch choice {
        case .auto:
            framing = nil
            state = .detecting
        case .ndjson:
            framing = .ndjson
            state = .line(discarding: false)
        case .lsp:
            framing = .lsp
            state = .header(discarding: false)
        }
    }

    /// Feeds the next bytes of input; complete messages and problems are appended to `outputs`.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, into outputs: inout [Output]) {
        feed(bytes) { outputs.append(Self.collected($0)) }
    }

    /// Marks the end of input, appending what it completes to `outputs`.
    public mutating func finish(into outputs: inout [Output]) {
        finish { outputs.append(Self.collected($0)) }
    }

    private static func collected(_ event: Event) -> Output {
        switch event {
        case .message(let bytes): .message(Array(bytes))
        case .problem(let problem): .problem(problem)
        }
    }

    /// Feeds the next bytes of input; each complete message and problem goes to `emit`.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: Emit) {
        var index = 0
        while index < bytes.count {
            switch state {
            case .detecting:
                let byte = bytes[index]
                if isWhitespace(byte) {
                    index += 1
                } else if byte == UInt8(ascii: "C") || byte == UInt8(ascii: "c") {
                    framing = .lsp
                    state = .header(discarding: false)
                } else {
                    framing = .ndjson
                    state = .line(discarding: false)
                }
            case .line(let discarding):
                index = consumeLine(bytes, from: index, discarding: discarding, emit)
            case .header(let discarding):
                index = consumeHeaderLine(bytes, from: index, discarding: discarding, emit)
            case .body(let remaining, let discarding):
                let take = min(remaining, bytes.count - index)
                if !discarding && buffer.isEmpty && take == remaining {
                    // The whole body is in this chunk: hand it over in place.
                    emit(.message(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)])))
                    index += take
                    state = .header(discarding: false)
                    continue
                }
                if !discarding {
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                }
                index += take
                if take == remaining {
                    if !discarding { buffer.withUnsafeBytes { emit(.message($0)) } }
                    buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
                    state = .header(discarding: false)
                } else {
                    state = .body(remaining: remaining - take, discarding: discarding)
                }
            }
        }
    }

    /// Marks the end of input: a last NDJSON line without its newline is still
    /// a message; an LSP body cut short is reported.
    public mutating func finish(_ emit: Emit) {
        switch state {
        case .line(discarding: false):
            emitBufferedLine(emit)
        case .body(let remaining, let discarding):
            if !discarding {
                emit(.problem(.truncated(expected: bodyExpected, received: bodyExpected - remaining)))
            }
        case .header(discarding: false) where !buffer.isEmpty || headerLinesSeen > 0:
            if !resyncing { emit(.problem(.truncated(expected: 0, received: 0))) }
        default:
            break
        }
        buffer.removeAll()
        state = .detecting
    }

    // MARK: - NDJSON

    private mutating func consumeLine(
        _ bytes: UnsafeRawBufferPointer, from start: Int, discarding: Bool, _ emit: Emit
    ) -> Int {
        let newline = firstNewline(in: bytes, from: start)
        let end = newline ?? bytes.count
        if !discarding, buffer.isEmpty, let newline, end - start <= maxMessageBytes {
            // The whole line is in this chunk: hand it over in place.
            emitLine(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), emit)
            return newline + 1
        }
        if !discarding {
            if buffer.count + (end - start) > maxMessageBytes {
                emit(.problem(.messageTooLarge(limit: maxMessageBytes)))
                buffer.removeAll()
                state = .line(discarding: true)
            } else {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            }
        }
        guard let newline else { return bytes.count }
        if case .line(discarding: false) = state { emitBufferedLine(emit) }
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
        state = .line(discarding: false)
        return newline + 1
    }

    private func emitBufferedLine(_ emit: Emit) {
        buffer.withUnsafeBytes { emitLine($0, emit) }
    }

    /// Emits a line unless it is blank; a trailing CR is dropped.
    private func emitLine(_ line: UnsafeRawBufferPointer, _ emit: Emit) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        if line.contains(where: { !isWhitespace($0) }) { emit(.message(line)) }
    }

    // MARK: - LSP headers

    private mutating func consumeHeaderLine(
        _ bytes: UnsafeRawBufferPointer, from start: Int, discarding: Bool, _ emit: Emit
    ) -> Int {
        let newline = firstNewline(in: bytes, from: start)
        let end = newline ?? bytes.count
        if !discarding {
            if buffer.count + (end - start) > Self.maxHeaderLineBytes {
                let shown = String(decoding: buffer.prefix(40), as: UTF8.self) + "…"
                reportBrokenHeader(.invalidHeader(shown), emit)
                buffer.removeAll()
                state = .header(discarding: true)
            } else {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            }
        }
        guard let newline else { return bytes.count }
        if case .header(discarding: false) = state { headerLineEnded(emit) }
        buffer.removeAll(keepingCapacity: true)
        if case .header = state { state = .header(discarding: false) }
        return newline + 1
    }

    private mutating func headerLineEnded(_ emit: Emit) {
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        if buffer.isEmpty {
            headerBlockEnded(emit)
            return
        }
        guard let colon = buffer.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              buffer[..<colon].allSatisfy(isHeaderNameByte)
        else {
            reportBrokenHeader(.invalidHeader(String(decoding: buffer.prefix(80), as: UTF8.self)), emit)
            return
        }
        headerLinesSeen += 1
        // Content-Type and other headers are ignored.
        guard colon == Self.contentLength.count,
              zip(buffer[..<colon], Self.contentLength).allSatisfy({ $0 | 0x20 == $1 })
        else { return }
        var start = colon + 1
        var end = buffer.count
        while start < end && (buffer[start] == 0x20 || buffer[start] == 0x09) { start += 1 }
        while end > start && (buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09) { end -= 1 }
        var length = 0
        let digits = buffer[start..<end]
        let valid = !digits.isEmpty && digits.count <= 18 && digits.allSatisfy { byte in
            guard byte >= 48 && byte <= 57 else { return false }
            length = length * 10 + Int(byte - 48)
            return true
        }
        if valid {
            contentLength = length
        } else {
            headerProblem = .invalidContentLength(String(decoding: digits.prefix(40), as: UTF8.self))
        }
    }

    /// The header name that matters, lowercased; names compare without case.
    private static let contentLength = Array("content-length".utf8)

    private mutating func headerBlockEnded(_ emit: Emit) {
        defer {
            contentLength = nil
            headerProblem = nil
            headerLinesSeen = 0
        }
        guard headerLinesSeen > 0 else { return }  // blank lines between messages
        if let headerProblem {
            reportBrokenHeader(headerProblem, emit)
            return
        }
        guard let contentLength else {
            reportBrokenHeader(.missingContentLength, emit)
            return
        }
        resyncing = false
        bodyExpected = contentLength
        let tooLarge = contentLength > maxMessageBytes
        if tooLarge { emit(.problem(.messageTooLarge(limit: maxMessageBytes))) }
        if contentLength == 0 {
            if !tooLarge { emit(.message(UnsafeRawBufferPointer(start: nil, count: 0))) }
            state = .header(discarding: false)
        } else {
            state = .body(remaining: contentLength, discarding: tooLarge)
        }
    }

    private mutating func reportBrokenHeader(_ problem: FramingProblem, _ emit: Emit) {
        if !resyncing { emit(.problem(problem)) }
        resyncing = true
        contentLength = nil
        headerProblem = nil
        headerLinesSeen = 0
    }

    // MARK: - Bytes

    private func firstNewline(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else { return nil }
        return UnsafeRawPointer(found) - base
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// HTTP token characters, as header names use them.
    private func isHeaderNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
