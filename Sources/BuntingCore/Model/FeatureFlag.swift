import BuntingJSON

/// A Braze-style feature flag as the client sees it.
///
/// Its fields live in one shared object, as a content card's do: a user's
/// cache of thousands of flags, and every snapshot and stored form written
/// from it, copies one reference per flag, not five.
public struct FeatureFlag: Equatable, Sendable, JSONText {
    /// Metadata that many flags share (a flag set's, which every flag
    /// without metadata of its own carries), written once: each flag made
    /// with it refers to its text instead of holding a copy.
    public final class SharedMetadata: Sendable {
        public let object: JSONObject
        /// `,"metadata":{…}}`, or `}` when there is none: what closes a flag's text.
        let closing: [UInt8]

        public init(_ object: JSONObject) {
            self.object = object
            if object.isEmpty {
                closing = [UInt8(ascii: "}")]
            } else {
                var closing = Array(#","metadata":"#.utf8)
                JSON.object(object).encode(appendingTo: &closing)
                closing.append(UInt8(ascii: "}"))
                self.closing = closing
            }
        }

        /// The empty metadata's, shared by every flag without any.
        public static let none = SharedMetadata(JSONObject())
    }

    /// The fields, with the text of the id and the tracking string stored
    /// after them in the same allocation. The flag's text is written from
    /// pieces when asked for: `{"id":` and the id's text, `enabled`, the
    /// properties' text (a range of a text the flag shares: the variant's
    /// it was made from, kept by the definitions anyway), the tracking
    /// string's text, and the metadata's closing text (shared by the flag
    /// set's flags). Kept whole, a made flag held its properties' and
    /// metadata's text again: at 18,000 flags the made flags were 6.2 MB,
    /// about a quarter of the heap (massif). The id, tracking string and
    /// properties are read back from the text when asked for. Never changed
    /// once made, so it is safe to share between threads, which
    /// `ManagedBuffer` cannot declare (hence `nonisolated(unsafe)` on the
    /// reference).
    private final class Storage: ManagedBuffer<Storage.Fields, UInt8> {
        struct Fields {
            let metadata: SharedMetadata
            /// The text the properties' text is a range of.
            let propertiesOwner: [UInt8]
            /// Where the properties' and the metadata's texts lie: in arrays
            /// this flag keeps (`propertiesOwner`, `metadata.closing`) and
            /// nothing changes, so their storage stays where it is. Read
            /// through these, writing a flag retains nothing: reading the
            /// arrays retained and released them, and the shared metadata's
            /// count was contended by every flag (perf: a fifth of a
            /// returning user's change at 20,000 flags).
            let properties: UnsafePointer<UInt8>
            let closing: UnsafePointer<UInt8>
            let propertiesCount: Int32
            let closingCount: Int32
            /// The id's text's length; the tracking string's text follows it (none when nil).
            let idTextCount: Int32
            let tailCount: Int32
            /// The whole text's length.
            let count: Int32
            let enabled: Bool
        }

        static func make(
            id: String, enabled: Bool, properties owner: [UInt8], in range: Range<Int>, trackingString: String?,
            metadata: SharedMetadata
        ) -> Storage {
            var tail: [UInt8] = []
            JSON.string(id).encode(appendingTo: &tail)
            let idTextCount = tail.count
            if let trackingString { JSON.string(trackingString).encode(appendingTo: &tail) }
            var count = Pieces.open.utf8CodeUnitCount + idTextCount + range.count + metadata.closing.count
            count += (enabled ? Pieces.enabled : Pieces.disabled).utf8CodeUnitCount
            if trackingString != nil { count += Pieces.tracking.utf8CodeUnitCount + tail.count - idTextCount }
            let made = create(minimumCapacity: tail.count) { _ in
                Fields(
                    metadata: metadata, propertiesOwner: owner,
                    properties: owner.withUnsafeBufferPointer { $0.baseAddress! + range.lowerBound },
                    closing: metadata.closing.withUnsafeBufferPointer { $0.baseAddress! },
                    propertiesCount: Int32(range.count), closingCount: Int32(metadata.closing.count),
                    idTextCount: Int32(idTextCount), tailCount: Int32(tail.count), count: Int32(count),
                    enabled: enabled)
            }
            made.withUnsafeMutablePointerToElements { elements in
                tail.withUnsafeBufferPointer { elements.initialize(from: $0.baseAddress!, count: $0.count) }
            }
            return unsafeDowncast(made, to: Storage.self)
        }

        /// The pieces of text every flag writes alike.
        enum Pieces {
            static let open: StaticString = #"{"id":"#
            static let enabled: StaticString = #","enabled":true,"properties":"#
            static let disabled: StaticString = #","enabled":false,"properties":"#
            static let tracking: StaticString = #","trackingString":"#
        }

        /// The texts of the id, the tracking string (nil when none), the properties and the closing.
        struct Texts {
            let id: UnsafeBufferPointer<UInt8>
            let tracking: UnsafeBufferPointer<UInt8>?
            let properties: UnsafeBufferPointer<UInt8>
            let closing: UnsafeBufferPointer<UInt8>
            let enabled: Bool
        }

        func withTexts<Result>(_ body: (Texts) -> Result) -> Result {
            withUnsafeMutablePointers { fields, elements in
                let idCount = Int(fields.pointee.idTextCount)
                let tailCount = Int(fields.pointee.tailCount)
                return body(
                    Texts(
                        id: UnsafeBufferPointer(start: elements, count: idCount),
                        tracking: tailCount > idCount
                            ? UnsafeBufferPointer(start: elements + idCount, count: tailCount - idCount) : nil,
                        properties: UnsafeBufferPointer(
                            start: fields.pointee.properties, count: Int(fields.pointee.propertiesCount)),
                        closing: UnsafeBufferPointer(
                            start: fields.pointee.closing, count: Int(fields.pointee.closingCount)),
                        enabled: fields.pointee.enabled))
            }
        }

        var count: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.count) } }
        var enabled: Bool { withUnsafeMutablePointerToHeader { $0.pointee.enabled } }

        /// Grows `output` by the flag's length once and copies the pieces
        /// into it: appended one by one, each piece paid for the array's
        /// checks, about a third of writing a flag (perf, 20,000 flags).
        func append(to output: inout [UInt8]) {
            let start = output.count
            Self.grow(&output, by: count)
            withTexts { texts in
                output.withUnsafeMutableBufferPointer { buffer in
                    var next = buffer.baseAddress! + start
                    func put(_ piece: UnsafeBufferPointer<UInt8>) {
                        next.update(from: piece.baseAddress!, count: piece.count)
                        next += piece.count
                    }
                    func put(_ piece: StaticString) {
                        next.update(from: piece.utf8Start, count: piece.utf8CodeUnitCount)
                        next += piece.utf8CodeUnitCount
                    }
                    put(Pieces.open)
                    put(texts.id)
                    put(texts.enabled ? Pieces.enabled : Pieces.disabled)
                    put(texts.properties)
                    if let tracking = texts.tracking {
                        put(Pieces.tracking)
                        put(tracking)
                    }
                    put(texts.closing)
                }
            }
        }

        /// Zeros to grow an array by before the pieces are copied over them:
        /// appended from a buffer, growing is one copy; appended as a
        /// repeated element it was a loop over the bytes, about 300
        /// instructions for a flag's text (callgrind).
        nonisolated(unsafe) private static let zeros: UnsafeBufferPointer<UInt8> = {
            let zeros = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
            zeros.initialize(repeating: 0)
            return UnsafeBufferPointer(zeros)
        }()

        private static func grow(_ output: inout [UInt8], by count: Int) {
            var left = count
            while left > 0 {
                let step = min(left, zeros.count)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: zeros[0..<step]))
                left -= step
            }
        }

        /// Whether the two write the same text, read piece by piece.
        func writesSameText(as other: Storage) -> Bool {
            withTexts { mine in
                other.withTexts { theirs in
                    mine.enabled == theirs.enabled && mine.id.elementsEqual(theirs.id)
                        && (mine.tracking?.count == theirs.tracking?.count)
                        && (mine.tracking.map { $0.elementsEqual(theirs.tracking!) } ?? true)
                        && mine.properties.elementsEqual(theirs.properties)
                        && mine.closing.elementsEqual(theirs.closing)
                }
            }
        }
    }

    nonisolated(unsafe) private let storage: Storage

    public var id: String { storage.withTexts { Self.decodedString($0.id) } }
    public var enabled: Bool { storage.enabled }
    /// Key → `{type, value}`, as the definitions give them (read back from the text).
    public var properties: JSONObject {
        storage.withTexts { (try? JSON.parse(Array($0.properties)))?.objectValue } ?? [:]
    }
    public var trackingString: String? { storage.withTexts { $0.tracking.map(Self.decodedString) } }
    /// flagd's metadata of the flag, over the flag set's (strings, numbers, booleans).
    public var metadata: JSONObject { storage.header.metadata.object }
    /// The flag as JSON text.
    public var encoded: EncodedJSON {
        var text: [UInt8] = []
        text.reserveCapacity(encodedCount)
        appendEncoded(to: &text)
        return EncodedJSON(trustedText: text)
    }

    /// A string as jansson wrote it, read back.
    private static func decodedString(_ text: UnsafeBufferPointer<UInt8>) -> String {
        JSONTokenScanner.decodedString(UnsafeRawBufferPointer(text), 0..<text.count) ?? ""
    }

    private static let emptyObjectText: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "}")]

    public init(
        id: String, enabled: Bool, properties: JSONObject = [:], trackingString: String? = nil,
        metadata: JSONObject = [:]
    ) {
        self.init(
            id: id, enabled: enabled, properties: properties, trackingString: trackingString,
            metadata: metadata.isEmpty ? .none : SharedMetadata(metadata))
    }

    public init(
        id: String, enabled: Bool, properties: JSONObject, trackingString: String?, metadata: SharedMetadata
    ) {
        let text = properties.isEmpty ? Self.emptyObjectText : JSON.object(properties).encoded()
        self.init(
            id: id, enabled: enabled, propertiesIn: text, at: 0..<text.count, trackingString: trackingString,
            metadata: metadata)
    }

    /// A flag whose properties are the object at `range` of `text` (trusted:
    /// written by this project's encoder, as `VariantValues` keeps a
    /// variant's value), shared, not copied: a variant's flag is made
    /// without reading its value into a tree and writing it again, which
    /// was about half of making a flag (perf, 100,000 flags), and refers to
    /// the variant's text instead of holding it again.
    public init(
        id: String, enabled: Bool, propertiesIn text: [UInt8], at range: Range<Int>, trackingString: String?,
        metadata: SharedMetadata
    ) {
        storage = Storage.make(
            id: id, enabled: enabled, properties: text, in: range, trackingString: trackingString, metadata: metadata)
    }

    /// A flag without properties.
    public init(id: String, enabled: Bool, trackingString: String?, metadata: SharedMetadata) {
        self.init(
            id: id, enabled: enabled, propertiesIn: Self.emptyObjectText, at: 0..<2, trackingString: trackingString,
            metadata: metadata)
    }

    public func appendEncoded(to output: inout [UInt8]) {
        storage.append(to: &output)
    }

    public var encodedCount: Int { storage.count }

    public var json: JSON {
        encoded.value
    }

    /// What makes two impressions the same within a session: the tracking
    /// string where the flag has one (as the Braze SDKs key them), else the id.
    public var impressionKey: String { trackingString ?? id }

    public static func == (lhs: FeatureFlag, rhs: FeatureFlag) -> Bool {
        if lhs.storage === rhs.storage { return true }
        // The text is written from the fields alone, so the same text is the same flag.
        if lhs.storage.writesSameText(as: rhs.storage) { return true }
        return lhs.id == rhs.id && lhs.enabled == rhs.enabled && lhs.properties == rhs.properties
            && lhs.trackingString == rhs.trackingString && lhs.metadata == rhs.metadata
    }
}
