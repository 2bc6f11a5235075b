/// A JSON value already written as text (by jansson, through `JSON.encoded`),
/// to be spliced as it is into larger output: what is encoded once and sent
/// many times — an item in every snapshot of every subscriber and in the
/// store — costs one encoding instead of one per use.
public struct EncodedJSON: Sendable, Hashable {
    /// Compact UTF-8 JSON text of one value.
    public let bytes: [UInt8]

    public init(_ value: JSON) {
        bytes = value.encoded()
    }

    /// Text that is known to be one JSON value: made by this type's builders,
    /// or spliced by the caller from pieces jansson wrote.
    public init(trustedText bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value back, for readers that need it as a tree (tests, stored forms).
    public var value: JSON {
        (try? JSON.parse(bytes)) ?? .null
    }

    public static let null = EncodedJSON(trustedText: Array("null".utf8))

    /// `[e0,e1,…]` from elements that write their own text, into a buffer
    /// allocated once at its final size (see `EncodedArray`).
    @inlinable
    public static func array<Elements: Collection>(_ elements: Elements) -> EncodedJSON
    where Elements.Element: JSONText {
        EncodedJSON(writing: EncodedArray(elements))
    }

    /// The text of `value`, written into a buffer of its size.
    @inlinable
    public init(writing value: some JSONText) {
        var text: [UInt8] = []
        text.reserveCapacity(value.encodedCount)
        value.appendEncoded(to: &text)
        self.init(trustedText: text)
    }

    /// `{"k0":v0,…}` from keys and encoded values, in the order given; keys are written by jansson.
    public static func object(_ members: [(key: String, value: EncodedJSON)]) -> EncodedJSON {
        var builder = ObjectBuilder()
        for member in members { builder.add(member.key, member.value) }
        return builder.finish()
    }

    /// An object key written once (by jansson) for builders that use it often.
    public struct Key: Sendable {
        /// `"name":`
        @usableFromInline let bytes: [UInt8]

        public init(_ name: String) {
            bytes = JSON.string(name).encoded() + [UInt8(ascii: ":")]
        }
    }

    /// Builds an object member by member, without a tree. Values that write
    /// their own text are appended in place, and `finish` hands the text over
    /// without copying it: a large member (a snapshot) is copied once, into
    /// the object, or not at all when it is shared and the object finished
    /// as pieces (`finishSpliced`).
    public struct ObjectBuilder {
        @usableFromInline var text: [UInt8] = [UInt8(ascii: "{")]
        /// No member is written yet (so the next needs no comma before it).
        @usableFromInline var isEmpty = true
        /// What comes before `text`, when a member shared a text of its own
        /// (`add(_:prefix:sharing:suffix:)`): closed pieces, in order.
        private var before: [[UInt8]] = []

        public init() {}

        /// Room for `count` more bytes, for a caller that knows what it adds.
        public mutating func reserveCapacity(_ count: Int) {
            text.reserveCapacity(text.count + count)
        }

        /// Any value that writes its own text (an `EncodedJSON`, an
        /// `EncodedArray`, an item). Inlinable, so that a large value is
        /// written by code specialized for its elements.
        @inlinable
        public mutating func add(_ key: Key, _ value: some JSONText) {
            start(key.bytes)
            value.appendEncoded(to: &text)
        }

        /// A value written by jansson straight into the object's text.
        public mutating func add(_ key: Key, _ value: JSON) {
            start(key.bytes)
            value.encode(appendingTo: &text)
        }

        @inlinable
        public mutating func add(_ key: String, _ value: some JSONText) {
            start(key)
            value.appendEncoded(to: &text)
        }

        public mutating func add(_ key: String, _ value: JSON) {
            start(key)
            value.encode(appendingTo: &text)
        }

        /// Members of a tree, written by jansson in one call, after the ones added so far.
        public mutating func add(contentsOf members: JSONObject) {
            guard !members.isEmpty else { return }
            let encoded = JSON.object(members).encoded()
            if !isEmpty { text.append(UInt8(ascii: ",")) }
            isEmpty = false
            text.append(contentsOf: encoded[1..<(encoded.count - 1)])
        }

        /// The separator, if a member came before, and `"key":`.
        @usableFromInline
        mutating func start(_ key: [UInt8]) {
            if !isEmpty { text.append(UInt8(ascii: ",")) }
            isEmpty = false
            text.append(contentsOf: key)
        }

        /// The same for a key written now (by jansson).
        @usableFromInline
        mutating func start(_ key: String) {
            if !isEmpty { text.append(UInt8(ascii: ",")) }
            isEmpty = false
            JSON.string(key).encode(appendingTo: &text)
            text.append(UInt8(ascii: ":"))
        }

        /// A member whose value is `prefix`, then `shared`, then `suffix`:
        /// `shared` (a snapshot's data, say) is kept as a piece of its own by
        /// `finishSpliced`, not copied.
        public mutating func add(_ key: Key, prefix: [UInt8], sharing shared: [UInt8], suffix: [UInt8]) {
            start(key.bytes)
            text.append(contentsOf: prefix)
            before.append(text)
            before.append(shared)
            text = suffix
        }

        /// The object as pieces: what members shared stays shared. The
        /// builder is left as a new one.
        public mutating func finishSpliced() -> SplicedJSON {
            var pieces: [[UInt8]] = []
            swap(&pieces, &before)
            pieces.append(finishText())
            return SplicedJSON(pieces: pieces)
        }

        /// The object's text; its buffer becomes the result's, and the builder
        /// is left as a new one. The buffer is taken out first: appending the brace to
        /// it in place, a `consuming` method still held a second reference (the
        /// caller's copy of the builder), so every object of megabytes was
        /// copied whole to add one byte (a content-card snapshot of 3.8 MB, up
        /// to six times a user change).
        public mutating func finish() -> EncodedJSON {
            guard before.isEmpty else { return finishSpliced().joined }
            return EncodedJSON(trustedText: finishText())
        }

        /// The text since the last shared piece, closed, taken out of the builder.
        private mutating func finishText() -> [UInt8] {
            var finished = [UInt8(ascii: "{")]
            swap(&finished, &text)
            isEmpty = true
            finished.append(UInt8(ascii: "}"))
            return finished
        }
    }
}

/// A value that writes its own JSON text, kept or spliced from pieces jansson wrote.
public protocol JSONText {
    func appendEncoded(to output: inout [UInt8])
    /// How many bytes `appendEncoded` writes, so that a builder of many values
    /// can allocate once.
    var encodedCount: Int { get }
}

extension EncodedJSON: JSONText {
    public func appendEncoded(to output: inout [UInt8]) {
        output.append(contentsOf: bytes)
    }

    public var encodedCount: Int { bytes.count }
}
