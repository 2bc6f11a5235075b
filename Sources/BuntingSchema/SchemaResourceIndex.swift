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

    /// The scope inside `schema`, entered from this one: its `$schema` and `$id` apply.
    func entering(_ schema: JSON) -> SchemaScope {
        guard case .object(let object) = schema else { return self }
        var scope = self
        if let dialect = object["$schema"]?.stringValue {
            scope = SchemaScope(base: scope.base, dialect: SchemaDialect(schemaURI: dialect))
        }
        if let id = object["$id"]?.stringValue, !id.hasPrefix("#") {
            scope = SchemaScope(
                base: URIReference(id).resolved(against: scope.base).withoutFragment, dialect: scope.dialect)
        }
        return scope
    }
}

/// A subschema found for a `$ref`: where it is, what it is, and its scope.
struct SchemaTarget {
    let key: SchemaLocationKey
    let value: JSON
    let scope: SchemaScope
}

/// Every schema document given to the compiler, with the URIs and anchors
/// found in them, so that any `$ref` can be resolved to a place.
struct SchemaResourceIndex {
    private(set) var documents: [(json: JSON, displayName: String)] = []
    /// Absolute URIs (without fragment) of schema resources: documents and embedded `$id`s.
    private var resources: [String: SchemaTarget] = [:]
    /// The names documents were registered under, resolved against the empty base.
    private var names: [String: SchemaTarget] = [:]
    /// `<resource URI>#<anchor>` for `$anchor` and draft-07 `"$id": "#name"`.
    private var anchors: [String: SchemaTarget] = [:]

    /// Registers a whole document under `name` (may be empty) and under its `$id`,
    /// and returns it as a target. The first document added is the root: its
    /// locations are shown without a URI.
    mutating func add(_ json: JSON, name: String, defaultDialect: SchemaDialect) throws(JSONSchemaError) -> SchemaTarget
    {
        let document = documents.count
        let nameReference = URIReference(name).resolved(against: URIReference())
        let scope = SchemaScope(base: nameReference.withoutFragment, dialect: defaultDialect).entering(json)
        documents.append((json, document == 0 ? "" : scope.base.text))
        let root = SchemaTarget(key: SchemaLocationKey(document: document, pointer: .root), value: json, scope: scope)
        if !name.isEmpty { try register(nameReference.withoutFragment.text, root, in: \.names) }
        try register(scope.base.text, root, in: \.resources)
        try walk(from: root)
        return root
    }

    /// Where messages say a place is: `#/definitions/flag` in the root document,
    /// `https://example.com/other.json#/definitions/flag` elsewhere.
    func place(_ key: SchemaLocationKey) -> SchemaPlace {
        SchemaPlace(resource: documents[key.document].displayName, pointer: key.pointer)
    }

    /// The place a `$ref` written in `scope` points at, or nil.
    ///
    /// The reference is resolved against the base URI as RFC 3986 says. When no
    /// resource has the resulting URI, a relative reference such as
    /// `./targeting.json` is also looked up among the names documents were
    /// registered under, so that schemas can refer to each other by file name.
    func resolve(_ reference: String, in scope: SchemaScope) -> SchemaTarget? {
        let written = URIReference(reference)
        let target = written.resolved(against: scope.base)
        var resource = resources[target.withoutFragment.text]
        if resource == nil, written.scheme == nil {
            resource = names[written.resolved(against: URIReference()).withoutFragment.text]
        }
        guard let resource else { return nil }
        let fragment = target.decodedFragment ?? ""
        if fragment.isEmpty { return resource }
        guard fragment.hasPrefix("/") else { return anchors[resource.scope.base.text + "#" + fragment] }
        guard let pointer = try? JSONPointer(parsing: fragment) else { return nil }
        // Walk down from the resource, entering the scope of each schema on the way.
        var value = resource.value
        var scope = resource.scope
        for token in pointer.tokens {
            guard let child = JSONPointer.child(of: value, at: token) else { return nil }
            value = child
            scope = scope.entering(value)
        }
        let key = SchemaLocationKey(
            document: resource.key.document, pointer: JSONPointer(tokens: resource.key.pointer.tokens + pointer.tokens))
        return SchemaTarget(key: key, value: value, scope: scope)
    }

    // MARK: - Walking the documents

    /// Visits every subschema below `start` (without recursion: documents may
    /// nest as deep as the parser allows), registering embedded resources and anchors.
    private mutating func walk(from start: SchemaTarget) throws(JSONSchemaError) {
        var stack = [start]
        while let target = stack.popLast() {
            guard case .object(let schema) = target.value else { continue }
            let scope = target.scope
            if !target.key.pointer.isRoot, let id = schema["$id"]?.stringValue, !id.hasPrefix("#") {
                try register(scope.base.text, target, in: \.resources)
            }
            if let id = schema["$id"]?.stringValue, id.hasPrefix("#") {
                try register(scope.base.text + id, target, in: \.anchors) // draft-07 spelling of an anchor
            }
            if let anchor = schema["$anchor"]?.stringValue {
                try register(scope.base.text + "#" + anchor, target, in: \.anchors)
            }
            for (tokens, value) in Self.subschemas(of: schema).reversed() {
                let key = SchemaLocationKey(
                    document: target.key.document, pointer: JSONPointer(tokens: target.key.pointer.tokens + tokens))
                stack.append(SchemaTarget(key: key, value: value, scope: scope.entering(value)))
            }
        }
    }

    private mutating func register(
        _ uri: String, _ target: SchemaTarget, in table: WritableKeyPath<SchemaResourceIndex, [String: SchemaTarget]>
    ) throws(JSONSchemaError) {
        if let existing = self[keyPath: table][uri], existing.key != target.key {
            throw JSONSchemaError(
                message: "\"\(uri)\" names two schemas (the other is at \(place(existing.key).location))",
                schemaLocation: place(target.key).location)
        }
        self[keyPath: table][uri] = target
    }

    /// The subschemas of a schema object, with their pointer tokens relative to it.
    static func subschemas(of schema: JSONObject) -> [(tokens: [String], value: JSON)] {
        var found: [(tokens: [String], value: JSON)] = []
        for (keyword, value) in schema {
            switch (keyword, value) {
            case ("additionalProperties", _), ("propertyNames", _), ("additionalItems", _), ("contains", _), ("not", _),
                ("if", _), ("then", _), ("else", _), ("unevaluatedItems", _), ("unevaluatedProperties", _),
                ("items", .object), ("items", .bool):
                found.append(([keyword], value))
            case ("items", .array(let schemas)), ("allOf", .array(let schemas)), ("anyOf", .array(let schemas)),
                ("oneOf", .array(let schemas)), ("prefixItems", .array(let schemas)):
                for (position, element) in schemas.enumerated() {
                    found.append(([keyword, String(position)], element))
                }
            case ("properties", .object(let schemas)), ("patternProperties", .object(let schemas)),
                ("$defs", .object(let schemas)),
                ("definitions", .object(let schemas)), ("dependentSchemas", .object(let schemas)),
                ("dependencies", .object(let schemas)):
                for (name, member) in schemas { found.append(([keyword, name], member)) }
            default:
                break
            }
        }
        return found
    }
}
