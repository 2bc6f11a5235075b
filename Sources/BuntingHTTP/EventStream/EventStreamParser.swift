import BuntingCore

/// Server-Sent Events as the WHATWG EventSource reads them, fed with bytes
/// as they arrive (a byte at a time or a megabyte at a time: the same
/// events come out). Lines end in CR, LF or CRLF, also when the CR and the
/// LF arrive apart; one leading byte order mark is skipped; `:` starts a
/// comment; a field without a colon has an empty value; one space after the
/// colon is dropped; `data:` lines join with line feeds; a blank line
/// dispatches the event, unless its data is empty; `id:` sets the last event
/// id (kept from event to event) unless it holds a NUL; `retry:` takes
/// digits only; other fields are ignored; an event cut off by the end of the
/// stream is never dispatched.
///
/// Bounded: an event's data up to `maxEventBytes`, streamed straight into
/// place; an event that goes past it is skipped as it goes by (its data is
/// dropped, not kept) and reported as `.oversized` where it ends. Event
/// types and ids are kept up to `maxFieldBytes`: a longer event type makes
/// its event skipped the same way, a longer id is ignored (it could not be
/// sent back in a header). Field names of unknown fields are not kept.
public struct EventStreamParser {
    public enum Output: Equatable, Sendable {
        case event(StreamEvent)
        /// Set when an event is dispatched (a blank line) with an id other than the last one.
        case lastEventId(String)
        case retry(milliseconds: Int)
        /// An event whose data (or type) was larger than the limit ended.
        case oversized
    }

    public let maxEventBytes: Int
    public static let maxFieldBytes = 1024
    /// The stream's last event id (`Last-Event-ID` on reconnect).
    public private(set) var lastEventId: String

    /// What the bytes of the current line are, as far as read.
    private enum LineState {
        /// Nothing read yet on this line.
        case start
        /// Reading the field name (kept in `fieldName`, up to 5 bytes).
        case field
        /// Reading the value of `data:`, straight into `data`.
        case data
        /// Reading the value of `event:`, `id:` or `retry:` into `value`.
        case value(Field)
        /// A comment, an unknown field or a value too long: read to its end and dropped.
        case ignored
    }

    private enum Field {
        case event, id, retry
    }

    private var state = LineState.start
    /// The next value byte is the first: one space there is dropped.
    private var atValueStart = false
    private var fieldName: [UInt8] = []
    /// The field name is longer than any known one.
    private var fieldNameTooLong = false
    private var value: [UInt8] = []
    private var valueTooLong = false
    private var data: [UInt8] = []
    private var eventType: [UInt8] = []
    /// The last event id buffer: what the next dispatch makes `lastEventId`.
    private var idBuffer: String
    /// The event under way went past a limit: it is skipped.
    private var oversized = false
    /// The last byte was a CR: a LF right after it ends nothing more.
    private var afterCarriageReturn = false
    /// Bytes of a leading byte order mark matched so far; nil once past it.
    private var byteOrderMarkMatched: Int? = 0

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")

    /// `lastEventId`: what the previous connection of the same stream ended with.
    public init(maxEventBytes: Int, lastEventId: String = "") {
        self.maxEventBytes = maxEventBytes
        self.lastEventId = lastEventId
        idBuffer = lastEventId
    }

    /// Bytes held for the event under way (its data, type, the field being read).
    public var bufferedBytes: Int { data.count + eventType.count + value.count + fieldName.count }

    public mutating func feed(_ bytes: [UInt8], _ emit: (Output) -> Void) {
        bytes.withUnsafeBytes { feed($0, emit) }
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Output) -> Void) {
        var start = 0
        if let matched = byteOrderMarkMatched {
            start = skipByteOrderMark(bytes, matched: matched, emit)
        }
        var index = start
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == Self.lineFeed || byte == Self.carriageReturn {
                let continuesCRLF = afterCarriageReturn && byte == Self.lineFeed
                afterCarriageReturn = byte == Self.carriageReturn
                if !continuesCRLF { endLine(emit) }
                index += 1
                continue
            }
            afterCarriageReturn = false
            // The run of bytes up to the next line end is read in one go.
            var end = index + 1
            while end < count, bytes[end] != Self.lineFeed, bytes[end] != Self.carriageReturn { end += 1 }
            read(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
            index = end
        }
    }

    /// Matches the stream's first bytes against a byte order mark; bytes
    /// that turn out not to be one are read as text. Returns where the
    /// rest of `bytes` begins.
    private mutating func skipByteOrderMark(_ bytes: UnsafeRawBufferPointer, matched: Int, _ emit: (Output) -> Void)
        -> Int
    {
        var matched = matched
        var index = 0
        while index < bytes.count, matched < Self.byteOrderMark.count {
            guard bytes[index] == Self.byteOrderMark[matched] else {
                byteOrderMarkMatched = nil
                // Not a mark after all: what looked like one is text.
                Self.byteOrderMark[..<matched].withUnsafeBytes { feed($0, emit) }
                return index
            }
            matched += 1
            index += 1
        }
        byteOrderMarkMatched = matched == Self.byteOrderMark.count ? nil : matched
        return index
    }

    /// Bytes of one line, without line ends.
    private mutating func read(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes[...]
        while !rest.isEmpty {
            switch state {
            case .start:
                if rest.first == Self.colon {
                    state = .ignored
                    return
                }
                state = .field
            case .field:
                guard let colon = rest.firstIndex(of: Self.colon) else {
                    keepFieldName(rest)
                    return
                }
                keepFieldName(rest[..<colon])
                rest = rest[(colon + 1)...]
                state = stateForValue()
                atValueStart = true
            case .data, .value, .ignored:
                if atValueStart {
                    atValueStart = false
                    if rest.first == Self.space { rest = rest.dropFirst() }
                    continue
                }
                readValue(UnsafeRawBufferPointer(rebasing: rest))
                return
            }
        }
    }

    private mutating func keepFieldName(_ bytes: Slice<UnsafeRawBufferPointer>) {
        guard !fieldNameTooLong else { return }
        if fieldName.count + bytes.count > 5 {
            fieldNameTooLong = true
            fieldName.removeAll()
        } else {
            fieldName.append(contentsOf: bytes)
        }
    }

    private func field() -> Field? {
        guard !fieldNameTooLong else { return nil }
        switch fieldName {
        case Array("event".utf8): return .event
        case Array("id".utf8): return .id
        case Array("retry".utf8): return .retry
        default: return nil
        }
    }

    private var isDataField: Bool { !fieldNameTooLong && fieldName == Array("data".utf8) }

    private func stateForValue() -> LineState {
        if isDataField { return oversized ? .ignored : .data }
        return field().map(LineState.value) ?? .ignored
    }

    private mutating func readValue(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .data:
            // `data` holds the event's earlier lines and their line feeds.
            guard data.count + bytes.count <= maxEventBytes else {
                skipEvent()
                return
            }
            data.append(contentsOf: bytes)
        case .value:
            guard !valueTooLong else { return }
            if value.count + bytes.count > Self.maxFieldBytes {
                valueTooLong = true
                value.removeAll()
            } else {
                value.append(contentsOf: bytes)
            }
        case .start, .field, .ignored:
            break
        }
    }

    /// The event under way is too large: what it held is dropped now, the
    /// rest of it as it comes, and `.oversized` is told where it ends.
    private mutating func skipEvent() {
        oversized = true
        data = []
        eventType = []
        state = .ignored
    }

    private mutating func endLine(_ emit: (Output) -> Void) {
        defer {
            state = .start
            fieldName.removeAll(keepingCapacity: true)
            fieldNameTooLong = false
            value.removeAll(keepingCapacity: true)
            valueTooLong = false
            atValueStart = false
        }
        switch state {
        case .start:
            dispatch(emit)
        case .field:
            // A line without a colon is a field with an empty value.
            if isDataField, !oversized {
                appendLineFeed()
            } else if let field = field() {
                take(field, [], emit)
            }
        case .data:
            appendLineFeed()
        case .value(let field):
            if !valueTooLong {
                take(field, value, emit)
            } else if field == .event {
                skipEvent()
            }
        case .ignored:
            break
        }
    }

    private mutating func appendLineFeed() {
        guard data.count < maxEventBytes + 1 else { return skipEvent() }
        data.append(Self.lineFeed)
    }

    private mutating func take(_ field: Field, _ value: [UInt8], _ emit: (Output) -> Void) {
        switch field {
        case .event:
            if !oversized { eventType = value }
        case .id:
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case .retry:
            // Digits only; more than 12 of them (31 years) is no delay to wait for.
            guard !value.isEmpty, value.count <= 12, value.allSatisfy({ (48...57).contains($0) }) else { return }
            emit(.retry(milliseconds: value.reduce(0) { $0 * 10 + Int($1 - 48) }))
        }
    }

    private mutating func dispatch(_ emit: (Output) -> Void) {
        if idBuffer != lastEventId {
            lastEventId = idBuffer
            emit(.lastEventId(idBuffer))
        }
        defer {
            data = []
            eventType.removeAll(keepingCapacity: true)
            oversized = false
        }
        if oversized { return emit(.oversized) }
        guard !data.isEmpty else { return }
        data.removeLast()
        let type = eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self)
        emit(.event(StreamEvent(type: type, data: data)))
    }
}
