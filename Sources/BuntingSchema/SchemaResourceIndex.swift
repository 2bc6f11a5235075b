import BuntingJSON

/// A place in one of the schema documents being compiled.
struct SchemaLocationKey: Hashable, Sendable {
    let document: Int
    let pointer: JSONPointer
}

/// Which rules a schema follows where the drafts differ.
enum SchemaDialect: Sendable {
    /// 2019-09 and 2020-12, and the default when `$schema` names nothing we know.
    case modern
    /// draft-04, -06 and -07: `$ref` hides its sibling keywords.
    case legacy

    init(schemaURI: String) {
        let legacyDrafts = ["draft-03", "draft-04", "draft-06", "draft-07"]
        self = legacyDrafts.contains(where: { schemaURI.contains($0) }) ? .legacy : .modern
    }
}

/// The base URI and dialect in force at a place in a schema.
struct SchemaScope: Sendable {
    let base: URIReference
    let dialect: SchemaDialect
}

/// Every schema document given to the compiler, with the URIs, anchors and
/// scopes found in them, so that any `$ref` can be resolved to a place.
struct SchemaResourceIndex {
    private(set) var documents: [(json: JSON, displayName: String)] = []
    /// Absolute URIs (without fragment) of schema resources: documents and embedded `$id`s.
    private var resources: [String: SchemaLocationKey] = [:]
    /// The names documents were registered under, resolved against the empty base.
    private var names: [String: SchemaLocationKey] = [:]
    /// `<resource URI>#<anchor>` for `$anchor` and draft-07 `"$id": "#name"`.
    private var anchors: [String: SchemaLocationKey] = [:]
    /// The scope of every subschema found by walking the documents.
    private var scopes: [SchemaLocationKey: SchemaScope] = [:]

    /// Registers a whole document under `name` (may be empty) and under its `$id`.
    /// The first document added is the root: its locations are shown without a URI.
    mutating func add(_ json: JSON, name: String, defaultDialect: SchemaDialect) throws(JSONSchemaError) {
        let document = documents.count
        let nameReference = URIReference(name).resolved(against: URIReference())
        var base = nameReference.withoutFragment
        if let id = json["$id"]?.stringValue {
            base = URIReference(id).resolved(against: base).withoutFragment
        }
        let displayName = document == 0 ? "" : base.text
        documents.append((json, displayName))
        let key = SchemaLocationKey(document: document, pointer: .root)
        if !name.isEmpty { try register(nameReference.withoutFragment.text, key, in: \.names) }
        try walk(from: key, scope: SchemaScope(base: base, dialect: defaultDialect))
    }

    func value(at key: SchemaLocationKey) -> JSON? {
        key.pointer.resolve(in: documents[key.document].json)
    }

    /// The scope at `key`: as found by the walk, or else that of the document root.
    func scope(of key: SchemaLocationKey) -> SchemaScope {
        if let scope = scopes[key] { return scope }
        var ancestor = key.pointer
        while let parent = ancestor.parent {
            ancestor = parent
            if let scope = scopes[SchemaLocationKey(document: key.document, pointer: ancestor)] { return scope }
        }
        return SchemaScope(base: URIReference(), dialect: .modern)
    }

    /// How messages name a place: `#/definitions/flag` in the root document,
    /// `https://example.com/other.json#/definitions/flag` elsewhere.
    func display(_ key: SchemaLocationKey) -> String {
        documents[key.document].displayName + "#" + key.pointer.description
    }

    /// The place a `$ref` written in `scope` points at, or nil.
    ///
    /// The reference is resolved against the base URI as RFC 3986 says. When no
    /// resource has the resulting URI, a relative reference such as
    /// `./targeting.json` is also looked up among the names documents were
    /// registered under, so that schemas can refer to each other by file name.
    func resolve(_ reference: String, in scope: SchemaScope) -> SchemaLocationKey? {
        let written = URIReference(reference)
        let target = written.resolved(against: scope.base)
        var resource = resources[target.withoutFragment.text]
        if resource == nil, written.scheme == nil {
            resource = names[written.resolved(against: URIReference()).withoutFragment.text]
        }
        guard let resource else { return nil }
        let fragment = target.decodedFragment ?? ""
        if fragment.isEmpty { return resource }
        if fragment.hasPrefix("/") {
            guard let pointer = try? JSONPointer(parsing: fragment) else { return nil }
            let key = SchemaLocationKey(document: resource.document, pointer: JSONPointer(tokens: resource.pointer.tokens + pointer.tokens))
            return value(at: key) == nil ? nil : key
        }
        let resourceURI = scopes[resource]?.base.text ?? target.withoutFragment.text
        return anchors[resourceURI + "#" + fragment]
    }

    // MARK: - Walking the documents

    /// Visits every subschema below `start` (without recursion: documents may
    /// nest as deep as the parser allows), recording scopes, resources and anchors.
    private mutating func walk(from start: SchemaLocationKey, scope: SchemaScope) throws(JSONSchemaError) {
        var stack: [(key: SchemaLocationKey, parentScope: SchemaScope)] = [(start, scope)]
        while let (key, parentScope) = stack.popLast() {
            guard case .object(let schema)? = value(at: key) else { continue }
            var scope = parentScope
            if let dialect = schema["$schema"]?.stringValue {
                scope = SchemaScope(base: scope.base, dialect: SchemaDialect(schemaURI: dialect))
            }
            if let id = schema["$id"]?.stringValue {
                let reference = URIReference(id)
                if id.hasPrefix("#") {
                    // draft-07 spelling of an anchor.
                    try register(scope.base.text + id, key, in: \.anchors)
                } else {
                    scope = SchemaScope(base: reference.resolved(against: scope.base).withoutFragment, dialect: scope.dialect)
                    try register(scope.base.text, key, in: \.resources)
                }
            } else if key.pointer.isRoot {
                try register(scope.base.text, key, in: \.resources)
            }
            if let anchor = schema["$anchor"]?.stringValue {
                try register(scope.base.text + "#" + anchor, key, in: \.anchors)
            }
            scopes[key] = scope
            for tokens in Self.subschemaPaths(of: schema).reversed() {
                stack.append((SchemaLocationKey(document: key.document, pointer: JSONPointer(tokens: key.pointer.tokens + tokens)), scope))
            }
        }
    }

    private mutating func register(
        _ uri: String, _ key: SchemaLocationKey,
        in table: WritableKeyPath<SchemaResourceIndex, [String: SchemaLocationKey]>
    ) throws(JSONSchemaError) {
        if let existing = self[keyPath: table][uri], existing != key {
            throw JSONSchemaError(
                message: "\"\(uri)\" names two schemas (the other is at \(display(existing)))", schemaLocation: display(key))
        }
        self[keyPath: table][uri] = key
    }

    /// Where the subschemas of a schema object are, as pointer tokens relative to it.
    static func subschemaPaths(of schema: JSONObject) -> [[String]] {
        var paths: [[String]] = []
        for (keyword, value) in schema {
            switch keyword {
            case "additionalProperties", "propertyNames", "additionalItems", "contains", "not", "if", "then",
                "else", "unevaluatedItems", "unevaluatedProperties":
                paths.append([keyword])
            case "items":
                if case .array(let schemas) = value {
                    paths += schemas.indices.map { [keyword, String($0)] }
                } else {
                    paths.append([keyword])
                }
            case "allOf", "anyOf", "oneOf", "prefixItems":
                if case .array(let schemas) = value { paths += schemas.indices.map { [keyword, String($0)] } }
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
                if case .object(let schemas) = value { paths += schemas.keys.map { [keyword, $0] } }
            default:
                break
            }
        }
        return paths
    }
}
