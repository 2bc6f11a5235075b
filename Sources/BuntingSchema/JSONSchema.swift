import BuntingJSON

/// A compiled JSON Schema: compile once, validate many instances, from any thread.
///
/// Reads JSON Schema 2020-12, and draft-07 as far as flagd's schemas need it
/// (`definitions`, array-form `items`, `additionalItems`, `dependencies`,
/// boolean `exclusiveMinimum`, and `$ref` hiding its siblings). The dialect of
/// each schema resource comes from its `$schema`; without one, 2020-12.
/// `format` is an annotation only, and unknown keywords are ignored.
public struct JSONSchema: Sendable {
    /// Violations reported by `validate` unless told otherwise.
    public static let defaultViolationLimit = 100

    private let nodes: [SchemaNode]

    /// When `pattern` and `patternProperties` regular expressions are read.
    public enum PatternChecking: Sendable {
        /// While compiling: a pattern that does not compile fails the schema.
        case whileCompiling
        /// When a pattern first decides a text, for a schema whose patterns
        /// its own tests check: reading a long pattern costs millions of
        /// instructions. One that does not compile matches nothing.
        case onFirstUse
    }

    /// Compiles `schema`.
    ///
    /// - Parameters:
    ///   - uri: The schema's own URI, against which its relative `$id`s and
    ///     `$ref`s are resolved; its `$id` wins when it has one.
    ///   - resources: Other schema documents that `$ref` may point at, each under
    ///     a name such as `"targeting.json"`. Each is found by its `$id`, by that
    ///     name resolved against the referring schema's URI, or by the name as
    ///     written in the `$ref` (`"./targeting.json"`).
    /// - Throws: `JSONSchemaError` when a keyword has a value of the wrong kind,
    ///   a pattern does not compile (when checked while compiling), a `$ref` leads nowhere, or the schema uses
    ///   `$dynamicRef`, `unevaluatedProperties` or `unevaluatedItems`, which are
    ///   not supported (ignoring them would accept what the author meant to refuse).
    ///   - patterns: When regular expressions are read.
    public init(
        _ schema: JSON, uri: String = "", resources: [String: JSON] = [:], patterns: PatternChecking = .whileCompiling
    ) throws(JSONSchemaError) {
        var index = SchemaResourceIndex()
        let root = try index.add(schema, name: uri, defaultDialect: .modern)
        for name in resources.keys.sorted() {
            guard let document = resources[name] else { continue }
            _ = try index.add(document, name: name, defaultDialect: .modern)
        }
        var compiler = SchemaCompiler(index: index, patternChecking: patterns)
        nodes = try compiler.compile(root: root)
    }

    /// Reads every pattern not read yet (see `PatternChecking.onFirstUse`):
    /// for a thread that prepares the schema before the first document comes.
    public func readPatterns() {
        for case .keywords(let keywords) in nodes {
            for keyword in keywords {
                switch keyword.check {
                case .pattern(let pattern): pattern.read()
                case .members(let members): members.patterns.forEach { $0.pattern.read() }
                default: break
                }
            }
        }
    }

    /// Every way `instance` breaks the schema, in document order as far as the
    /// schema allows, at most `limit` of them; empty when it is valid.
    public func validate(_ instance: JSON, limit: Int = JSONSchema.defaultViolationLimit) -> [JSONSchemaViolation] {
        var validator = SchemaValidator(nodes: nodes, root: instance, limit: limit, collecting: true)
        _ = validator.validate(0, instance)
        return validator.findings.map { finding in
            JSONSchemaViolation(
                instanceLocation: JSONPointer(tokens: finding.path.map(\.text)),
                keywordLocation: finding.keywordLocation,
                message: finding.message)
        }
    }

    /// Whether `instance` is valid; faster than `validate` when it is not.
    public func isValid(_ instance: JSON) -> Bool {
        var validator = SchemaValidator(nodes: nodes, root: instance, limit: 1, collecting: false)
        return validator.validate(0, instance)
    }
}
