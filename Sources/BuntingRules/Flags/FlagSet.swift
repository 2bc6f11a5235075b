import BuntingJSON

/// The flags of a flagd flag-definition document, compiled once and resolved
/// for any number of contexts, as flagd resolves them.
///
/// Only what flagd's format defines is read: `flags` (an object by key, or
/// flagd's array of flags with `key`), `$evaluators` and `metadata`. Other
/// top-level members are ignored, so the document may carry other sections.
///
/// A flag whose definition is unusable (bad `state`, no `variants`, a
/// targeting rule that does not compile, …) does not stop the others: it is
/// listed in `problems` and resolves as ERROR / PARSE_ERROR.
public struct FlagSet: Sendable {
    /// The flags in document order.
    let flags: [CompiledFlag]
    let index: [ExactString: Int]
    /// The attributes all the flags' rules read.
    let attributes: AttributeTable

    /// Every problem found, with a pointer into the document. Empty for a
    /// valid document. None of them stops the other flags from resolving.
    public let problems: [RuleCompileError]
    /// The flags whose definition cannot be used (they resolve as ERROR /
    /// PARSE_ERROR), with the first problem of each: a bad `state` or
    /// `variants`, a targeting rule that does not compile (such as a `$ref` to
    /// an evaluator that does not exist), bad metadata. The rest of the
    /// problems leave every flag usable.
    public var unusableFlags: [String: RuleCompileError] {
        var unusable: [String: RuleCompileError] = [:]
        for flag in flags { if let problem = flag.unusable { unusable[flag.key] = problem } }
        return unusable
    }
    /// The flag set's `metadata`.
    public let metadata: JSONObject
    public let fractionalHashing: FractionalHashing

    /// The flag keys in document order.
    public let flagKeys: [String]

    /// Compiles a flag-definition document.
    ///
    /// - Parameters:
    ///   - document: the whole document (an object).
    ///   - fractionalHashing: the `fractional` generation the document chose.
    ///   - pointerPrefix: the document's own pointer, when it is embedded.
    /// - Throws: only when the document cannot hold flags at all: it is not
    ///   an object, or `flags`, `$evaluators` or `metadata` has the wrong type.
    public init(
        document: JSON, fractionalHashing: FractionalHashing = .default, pointerPrefix: String = ""
    ) throws(RuleCompileError) {
        self = try Builder(document: document, fractionalHashing: fractionalHashing, pointerPrefix: pointerPrefix)
            .finish()
    }

    private init(flags: [CompiledFlag], parser: FlagSetParser, metadata: JSONObject) {
        self.flags = flags
        flagKeys = flags.map(\.key)
        // Sized once: grown by doubling, each step held the old table beside the new at the peak of loading.
        var index: [ExactString: Int] = Dictionary(minimumCapacity: flags.count)
        for (position, flag) in flags.enumerated() where index[ExactString(flag.key)] == nil {
            index[ExactString(flag.key)] = position
        }
        self.index = index
        problems = parser.problems
        self.metadata = metadata
        attributes = parser.attributes
        fractionalHashing = parser.fractionalHashing
    }

    /// A flag set compiled a flag at a time: the document's shared members
    /// (and any flags it holds) first, then more members of its object
    /// `flags`, each given once. What `FlagSet(document:)` compiles from the
    /// document with those members in its `flags` after its own, so that
    /// the flags of a large document need never be one tree.
    public struct Builder {
        private var parser: FlagSetParser
        private var flags: [CompiledFlag]
        private let metadata: JSONObject

        /// Reads the document as `FlagSet(document:)` does, and throws what it throws.
        public init(
            document: JSON, fractionalHashing: FractionalHashing = .default, pointerPrefix: String = ""
        ) throws(RuleCompileError) {
            parser = FlagSetParser(pointerPrefix: pointerPrefix, fractionalHashing: fractionalHashing)
            let parsed = try parser.parse(document)
            flags = parsed.flags
            metadata = parsed.metadata
        }

        /// What compiling has found wrong so far (`FlagSet.problems` once finished).
        public var problems: [RuleCompileError] { parser.problems }

        /// One more member of `flags`, whose key no flag has yet.
        public mutating func add(key: String, definition: JSON) {
            flags.append(parser.parseMember(key: key, definition))
        }

        public consuming func finish() -> FlagSet {
            // What shared variants while compiling is freed before the set's index is made beside the flags.
            parser.finishCompiling()
            return FlagSet(flags: flags, parser: parser, metadata: metadata)
        }
    }

    /// No flags: the flag set of a document that holds none (a GrowthBook payload).
    public static let none: FlagSet = {
        do {
            return try FlagSet(document: ["flags": .object(JSONObject())])
        } catch {
            preconditionFailure("an empty flag set does not compile: \(error)")
        }
    }()

    /// Whether a flag has this key (compared by its bytes).
    public func hasFlag(_ key: String) -> Bool {
        index[ExactString(key)] != nil
    }
}
