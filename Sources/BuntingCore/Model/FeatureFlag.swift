import BuntingJSON

/// A Braze-style feature flag as the client sees it.
///
/// Its fields live in one shared object, as a content card's do: a user's
/// cache of thousands of flags, and every snapshot and stored form written
/// from it, copies one reference per flag, not five.
public struct FeatureFlag: Equatable, Sendable, JSONText {
    /// The fields, with the flag's text stored after them in the same
    /// allocation: a made flag is one block instead of an object and an
    /// array, which at 10,000 flags (and a memo holding every variant met)
    /// is about 50 bytes a flag less. The properties are kept only in the
    /// text, and read back from it when asked for (templates, GrowthBook's
    /// features as flags): a tree of them beside the text took about as much
    /// again (a flag-heavy document's variants are kept as text too,
    /// `VariantValues`). Never changed once made, so it is safe
    /// to share between threads, which `ManagedBuffer` cannot declare
    /// (hence `nonisolated(unsafe)` on the reference).
    private final class Storage: ManagedBuffer<Storage.Fields, UInt8> {
        struct Fields {
            let id: String
            let enabled: Bool
            let trackingString: String?
            let metadata: JSONObject
            /// How many bytes of text follow.
            let count: Int
        }

        /// The properties as a tree, or as their compact text.
        enum Properties {
            case tree(JSONObject)
            case text(ArraySlice<UInt8>)
        }

        static func make(
            id: String, enabled: Bool, properties: Properties, trackingString: String?, metadata: JSONObject
        ) -> Storage {
            let text = Self.text(
                id: id, enabled: enabled, properties: properties, trackingString: trackingString, metadata: metadata)
            let made = create(minimumCapacity: text.count) { _ in
                Fields(
                    id: id, enabled: enabled, trackingString: trackingString, metadata: metadata, count: text.count)
            }
            made.withUnsafeMutablePointerToElements { elements in
                text.withUnsafeBufferPointer { elements.initialize(from: $0.baseAddress!, count: $0.count) }
            }
            return unsafeDowncast(made, to: Storage.self)
        }

        /// `{"id","enabled","properties"[,"trackingString"][,"metadata"]}`, spliced
        /// from pieces jansson wrote: the keys and booleans once, the values
        /// each. Writing the flag as one tree cost jansson a hash table and a
        /// loop check (a `%p` print and a table insert) for the outer object
        /// besides its members, about a third of making a flag, and the first
        /// changes of a server make one for every flag.
        private static func text(
            id: String, enabled: Bool, properties: Properties, trackingString: String?, metadata: JSONObject
        ) -> [UInt8] {
            var object = EncodedJSON.ObjectBuilder()
            object.add(Keys.id, .string(id))
            object.add(Keys.enabled, enabled ? Keys.true : Keys.false)
            switch properties {
            case .tree(let properties): object.add(Keys.properties, .object(properties))
            case .text(let text): object.add(Keys.properties, TextPiece(bytes: text))
            }
            if let trackingString { object.add(Keys.trackingString, .string(trackingString)) }
            if !metadata.isEmpty { object.add(Keys.metadata, .object(metadata)) }
            return object.finish().bytes
        }

        private enum Keys {
            static let id = EncodedJSON.Key("id")
            static let enabled = EncodedJSON.Key("enabled")
            static let properties = EncodedJSON.Key("properties")
            static let trackingString = EncodedJSON.Key("trackingString")
            static let metadata = EncodedJSON.Key("metadata")
            static let `true` = EncodedJSON(.bool(true))
            static let `false` = EncodedJSON(.bool(false))
        }

        func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            withUnsafeMutablePointers { fields, elements in
                body(UnsafeBufferPointer(start: elements, count: fields.pointee.count))
            }
        }
    }

    nonisolated(unsafe) private let storage: Storage

    public var id: String { storage.header.id }
    public var enabled: Bool { storage.header.enabled }
    /// Key → `{type, value}`, as the definitions give them (read back from the text).
    public var properties: JSONObject {
        let text = storage.withText { Array($0) }
        return (try? JSON.parse(text))?["properties"]?.objectValue ?? [:]
    }
    public var trackingString: String? { storage.header.trackingString }
    /// flagd's metadata of the flag, over the flag set's (strings, numbers, booleans).
    public var metadata: JSONObject { storage.header.metadata }
    /// The flag as JSON text, written once when it is made.
    public var encoded: EncodedJSON { EncodedJSON(trustedText: storage.withText { Array($0) }) }

    public init(
        id: String, enabled: Bool, properties: JSONObject = [:], trackingString: String? = nil,
        metadata: JSONObject = [:]
    ) {
        storage = Storage.make(
            id: id, enabled: enabled, properties: .tree(properties), trackingString: trackingString,
            metadata: metadata)
    }

    /// A flag whose properties are given as their compact text (trusted:
    /// written by this project's encoder, as `VariantValues` keeps a
    /// variant's value), spliced in as it is: a variant's flag is made
    /// without reading its value into a tree and writing it again, which
    /// was about half of making a flag (perf, 100,000 flags).
    public init(
        id: String, enabled: Bool, propertiesText: ArraySlice<UInt8>, trackingString: String?, metadata: JSONObject
    ) {
        storage = Storage.make(
            id: id, enabled: enabled, properties: .text(propertiesText), trackingString: trackingString,
            metadata: metadata)
    }

    public func appendEncoded(to output: inout [UInt8]) {
        storage.withText { output.append(contentsOf: $0) }
    }

    public var encodedCount: Int { storage.header.count }

    public var json: JSON {
        encoded.value
    }

    /// What makes two impressions the same within a session: the tracking
    /// string where the flag has one (as the Braze SDKs key them), else the id.
    public var impressionKey: String { trackingString ?? id }

    public static func == (lhs: FeatureFlag, rhs: FeatureFlag) -> Bool {
        if lhs.storage === rhs.storage { return true }
        // The text is written from the fields alone, so the same text is the same flag.
        if lhs.storage.withText({ l in rhs.storage.withText { r in l.elementsEqual(r) } }) { return true }
        return lhs.id == rhs.id && lhs.enabled == rhs.enabled && lhs.properties == rhs.properties
            && lhs.trackingString == rhs.trackingString && lhs.metadata == rhs.metadata
    }
}

/// Text written as it is given (a value's text cut from a larger one).
private struct TextPiece: JSONText {
    let bytes: ArraySlice<UInt8>

    func appendEncoded(to output: inout [UInt8]) { output.append(contentsOf: bytes) }
    var encodedCount: Int { bytes.count }
}
