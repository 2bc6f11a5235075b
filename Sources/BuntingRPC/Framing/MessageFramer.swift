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
    public enum Output: Equatable, Sendable {
        case message([UInt8])
        case problem(FramingProblem)
    }

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
                index = consumeLine(bytes, from: index, discarding: discarding, into: &outputs)
            case .header(let discarding):
                index = consumeHeaderLine(bytes, from: index, discarding: discarding, into: &outputs)
            case .body(let remaining, let discarding):
                let take = min(remaining, bytes.count - index)
                if !discarding {
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                }
                index += take
                if take == remaining {
                    if !discarding { outputs.append(.message(buffer)) }
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
    public mutating func finish(into outputs: inout [Output]) {
        switch state {
        case .line(discarding: false):
            emitLine(into: &outputs)
        case .body(let remaining, let discarding):
            if !discarding {
                outputs.append(.problem(.truncated(expected: bodyExpected, received: bodyExpected - remaining)))
            }
        case .header(discarding: false) where !buffer.isEmpty || headerLinesSeen > 0:
            if !resyncing { outputs.append(.problem(.truncated(expected: 0, received: 0))) }
        default:
            break
        }
        buffer.removeAll()
        state = .detecting
    }

    // MARK: - NDJSON

    private mutating func consumeLine(
        _ bytes: UnsafeRawBufferPointer, from start: Int, discarding: Bool, into outputs: inout [Output]
    ) -> Int {
        let newline = firstNewline(in: bytes, from: start)
        let end = newline ?? bytes.count
        if !discarding {
            if buffer.count + (end - start) > maxMessageBytes {
                outputs.append(.problem(.messageTooLarge(limit: maxMessageBytes)))
                buffer.removeAll()
                state = .line(discarding: true)
            } else {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            }
        }
        guard let newline else { return bytes.count }
        if case .line(discarding: false) = state { emitLine(into: &outputs) }
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
        state = .line(discarding: false)
        return newline + 1
    }

    /// Emits the collected line unless it is blank; a trailing CR is dropped.
    private mutating func emitLine(into outputs: inout [Output]) {
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        if buffer.contains(where: { !isWhitespace($0) }) { outputs.append(.message(buffer)) }
    }

    // MARK: - LSP headers

    private mutating func consumeHeaderLine(
        _ bytes: UnsafeRawBufferPointer, from start: Int, discarding: Bool, into outputs: inout [Output]
    ) -> Int {
        let newline = firstNewline(in: bytes, from: start)
        let end = newline ?? bytes.count
        if !discarding {
            if buffer.count + (end - start) > Self.maxHeaderLineBytes {
                let shown = String(decoding: buffer.prefix(40), as: UTF8.self) + "…"
                reportBrokenHeader(.invalidHeader(shown), into: &outputs)
                buffer.removeAll()
                state = .header(discarding: true)
            } else {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            }
        }
        guard let newline else { return bytes.count }
        if case .header(discarding: false) = state { headerLineEnded(into: &outputs) }
        buffer.removeAll(keepingCapacity: true)
        if case .header = state { state = .header(discarding: false) }
        return newline + 1
    }

    private mutating func headerLineEnded(into outputs: inout [Output]) {
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        if buffer.isEmpty {
            headerBlockEnded(into: &outputs)
            return
        }
        guard let colon = buffer.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              buffer[..<colon].allSatisfy(isHeaderNameByte)
        else {
            reportBrokenHeader(.invalidHeader(String(decoding: buffer.prefix(80), as: UTF8.self)), into: &outputs)
            return
        }
        headerLinesSeen += 1
        let name = String(decoding: buffer[..<colon], as: UTF8.self).lowercased()
        guard name == "content-length" else { return }  // Content-Type and others are ignored
        let value = String(decoding: buffer[(colon + 1)...], as: UTF8.self).trimmingWhitespace()
        if let length = Int(value), length >= 0, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            contentLength = length
        } else {
            headerProblem = .invalidContentLength(String(value.prefix(40)))
        }
    }

    private mutating func headerBlockEnded(into outputs: inout [Output]) {
        defer {
            contentLength = nil
            headerProblem = nil
            headerLinesSeen = 0
        }
        guard headerLinesSeen > 0 else { return }  // blank lines between messages
        if let headerProblem {
            reportBrokenHeader(headerProblem, into: &outputs)
            return
        }
        guard let contentLength else {
            reportBrokenHeader(.missingContentLength, into: &outputs)
            return
        }
        resyncing = false
        bodyExpected = contentLength
        let tooLarge = contentLength > maxMessageBytes
        if tooLarge { outputs.append(.problem(.messageTooLarge(limit: maxMessageBytes))) }
        if contentLength == 0 {
            if !tooLarge { outputs.append(.message([])) }
            state = .header(discarding: false)
        } else {
            state = .body(remaining: contentLength, discarding: tooLarge)
        }
    }

    private mutating func reportBrokenHeader(_ problem: FramingProblem, into outputs: inout [Output]) {
        if !resyncing { outputs.append(.problem(problem)) }
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

extension String {
    /// Drops spaces and tabs at both ends.
    func trimmingWhitespace() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
