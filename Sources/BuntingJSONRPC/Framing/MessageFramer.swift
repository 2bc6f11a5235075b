#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON

/// Cuts a byte stream into messages: a small state machine fed bytes as they
/// arrive, in chunks of any size (one byte at a time works the same as one
/// chunk holding several messages).
///
/// Memory stays bounded by the message size limit: an oversized message is
/// reported once and its bytes are skipped as they stream by.
///
/// A framing slip never wedges the stream: after a broken header block, or a
/// body whose JSON does not end where its `Content-Length` says, the framer
/// reports the problem once and finds the next header — also when it is glued
/// to the end of the broken message — so that every later, well-framed
/// message is read.
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
        /// Auto mode, before the framing is known; `buffering` once the first
        /// bytes did not tell and the first line is awaited.
        case detecting(buffering: Bool)
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
    /// Called when auto detection decides, before the first message is emitted
    /// (so that its reply can be framed the same way).
    public var framingDecided: ((Framing) -> Void)?

    private var state: State
    private var buffer: [UInt8] = []
    /// LSP: the header block being read.
    private var contentLength: Int?
    private var headerProblem: FramingProblem?
    private var headerLinesSeen = 0
    /// LSP: a header name of this block that looks like a slip of Content-Length.
    private var nearMiss: String?
    private var bodyExpected = 0
    /// LSP: after a broken header line, further junk is skipped quietly until
    /// a well-formed block appears, so that one bad message gives one error.
    private var resyncing = false

    public init(choice: FramingChoice, maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
        switch choice {
        case .auto:
            framing = nil
            state = .detecting(buffering: false)
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
            case .detecting(let buffering):
                index = detect(bytes, from: index, buffering: buffering, emit)
            case .line(let discarding):
                index = consumeLine(bytes, from: index, discarding: discarding, emit)
            case .header(let discarding):
                index = consumeHeaderLine(bytes, from: index, discarding: discarding, emit)
            case .body(let remaining, let discarding):
                let take = min(remaining, bytes.count - index)
                if !discarding && buffer.isEmpty && take == remaining {
                    // The whole body is in this chunk: hand it over in place.
                    state = .header(discarding: false)
                    bodyEnded(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]), emit)
                    index += take
                    continue
                }
                if !discarding {
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                }
                index += take
                if take == remaining {
                    state = .header(discarding: false)
                    if !discarding {
                        let body = buffer
                        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
                        body.withUnsafeBytes { bodyEnded($0, emit) }
                    }
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
        case .detecting(buffering: true):
            // One line without a newline: NDJSON.
            framing = .ndjson
            framingDecided?(.ndjson)
            if buffer.count > maxMessageBytes {
                emit(.problem(.messageTooLarge(limit: maxMessageBytes)))
            } else {
                emitBufferedLine(emit)
            }
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
        state = .detecting(buffering: false)
    }

    // MARK: - Detection

    /// `{` or `[` means NDJSON and `C` a header; anything else waits for the
    /// end of the first line, which is LSP if it holds a `Content-Length`
    /// header (a stray byte before the first header) and NDJSON otherwise.
    private mutating func detect(_ bytes: UnsafeRawBufferPointer, from start: Int, buffering: Bool, _ emit: Emit) -> Int
    {
        var index = start
        if !buffering {
            while index < bytes.count && isWhitespace(bytes[index]) { index += 1 }
            guard index < bytes.count else { return index }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                decide(.ndjson)
                return index
            case UInt8(ascii: "C"), UInt8(ascii: "c"):
                decide(.lsp)
                return index
            default:
                state = .detecting(buffering: true)
            }
        }
        let newline = firstNewline(in: bytes, from: index)
        let end = newline ?? bytes.count
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
        guard newline != nil || buffer.count >= Self.maxHeaderLineBytes else { return bytes.count }
        let firstLine = buffer
        buffer.removeAll()
        decide(Self.contentLengthStart(in: firstLine) != nil ? .lsp : .ndjson)
        firstLine.withUnsafeBytes { feed($0, emit) }
        // The newline itself is fed on, so that the line ends in its new state.
        return end
    }

    private mutating func decide(_ chosen: Framing) {
        framing = chosen
        framingDecided?(chosen)
        state = chosen == .lsp ? .header(discarding: false) : .line(discarding: false)
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
        if case .header(discarding: false) = state {
            let line = buffer
            buffer.removeAll(keepingCapacity: true)
            headerLineEnded(line[...], emit)
        } else {
            buffer.removeAll(keepingCapacity: true)
        }
        if case .header = state { state = .header(discarding: false) }
        return newline + 1
    }

    private mutating func headerLineEnded(_ line: ArraySlice<UInt8>, _ emit: Emit) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if line.isEmpty {
            headerBlockEnded(emit)
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[..<colon].allSatisfy(isHeaderNameByte)
        else {
            // Junk; but a header glued to the end of a broken message (a body
            // longer than declared, a Content-Length of -1) starts inside it.
            reportBrokenHeader(.invalidHeader(String(decoding: line.prefix(80), as: UTF8.self)), emit)
            if let start = Self.contentLengthStart(in: line), start > line.startIndex {
                headerLineEnded(line[start...], emit)
            }
            return
        }
        headerLinesSeen += 1
        let name = line[..<colon]
        // Content-Type and other headers are ignored.
        guard name.count == Self.contentLength.count, zip(name, Self.contentLength).allSatisfy({ $0 | 0x20 == $1 })
        else {
            if nearMiss == nil, Self.looksLikeContentLength(name) { nearMiss = String(decoding: name, as: UTF8.self) }
            return
        }
        var start = colon + 1
        var end = line.endIndex
        while start < end && (line[start] == 0x20 || line[start] == 0x09) { start += 1 }
        while end > start && (line[end - 1] == 0x20 || line[end - 1] == 0x09) { end -= 1 }
        var length = 0
        let digits = line[start..<end]
        let valid =
            !digits.isEmpty && digits.count <= 18
            && digits.allSatisfy { byte in
                guard byte >= 48 && byte <= 57 else { return false }
                length = length * 10 + Int(byte - 48)
                return true
            }
        if !valid {
            headerProblem = headerProblem ?? .invalidContentLength(String(decoding: digits.prefix(40), as: UTF8.self))
        } else if let earlier = contentLength, earlier != length {
            headerProblem = headerProblem ?? .conflictingContentLength(earlier, length)
        } else {
            contentLength = length
        }
    }

    /// The header name that matters, lowercased; names compare without case.
    private static let contentLength = Array("content-length".utf8)

    /// Where `Content-Length` (any case) followed by a colon starts in `bytes`.
    private static func contentLengthStart<Bytes: Collection>(in bytes: Bytes) -> Bytes.Index?
    where Bytes.Element == UInt8 {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index] | 0x20 == contentLength[0], matchesContentLength(bytes[index...]) { return index }
            index = bytes.index(after: index)
        }
        return nil
    }

    private static func matchesContentLength<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var index = bytes.startIndex
        for expected in contentLength {
            guard index != bytes.endIndex, bytes[index] | 0x20 == expected else { return false }
            index = bytes.index(after: index)
        }
        while index != bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 {
            index = bytes.index(after: index)
        }
        return index != bytes.endIndex && bytes[index] == UInt8(ascii: ":")
    }

    /// A header name that holds `content-length`, or is within two edits of it.
    private static func looksLikeContentLength(_ name: ArraySlice<UInt8>) -> Bool {
        let lowered = name.map { $0 | 0x20 }
        if lowered.count > contentLength.count, contentLengthStart(in: lowered + [UInt8(ascii: ":")]) != nil {
            return true
        }
        return EditDistance.between(lowered, contentLength) <= 2
    }

    private mutating func headerBlockEnded(_ emit: Emit) {
        defer {
            contentLength = nil
            headerProblem = nil
            headerLinesSeen = 0
            nearMiss = nil
        }
        guard headerLinesSeen > 0 else { return } // blank lines between messages
        if let headerProblem {
            reportBrokenHeader(headerProblem, emit)
            return
        }
        guard let contentLength else {
            reportBrokenHeader(nearMiss.map(FramingProblem.misspeltContentLength) ?? .missingContentLength, emit)
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
        nearMiss = nil
    }

    // MARK: - LSP bodies

    /// A complete body: emitted, unless its JSON does not end where the body
    /// does — then the slip is reported and the stream resynchronised.
    private mutating func bodyEnded(_ body: UnsafeRawBufferPointer, _ emit: Emit) {
        switch BodyShape(body) {
        case .fits:
            emit(.message(body))
        case .valueEndsEarly(let end):
            // The bytes after the value are the start of the next header.
            emit(.problem(.bodyShorterThanContentLength(declared: body.count, valueEnds: end)))
            let rest = Array(UnsafeRawBufferPointer(rebasing: body[end...]))
            rest.withUnsafeBytes { feed($0, emit) }
        case .valueUnfinished(let nonASCII) where nonASCII > 0:
            // Most often a Content-Length counted in characters: one error
            // that says so, and the rest of the message, junk up to the next
            // header, is skipped without another.
            emit(.problem(.bodyEndsInsideJSON(declared: body.count, nonASCII: nonASCII)))
            resyncing = true
        case .valueUnfinished:
            // Unfinished JSON, or a Content-Length a few bytes short: the
            // parser says where the JSON broke off, and should the rest of the
            // message follow as junk, it is skipped without a second error.
            emit(.message(body))
            resyncing = true
        }
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

/// Whether an LSP body's JSON ends where the body does. Bodies of ASCII
/// that start an object or array and end with its closing bracket (every
/// well-framed request) are passed by looking at their two ends only; a body
/// with characters beyond ASCII is scanned for where its value really ends,
/// since a Content-Length counted in characters cuts such a body short, often
/// right after an inner closing bracket.
enum BodyShape: Equatable {
    case fits
    /// The value ends at this offset and more than white space follows.
    case valueEndsEarly(Int)
    /// The body ends inside the value; it holds this many characters beyond ASCII.
    case valueUnfinished(nonASCII: Int)

    init(_ body: UnsafeRawBufferPointer) {
        var first = 0
        while first < body.count && Self.isWhitespace(body[first]) { first += 1 }
        var last = body.count - 1
        while last > first && Self.isWhitespace(body[last]) { last -= 1 }
        guard first < body.count else {
            self = .fits
            return
        }
        let close: UInt8
        switch body[first] {
        case UInt8(ascii: "{"): close = UInt8(ascii: "}")
        case UInt8(ascii: "["): close = UInt8(ascii: "]")
        default:
            // A scalar or junk: the parser says what is wrong with it.
            self = .fits
            return
        }
        let nonASCII = Self.nonASCIICharacters(body)
        if nonASCII == 0 && last > first && body[last] == close {
            self = .fits
            return
        }
        var scanner = JSONTokenScanner(body, from: first)
        guard scanner.skipValue() else {
            self = .valueUnfinished(nonASCII: nonASCII)
            return
        }
        let valueEnd = scanner.position
        self = scanner.atEnd ? .fits : .valueEndsEarly(valueEnd)
    }

    /// Characters beyond ASCII: bytes that start a UTF-8 sequence of two or
    /// more. Eight bytes a step while they are all ASCII, the common case.
    private static func nonASCIICharacters(_ body: UnsafeRawBufferPointer) -> Int {
        var index = 0
        var count = 0
        while index + 8 <= body.count {
            if body.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                for offset in index..<(index + 8) where body[offset] & 0xC0 == 0xC0 { count += 1 }
            }
            index += 8
        }
        for offset in index..<body.count where body[offset] & 0xC0 == 0xC0 { count += 1 }
        return count
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
