import BuntingCore
import BuntingJSON
import BuntingRules
import BuntingRuntime
import Synchronization

/// A document known to load (it has a note in `KnownDocuments`, or its
/// structure says it will: `DocumentStructure`), served while it is checked
/// and compiled in the background.
///
/// Loading a document costs far more than answering the first request: a
/// 100-flag document is parsed, checked against the schema (which is itself
/// compiled first) and compiled, about 35 million instructions, while the
/// process itself takes 4 million to start. A server spawned for one
/// question would spend most of its life loading. Here the full load runs
/// on a thread of its own (from `beginLoading()`, or at once); until it is
/// done, `evaluateFlag` reads
/// only the flag asked for (and what every flag shares: `$evaluators`,
/// metadata, `fractionalHashing`) from the text and compiles that alone.
/// Its answer is the full document's: a flag's resolution depends on nothing
/// else in the document. Everything else waits for the full load. The
/// problems are the note's, those the same document loaded with before; for
/// a document never seen they are known once the full load is done (a reader
/// of `problems` waits for it, `whenProblemsKnown` hears of them then).
///
/// Should the full load not agree with the note (a stolen key, or a bug),
/// the note is forgotten, the refusal is logged, and the document serves
/// no flags, banners or cards: the answers given meanwhile were the
/// document's, but a document that does not load is not served. From then
/// on `refusal` and `problems` say so (`status` reports it not loaded).
public final class DeferredDefinitions: CompiledDefinitions {
    /// The problems the note lists; nil for a document without a note.
    private let notedProblems: [DefinitionsProblem]?
    /// Who wants to hear the problems of a document without a note.
    private let problemsListeners = ProblemsListeners()
    private let channels: [Channel: Bool]
    private let full: BackgroundResult<FullLoad>
    /// The text of every top-level member that flags share, written as
    /// members of an object, ending in `"flags":{`.
    private let sharedText: [UInt8]
    /// Each flag's `"key":value` as written.
    /// By the flag key's bytes.
    private let flagTexts: [ExactString: [UInt8]]
    private let hashing: FractionalHashing
    /// The document has GrowthBook features: a key no flag has may be one.
    private let hasFeatures: Bool

    /// Nil when the text does not read as the object the note says it is:
    /// the caller then loads it in full as usual. `problems` are the note's,
    /// nil for a document without one. `outline`, when the caller has it,
    /// says where the members and the flags are written (else they are
    /// found here). `load` stands in for `Definitions.load`; `refused`
    /// hears of a full load that refused.
    public init?(
        bytes: [UInt8], problems: [DefinitionsProblem]?, strict: Bool, beginLoading: Bool = true,
        outline: JSONOutline? = nil,
        load: (@Sendable ([UInt8], Bool) -> Result<Definitions, DefinitionsProblems>)? = nil,
        refused: @escaping @Sendable (DefinitionsProblems) -> Void = { _ in }
    ) {
        var hasFeatures = false
        let spans: (shared: [UInt8], flags: [ExactString: [UInt8]], channels: JSON?, hashing: String?)? =
            bytes.withUnsafeBytes { text in
                guard let top = outline?.members ?? JSONMemberSpans.members(of: text, in: 0..<text.count) else {
                    return nil
                }
                var shared: [UInt8] = [UInt8(ascii: "{")]
                var flags: [ExactString: [UInt8]] = [:]
                var channels: JSON?
                var hashing: String?
                for member in top {
                    switch member.key {
                    case "flags":
                        guard
                            let listed = outline?.nested["flags"] ?? JSONMemberSpans.members(of: text, in: member.value)
                        else { return nil }
                        for flag in listed where flags[ExactString(flag.key)] == nil {
                            flags[ExactString(flag.key)] =
                                Array(text[flag.keyText]) + [UInt8(ascii: ":")] + Array(text[flag.value])
                        }
                    case let section where DocumentSections.large.contains(section):
                        continue // banners and cards: no flag reads them
                    case "features", "savedGroups", "contextualBandits":
                        hasFeatures = hasFeatures || member.key == "features"
                        continue // GrowthBook's: no flag reads them
                    default:
                        if member.key == "channels" {
                            channels = try? JSON.parse(UnsafeRawBufferPointer(rebasing: text[member.value]))
                        }
                        if member.key == "fractionalHashing" {
                            hashing =
                                (try? JSON.parse(UnsafeRawBufferPointer(rebasing: text[member.value])))?.stringValue
                        }
                        shared += text[member.keyText]
                        shared.append(UInt8(ascii: ":"))
                        shared += text[member.value]
                        shared.append(UInt8(ascii: ","))
                    }
                }
                shared += Array(#""flags":{"#.utf8)
                return (shared, flags, channels, hashing)
            }
        guard let spans else { return nil }
        self.notedProblems = problems
        self.sharedText = spans.shared
        self.flagTexts = spans.flags
        self.hasFeatures = hasFeatures
        self.channels = DefinitionsLoader.channels(spans.channels)
        self.hashing = FractionalHashing(rawValue: spans.hashing ?? "") ?? .default
        let load = load ?? { bytes, strict in Definitions.load(bytes, strict: strict) }
        let listeners = problemsListeners
        full = BackgroundResult(name: "bunting-load", beginNow: beginLoading) {
            switch load(bytes, strict) {
            case .success(let definitions):
                listeners.tell(definitions.problems)
                return FullLoad(definitions: definitions, refusal: nil)
            case .failure(let failure):
                refused(failure)
                // (An empty flag set always compiles.)
                let noFlags = try! FlagSet(document: ["flags": .object([:])])
                return FullLoad(
                    definitions: Definitions(flagSet: noFlags, banners: [], cards: [], channels: [:]), refusal: failure)
            }
        }
    }

    /// Begins the full load on a thread of its own, if it has not begun.
    public func beginLoading() {
        full.begin()
    }

    /// The document checked and compiled, waiting for it if need be.
    public var definitions: Definitions { full.value.definitions }

    /// Whether the full load is done (for tests).
    public var isLoaded: Bool { full.ready != nil }

    /// The flag alone, compiled from its text and what flags share; nil when
    /// that does not compile (it did as part of the document: then the
    /// document is waited for).
    private func soleFlag(_ flagKey: String) -> Definitions? {
        var text = sharedText
        if let flag = flagTexts[ExactString(flagKey)] { text += flag }
        text += Array("}}".utf8)
        guard let document = try? JSON.parse(text),
            let flagSet = try? FlagSet(document: document, fractionalHashing: hashing)
        else { return nil }
        return Definitions(flagSet: flagSet, banners: [], cards: [], channels: channels)
    }

    /// The full document when it is there, else the flag alone (a key no
    /// flag has may be a GrowthBook feature's: the document is waited for).
    private func definitions(answering flagKey: String) -> Definitions {
        if let ready = full.ready { return ready.definitions }
        if hasFeatures && flagTexts[ExactString(flagKey)] == nil { return full.value.definitions }
        return soleFlag(flagKey) ?? full.value.definitions
    }

    // MARK: - CompiledDefinitions

    /// The note's problems, until a full load that refused the document
    /// says what is wrong with it; without a note, the full load's (waited for).
    public var problems: [DefinitionsProblem] {
        if let refusal = full.ready?.refusal { return refusal.problems }
        return notedProblems ?? full.value.definitions.problems
    }

    /// The note's problems at once; without a note, once the full load is
    /// done (on its thread), and never if it refused the document (`refused` says so).
    public func whenProblemsKnown(_ body: @escaping @Sendable ([DefinitionsProblem]) -> Void) {
        if let notedProblems { return body(notedProblems) }
        problemsListeners.add(body)
    }

    /// Why the full load refused the document, once it has.
    public var refusal: DefinitionsError? {
        full.ready?.refusal.map { DefinitionsError(problems: $0.problems.map(\.description)) }
    }

    public func isEnabled(_ channel: Channel) -> Bool {
        full.ready?.definitions.isEnabled(channel) ?? channels[channel] ?? true
    }

    public func evaluateFlag(_ flagKey: String, context: JSON, type: FlagType?, at now: Double) -> JSONObject {
        definitions(answering: flagKey).evaluateFlag(flagKey, context: context, type: type, at: now)
    }

    public func encodedFlagResult(_ flagKey: String, context: JSON, type: FlagType?, at now: Double) -> EncodedJSON {
        definitions(answering: flagKey).encodedFlagResult(flagKey, context: context, type: type, at: now)
    }

    public func featureFlags(for subject: EvaluationSubject, at now: Double) -> [FeatureFlag] {
        definitions.featureFlags(for: subject, at: now)
    }

    public func banners(
        for subject: EvaluationSubject, at now: Double, excluding: Set<ExactString>
    ) -> [ExactString: Banner] {
        definitions.banners(for: subject, at: now, excluding: excluding)
    }

    public var placementIds: [String] { definitions.placementIds }

    public func contentCards(for subject: EvaluationSubject, at now: Double) -> [ContentCard] {
        definitions.contentCards(for: subject, at: now)
    }

    public func featureFlags(for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem])
        -> [FeatureFlag]
    {
        definitions.featureFlags(for: subject, at: now, unrendered: &unrendered)
    }

    public func banners(
        for subject: EvaluationSubject, at now: Double, excluding: Set<ExactString>, unrendered: inout [UnrenderedItem]
    ) -> [ExactString: Banner] {
        definitions.banners(for: subject, at: now, excluding: excluding, unrendered: &unrendered)
    }

    public func contentCards(for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem])
        -> [ContentCard]
    {
        definitions.contentCards(for: subject, at: now, unrendered: &unrendered)
    }

    public func renderTemplate(_ request: TemplateRequest) -> Result<String, TemplateFault> {
        definitions.renderTemplate(request)
    }

    public func evaluateFlags(context: JSON, flagKeys: [String]?, at now: Double) -> JSONObject {
        definitions.evaluateFlags(context: context, flagKeys: flagKeys, at: now)
    }

    public func flagsChanged(since previous: any CompiledDefinitions) -> [String] {
        definitions.flagsChanged(since: previous)
    }

    public var featureKeys: [String] { definitions.featureKeys }

    public func stickyDocumentKeys(for attributes: JSONObject) -> [(name: String, value: String)] {
        definitions.stickyDocumentKeys(for: attributes)
    }

    public func evaluateFeatures(
        attributes: JSONObject, keys: [String]?, sticky: [StickyDocument]?, listing: Bool, tracking: Bool,
        at now: Double
    ) -> FeatureEvaluation {
        definitions.evaluateFeatures(
            attributes: attributes, keys: keys, sticky: sticky, listing: listing, tracking: tracking, at: now)
    }

    public func encodedFeatureResult(_ key: String, attributes: JSONObject) -> EncodedJSON? {
        definitions.encodedFeatureResult(key, attributes: attributes)
    }

    public func evaluateCondition(_ condition: JSON, attributes: JSON, savedGroups: JSON?) -> Result<
        Bool, DefinitionsError
    > {
        definitions.evaluateCondition(condition, attributes: attributes, savedGroups: savedGroups)
    }
}

/// Those who want to hear the problems of a document without a note, which
/// the full load tells once it is done (on its thread), or at once after.
private final class ProblemsListeners: Sendable {
    private let state = Mutex<(problems: [DefinitionsProblem]?, waiting: [@Sendable ([DefinitionsProblem]) -> Void])>(
        (nil, []))

    func add(_ listener: @escaping @Sendable ([DefinitionsProblem]) -> Void) {
        let known = state.withLock { state -> [DefinitionsProblem]? in
            if state.problems == nil { state.waiting.append(listener) }
            return state.problems
        }
        if let known { listener(known) }
    }

    func tell(_ problems: [DefinitionsProblem]) {
        let waiting = state.withLock { state in
            state.problems = problems
            defer { state.waiting = [] }
            return state.waiting
        }
        for listener in waiting { listener(problems) }
    }
}

/// What the full load of a noted document came to: the document, or what
/// serves in its place (nothing) with the reason.
private struct FullLoad: Sendable {
    let definitions: Definitions
    let refusal: DefinitionsProblems?
}
