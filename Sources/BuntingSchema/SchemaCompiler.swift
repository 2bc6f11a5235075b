import BuntingJSON

/// Turns schema documents into `SchemaNode`s.
///
/// Every subschema, inline or reached by `$ref`, is compiled once: a place is
/// given a node number when first seen and queued, so that cycles resolve to
/// numbers and no recursion is needed however deep the schema nests.
struct SchemaCompiler {
    private var index: SchemaResourceIndex
    private var nodes: [SchemaNode?] = []
    private var numbers: [SchemaLocationKey: Int] = [:]
    private var queue: [(number: Int, target: SchemaTarget)] = []
    private var patterns: [String: SchemaPattern] = [:]
    /// Resolved `$ref`s by base URI and reference: schemas repeat a few references many times.
    private var references: [String: Int] = [:]
    private let patternChecking: JSONSchema.PatternChecking

    init(index: SchemaResourceIndex, patternChecking: JSONSchema.PatternChecking) {
        self.index = index
        self.patternChecking = patternChecking
    }

    /// Compiles everything reachable from `root`; the root is node 0.
    mutating func compile(root: SchemaTarget) throws(JSONSchemaError) -> [SchemaNode] {
        _ = number(for: root)
        while let (number, target) = queue.popLast() {
            nodes[number] = try compileNode(target)
        }
        return nodes.map { $0 ?? .acceptAll }
    }

    private mutating func number(for target: SchemaTarget) -> Int {
        if let existing = numbers[target.key] { return existing }
        let number = nodes.count
        nodes.append(nil)
        numbers[target.key] = number
        queue.append((number, target))
        return number
    }

    private mutating func compileNode(_ target: SchemaTarget) throws(JSONSchemaError) -> SchemaNode {
        let place = index.place(target.key)
        switch target.value {
        case .bool(true):
            return .acceptAll
        case .bool(false):
            return .rejectAll(place)
        case .object(let schema):
            // The builder takes the compiler over while it works, so that the
            // tables it extends are not copied.
            var builder = KeywordBuilder(schema: schema, target: target, place: place, compiler: consume self)
            let result = Result { () throws(JSONSchemaError) -> [SchemaKeyword] in try builder.build() }
            self = builder.compiler
            let keywords = try result.get()
            return keywords.isEmpty ? .acceptAll : .keywords(keywords)
        default:
            throw JSONSchemaError(message: "a schema must be an object or a boolean", schemaLocation: place.location)
        }
    }

    /// Compiles the keywords of one schema object.
    private struct KeywordBuilder {
        let schema: JSONObject
        let target: SchemaTarget
        let place: SchemaPlace
        var compiler: SchemaCompiler
        var keywords: [SchemaKeyword] = []

        private var scope: SchemaScope { target.scope }

        mutating func build() throws(JSONSchemaError) -> [SchemaKeyword] {
            if let reference = schema["$ref"] {
                try add("$ref", .reference(resolve(reference)))
                if scope.dialect == .legacy { return keywords }
            }
            if let type = schema["type"] { try add("type", .type(types(type))) }
            var doneMembers = false
            var doneItems = false
            var doneContains = false
            for (keyword, value) in schema {
                switch keyword {
                case "$ref", "type":
                    continue
                case "$dynamicRef", "$recursiveRef", "unevaluatedProperties", "unevaluatedItems":
                    throw error("\"\(keyword)\" is not supported", at: [keyword])
                case "$defs", "definitions":
                    // Compiled even when unused, so that a mistake in a definition is found at once.
                    for name in try object(value, keyword).keys { _ = subschema([keyword, name]) }
                case "enum":
                    let values = try array(value, keyword)
                    add(keyword, .enumeration(Set(values.map(\.schemaNormalized)), original: values))
                case "const":
                    add(keyword, .constant(value.schemaNormalized, original: value))
                case "properties", "patternProperties", "additionalProperties":
                    if doneMembers { continue }
                    doneMembers = true
                    try addMembers()
                case "propertyNames":
                    add(keyword, .propertyNames(subschema([keyword])))
                case "required":
                    let names = try strings(value, at: [keyword])
                    if !names.isEmpty { add(keyword, .required(names)) }
                case "dependentRequired":
                    try addDependentRequired(value, keyword)
                case "dependentSchemas":
                    let names = try object(value, keyword).keys
                    add(keyword, .dependentSchemas(names.map { ($0, subschema([keyword, $0])) }))
                case "dependencies" where scope.dialect == .legacy:
                    try addDependencies(value)
                case "minProperties":
                    add(keyword, .minProperties(try count(value, keyword)))
                case "maxProperties":
                    add(keyword, .maxProperties(try count(value, keyword)))
                case "prefixItems", "items", "additionalItems":
                    if doneItems { continue }
                    doneItems = true
                    try addItems()
                case "contains", "minContains", "maxContains":
                    if doneContains { continue }
                    doneContains = true
                    try addContains()
                case "minItems":
                    add(keyword, .minItems(try count(value, keyword)))
                case "maxItems":
                    add(keyword, .maxItems(try count(value, keyword)))
                case "uniqueItems":
                    if try boolean(value, keyword) { add(keyword, .uniqueItems) }
                case "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum":
                    try addBound(keyword, value)
                case "multipleOf":
                    let divisor = try number(value, keyword)
                    guard SchemaNumber.compare(divisor, .integer(0)) > 0 else {
                        throw error("\"multipleOf\" must be greater than 0", at: [keyword])
                    }
                    add(keyword, .multipleOf(divisor))
                case "minLength":
                    add(keyword, .minLength(try count(value, keyword)))
                case "maxLength":
                    add(keyword, .maxLength(try count(value, keyword)))
                case "pattern":
                    add(keyword, .pattern(try pattern(value, at: [keyword])))
                case "allOf":
                    add(keyword, .allOf(try subschemas(value, keyword)))
                case "anyOf":
                    add(keyword, .anyOf(try subschemas(value, keyword)))
                case "oneOf":
                    add(keyword, .oneOf(try subschemas(value, keyword)))
                case "not":
                    add(keyword, .not(subschema([keyword])))
                case "if" where schema["then"] != nil || schema["else"] != nil:
                    add(
                        keyword,
                        .conditional(
                            condition: subschema([keyword]),
                            then: schema["then"] == nil ? nil : subschema(["then"]),
                            else: schema["else"] == nil ? nil : subschema(["else"])))
                default:
                    // Annotations ($id, $schema, $comment, title, description, default, examples,
                    // format, deprecated, readOnly, writeOnly, then/else on their own) and
                    // unknown keywords assert nothing.
                    continue
                }
            }
            return keywords
        }

        // MARK: Keywords that read their siblings

        private mutating func addMembers() throws(JSONSchemaError) {
            var members = SchemaMembers()
            if let properties = schema["properties"] {
                for name in try object(properties, "properties").keys {
                    members.properties[name] = subschema(["properties", name])
                }
            }
            if let patternProperties = schema["patternProperties"] {
                for source in try object(patternProperties, "patternProperties").keys {
                    let compiled = try pattern(.string(source), at: ["patternProperties", source])
                    members.patterns.append((compiled, subschema(["patternProperties", source])))
                }
            }
            if schema["additionalProperties"] != nil {
                members.additional = subschema(["additionalProperties"])
            }
            let first =
                ["properties", "patternProperties", "additionalProperties"].first { schema[$0] != nil } ?? "properties"
            add(first, .members(members))
        }

        private mutating func addItems() throws(JSONSchemaError) {
            var items = SchemaItems()
            let prefixKeyword: String
            let restKeyword: String
            if case .array? = schema["items"] {
                // draft-07 form, also read in 2020-12 documents that still use it.
                prefixKeyword = "items"
                restKeyword = "additionalItems"
            } else {
                prefixKeyword = scope.dialect == .modern ? "prefixItems" : ""
                restKeyword = "items"
            }
            if !prefixKeyword.isEmpty, let prefix = schema[prefixKeyword] {
                items.prefix = try subschemas(prefix, prefixKeyword, allowEmpty: true)
            }
            if schema[restKeyword] != nil {
                items.rest = subschema([restKeyword])
                items.restKeyword = restKeyword
            }
            guard !items.prefix.isEmpty || items.rest != nil else { return }
            add(items.prefix.isEmpty ? restKeyword : prefixKeyword, .items(items))
        }

        private mutating func addContains() throws(JSONSchemaError) {
            guard schema["contains"] != nil else { return }
            var minimum = 1
            var maximum: Int?
            if let value = schema["minContains"] { minimum = try count(value, "minContains") }
            if let value = schema["maxContains"] { maximum = try count(value, "maxContains") }
            add("contains", .contains(node: subschema(["contains"]), minimum: minimum, maximum: maximum))
        }

        /// `minimum` and friends, including draft-04's boolean `exclusiveMinimum`
        /// that makes `minimum` exclusive.
        private mutating func addBound(_ keyword: String, _ value: JSON) throws(JSONSchemaError) {
            let isMinimum = keyword.hasSuffix("inimum")
            let exclusive = isMinimum ? "exclusiveMinimum" : "exclusiveMaximum"
            let exclusiveFlag = schema[exclusive]?.boolValue
            let bound: JSON
            let isExclusive: Bool
            if keyword == exclusive {
                if exclusiveFlag != nil { return } // a flag on `minimum`, read there
                bound = try number(value, keyword)
                isExclusive = true
            } else {
                bound = try number(value, keyword)
                isExclusive = exclusiveFlag ?? false
            }
            add(keyword, isMinimum ? .minimum(bound, exclusive: isExclusive) : .maximum(bound, exclusive: isExclusive))
        }

        private mutating func addDependentRequired(_ value: JSON, _ keyword: String) throws(JSONSchemaError) {
            var dependencies: [(property: String, requires: [String])] = []
            for (name, required) in try object(value, keyword) {
                dependencies.append((name, try strings(required, at: [keyword, name])))
            }
            add(keyword, .dependentRequired(dependencies))
        }

        /// draft-07 `dependencies`: an array is `dependentRequired`, a schema `dependentSchemas`.
        private mutating func addDependencies(_ value: JSON) throws(JSONSchemaError) {
            var required: [(property: String, requires: [String])] = []
            var schemas: [(property: String, node: Int)] = []
            for (name, dependency) in try object(value, "dependencies") {
                if case .array = dependency {
                    required.append((name, try strings(dependency, at: ["dependencies", name])))
                } else {
                    schemas.append((name, subschema(["dependencies", name])))
                }
            }
            if !required.isEmpty { add("dependencies", .dependentRequired(required)) }
            if !schemas.isEmpty { add("dependencies", .dependentSchemas(schemas)) }
        }

        // MARK: Reading keyword values

        private mutating func add(_ keyword: String, _ check: SchemaCheck) {
            keywords.append(SchemaKeyword(place: place, name: keyword, check: check))
        }

        private func error(_ message: String, at tokens: [String]) -> JSONSchemaError {
            JSONSchemaError(
                message: message,
                schemaLocation: place.resource + "#" + JSONPointer(tokens: place.pointer.tokens + tokens).description)
        }

        /// The node of the subschema at `tokens` below this schema (one keyword,
        /// then a name or an index where the keyword holds several).
        private mutating func subschema(_ tokens: [String]) -> Int {
            var value = JSON.object(schema)
            for token in tokens {
                switch value {
                case .object(let object): value = object[token] ?? .null
                case .array(let elements):
                    value =
                        JSONPointer.arrayIndex(token).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
                        ?? .null
                default: value = .null
                }
            }
            let key = SchemaLocationKey(
                document: target.key.document, pointer: JSONPointer(tokens: target.key.pointer.tokens + tokens))
            return compiler.number(for: SchemaTarget(key: key, value: value, scope: scope.entering(value)))
        }

        private mutating func subschemas(_ value: JSON, _ keyword: String, allowEmpty: Bool = false)
            throws(JSONSchemaError) -> [Int]
        {
            let elements = try array(value, keyword)
            if elements.isEmpty && !allowEmpty { throw error("\"\(keyword)\" must not be empty", at: [keyword]) }
            return elements.indices.map { subschema([keyword, String($0)]) }
        }

        private mutating func resolve(_ reference: JSON) throws(JSONSchemaError) -> Int {
            guard case .string(let text) = reference else { throw error("\"$ref\" must be a string", at: ["$ref"]) }
            let cacheKey = scope.base.text + " " + text
            if let known = compiler.references[cacheKey] { return known }
            guard let resolved = compiler.index.resolve(text, in: scope) else {
                throw error("cannot resolve \"$ref\": \"\(text)\"", at: ["$ref"])
            }
            let number = compiler.number(for: resolved)
            compiler.references[cacheKey] = number
            return number
        }

        private mutating func pattern(_ value: JSON, at tokens: [String]) throws(JSONSchemaError) -> SchemaPattern {
            guard case .string(let source) = value else { throw error("a pattern must be a string", at: tokens) }
            if let cached = compiler.patterns[source] { return cached }
            do {
                let compiled = try SchemaPattern(source, checking: compiler.patternChecking)
                compiler.patterns[source] = compiled
                return compiled
            } catch {
                throw self.error("invalid regular expression \(JSON.string(source).excerpt()): \(error)", at: tokens)
            }
        }

        private func types(_ value: JSON) throws(JSONSchemaError) -> SchemaTypes {
            let names: [JSON]
            if case .array(let elements) = value { names = elements } else { names = [value] }
            var types: SchemaTypes = []
            for name in names {
                guard let text = name.stringValue, let type = SchemaTypes(name: text) else {
                    throw error(
                        "unknown type \(name.excerpt()) (expected one of null, "
                            + "boolean, object, array, number, integer, string)", at: ["type"])
                }
                types.insert(type)
            }
            return types
        }

        private func object(_ value: JSON, _ keyword: String) throws(JSONSchemaError) -> JSONObject {
            guard case .object(let members) = value else {
                throw error("\"\(keyword)\" must be an object", at: [keyword])
            }
            return members
        }

        private func array(_ value: JSON, _ keyword: String) throws(JSONSchemaError) -> [JSON] {
            guard case .array(let elements) = value else {
                throw error("\"\(keyword)\" must be an array", at: [keyword])
            }
            return elements
        }

        /// `tokens` is the keyword, or the keyword and a member name for the
        /// lists of `dependentRequired` and `dependencies`.
        private func strings(_ value: JSON, at tokens: [String]) throws(JSONSchemaError) -> [String] {
            let message =
                tokens.count == 1
                ? "\"\(tokens[0])\" must be an array of strings"
                : "each member of \"\(tokens[0])\" must be an array of strings"
            guard case .array(let elements) = value else { throw error(message, at: tokens) }
            var strings: [String] = []
            for element in elements {
                guard case .string(let text) = element else { throw error(message, at: tokens) }
                strings.append(text)
            }
            return strings
        }

        private func count(_ value: JSON, _ keyword: String) throws(JSONSchemaError) -> Int {
            guard let number = value.integerValue, number >= 0 else {
                throw error("\"\(keyword)\" must be a non-negative integer", at: [keyword])
            }
            return Int(clamping: number)
        }

        private func number(_ value: JSON, _ keyword: String) throws(JSONSchemaError) -> JSON {
            guard value.isNumber else { throw error("\"\(keyword)\" must be a number", at: [keyword]) }
            return value
        }

        private func boolean(_ value: JSON, _ keyword: String) throws(JSONSchemaError) -> Bool {
            guard case .bool(let flag) = value else { throw error("\"\(keyword)\" must be a boolean", at: [keyword]) }
            return flag
        }
    }
}
