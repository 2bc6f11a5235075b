import BuntingJSON
import Synchronization

/// Where a value starts in the text of a JSON document.
public struct JSONSourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line; lines end at `\n`.
    public let line: Int
    /// 1-based column, counted in Unicode scalars as jansson counts them.
    public let column: Int
    /// 0-based byte offset into the UTF-8 text.
    public let offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "\(line):\(column)" }
}

/// Finds the text position of the value a JSON pointer names, so that a
/// problem found in a parsed document can be shown as `line:column`.
///
/// Parsed values do not remember where they came from; rather than carry
/// positions through every value, this reads the text again (with
/// BuntingJSON's `JSONTokenScanner`), and only when there is something to
/// report. It never recurses, so any document the parser accepted is safe.
///
/// A document may have thousands of problems (5,000 broken evaluators in
/// 168 KB): each container a lookup goes through is indexed the first time
/// (its members' or elements' offsets, in one scan), and lines and columns
/// are read from an index of line starts and of code points every 512 bytes, so
/// that a lookup costs its pointer's depth and a few kilobytes at most, not
/// a scan of the document from its start each time.
public struct JSONSourceLocator: Sendable {
    private let bytes: [UInt8]
    private let indexes: Indexes
    /// Where each of the root object's members starts, when told (see `init(_:rootMembers:)`).
    private let rootMembers: [ExactString: Int]?

    /// `text` is the UTF-8 text of a document that `JSON.parse` accepted; for
    /// any other text, lookups may return nil.
    public init(_ text: [UInt8]) {
        bytes = text
        indexes = Indexes()
        rootMembers = nil
    }

    /// A locator told where the root object's members start (each key's
    /// value, as `JSONMemberSpans` finds it), so that a lookup reads no
    /// member but the one its pointer names: for a text parts of which are
    /// no longer there (a document whose compiled sections were given back
    /// while it loaded). Only `offset(of:)` is for such a text: lines and
    /// columns are counted over the whole text.
    public init(_ text: [UInt8], rootMembers: [String: Int]) {
        bytes = text
        indexes = Indexes()
        var members: [ExactString: Int] = [:]
        for (key, start) in rootMembers { members[ExactString(key)] = start }
        self.rootMembers = members
    }

    public init(_ text: String) {
        self.init(Array(text.utf8))
    }

    /// Where the value named by `pointer` starts. When the pointer goes past
    /// what the document holds (a missing member or element), the position of
    /// the deepest value on its path that exists, normally the parent object.
    /// Nil only when the text is not a JSON document.
    public func location(of pointer: JSONPointer) -> JSONSourceLocation? {
        offset(of: pointer).map(location(ofOffset:))
    }

    /// The byte offset where the value named by `pointer` starts (as
    /// `location(of:)` finds it).
    public func offset(of pointer: JSONPointer) -> Int? {
        bytes.withUnsafeBytes { (text) -> Int? in
            var scanner = JSONTokenScanner(text)
            // A byte order mark, which jansson skips too.
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
            guard !scanner.atEnd else { return nil }
            var valueStart = scanner.position
            for (depth, token) in pointer.tokens.enumerated() {
                let found =
                    if depth == 0, let rootMembers { rootMembers[ExactString(token)] } else {
                        indexes.child(token, ofContainerAt: valueStart, in: text)
                    }
                guard let childStart = found else { break }
                valueStart = childStart
            }
            return valueStart
        }
    }

    /// Line and column of a byte offset.
    public func location(ofOffset offset: Int) -> JSONSourceLocation {
        let end = max(0, min(offset, bytes.count))
        let (line, lineStart) = indexes.line(containing: end, in: bytes)
        let column = indexes.codePoints(before: end, in: bytes) - indexes.codePoints(before: lineStart, in: bytes) + 1
        return JSONSourceLocation(line: line, column: column, offset: offset)
    }
}

/// What a locator has learnt of its text, built as lookups need it. A class
/// behind a lock, so that the locator stays a value that threads may share.
private final class Indexes: @unchecked Sendable {
    private enum Children {
        case members([ExactString: Int])
        case elements([Int])
        case none
    }

    /// Guards everything below.
    private let lock = Mutex(())
    /// Container start offset → where each of its children starts.
    private var containers: [Int: Children] = [:]
    /// Offsets where lines start (after each `\n`), the first line's 0 included.
    private var lineStarts: [Int]?
    /// Code points (bytes that do not continue a UTF-8 sequence) before each
    /// multiple of `stride` bytes (a lookup counts at most that many).
    private var codePointsAt: [Int]?
    private static let stride = 512

    func child(_ token: String, ofContainerAt start: Int, in text: UnsafeRawBufferPointer) -> Int? {
        lock.withLock { _ in
            let children = containers[start] ?? index(containerAt: start, in: text)
            containers[start] = children
            switch children {
            case .members(let offsets):
                return offsets[ExactString(token)]
            case .elements(let offsets):
                guard let wanted = JSONPointer.arrayIndex(token), wanted < offsets.count else { return nil }
                return offsets[wanted]
            case .none:
                return nil
            }
        }
    }

    /// The children of the container at `start`, in one scan of it.
    private func index(containerAt start: Int, in text: UnsafeRawBufferPointer) -> Children {
        var scanner = JSONTokenScanner(text, from: start)
        switch scanner.current {
        case UInt8(ascii: "{"):
            var members: [ExactString: Int] = [:]
            _ = scanner.take(UInt8(ascii: "{"))
            repeat {
                scanner.skipWhitespace()
                let keyStart = scanner.position
                // Not a key: the object is empty ("}") or the text broken.
                guard scanner.skipString(),
                    let key = JSONTokenScanner.decodedString(scanner.bytes, keyStart..<scanner.position),
                    scanner.take(UInt8(ascii: ":"))
                else { break }
                scanner.skipWhitespace()
                if members[ExactString(key)] == nil { members[ExactString(key)] = scanner.position }
                guard scanner.skipValue() else { break }
            } while scanner.take(UInt8(ascii: ","))
            return .members(members)
        case UInt8(ascii: "["):
            var elements: [Int] = []
            guard scanner.take(UInt8(ascii: "[")), !scanner.take(UInt8(ascii: "]")) else { return .elements([]) }
            repeat {
                scanner.skipWhitespace()
                if scanner.atEnd { break }
                elements.append(scanner.position)
                guard scanner.skipValue() else { break }
            } while scanner.take(UInt8(ascii: ","))
            return .elements(elements)
        default:
            return .none
        }
    }

    /// The 1-based line holding `offset`, and where that line starts.
    func line(containing offset: Int, in bytes: [UInt8]) -> (line: Int, start: Int) {
        lock.withLock { _ in
            if lineStarts == nil {
                var starts = [0]
                for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
                lineStarts = starts
            }
            let starts = lineStarts!
            // The last line start at or before offset.
            var low = 0
            var high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return (low + 1, starts[low])
        }
    }

    /// Code points in `bytes[..<offset]`.
    func codePoints(before offset: Int, in bytes: [UInt8]) -> Int {
        lock.withLock { _ in
            if codePointsAt == nil {
                var counts = [0]
                var count = 0
                for index in bytes.indices {
                    if index > 0 && index % Self.stride == 0 { counts.append(count) }
                    if bytes[index] & 0xC0 != 0x80 { count += 1 }
                }
                codePointsAt = counts
            }
            let block = min(offset / Self.stride, codePointsAt!.count - 1)
            var count = codePointsAt![block]
            for index in (block * Self.stride)..<offset where bytes[index] & 0xC0 != 0x80 { count += 1 }
            return count
        }
    }
}
