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

    /// `[e0,e1,…]` from elements that write their own text, each appended
    /// in place (no copy per element).
    public static func array<Elements: Sequence>(_ elements: Elements) -> EncodedJSON where Elements.Element: JSONText {
        var text: [UInt8] = [UInt8(ascii: "[")]
        var first = true
        for element in elements {
            if !first { text.append(UInt8(ascii: ",")) }
            first = false
            element.appendEncoded(to: &text)
        }
        text.append(UInt8(ascii: "]"))
        return EncodedJSON(trustedText: text)
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
        let bytes: [UInt8]

        public init(_ name: String) {
            bytes = JSON.string(name).encoded() + [UInt8(ascii: ":")]
        }
    }

    /// Builds an object member by member, without a tree.
    public struct ObjectBuilder {
        private var text: [UInt8] = [UInt8(ascii: "{")]

        public init() {}

        public mutating func add(_ key: Key, _ value: EncodedJSON) {
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: key.bytes)
            text.append(contentsOf: value.bytes)
        }

        public mutating func add(_ key: Key, _ value: JSON) {
            add(key, EncodedJSON(value))
        }

        /// Members of a tree, written by jansson in one call, after the ones added so far.
        public mutating func add(contentsOf members: JSONObject) {
            guard !members.isEmpty else { return }
            let encoded = JSON.object(members).encoded()
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: encoded[1..<(encoded.count - 1)])
        }

        public mutating func add(_ key: String, _ value: EncodedJSON) {
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            JSON.string(key).encode(appendingTo: &text)
            text.append(UInt8(ascii: ":"))
            text.append(contentsOf: value.bytes)
        }

        public mutating func add(_ key: String, _ value: JSON) {
            add(key, EncodedJSON(value))
        }

        public func finish() -> EncodedJSON {
            EncodedJSON(trustedText: text + [UInt8(ascii: "}")])
        }
    }
}

/// A value that writes its own JSON text, kept or spliced from pieces jansson wrote.
public protocol JSONText {
    func appendEncoded(to output: inout [UInt8])
}

extension EncodedJSON: JSONText {
    public func appendEncoded(to output: inout [UInt8]) {
        output.append(contentsOf: bytes)
    }
}
