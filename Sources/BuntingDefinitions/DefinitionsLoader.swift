import BuntingCore
import BuntingJSON
import BuntingRules
import BuntingRuntime
import BuntingSchema

/// Turns the text of a definitions document into `Definitions`.
///
/// As flagd loads flag files: a document loads when it is JSON with a
/// readable structure (an object whose sections have the right types); what
/// is wrong inside one flag, banner or card stays with it. A flag with a
/// mistake resolves as flagd resolves it (an operator that cannot work
/// answers null, so the default variant; an unusable definition is
/// ERROR/PARSE_ERROR) and the others serve; a banner or card with a mistake
/// is left out — never shown, failing closed — and the others are shown.
/// Every problem is kept, with its JSON pointer and line:column, in
/// `Definitions.problems`. In strict mode any problem refuses the document.
struct DefinitionsLoader {
    let bytes: [UInt8]
    let strict: Bool
    private var problems: [DefinitionsProblem] = []
    private var locator: JSONSourceLocator?

    /// Documents from this size on are checked and compiled side by side:
    /// about where each takes longer than starting a thread (100 flags are 65 KB).
    static let sideBySideBytes = 16 << 10

    init(_ bytes: [UInt8], strict: Bool) {
        self.bytes = bytes
        self.strict = strict
    }

    /// The top-level members whose mistakes stay inside one item.
    private enum Section: String {
        case flags, evaluators = "$evaluators", banners, contentCards
    }

    mutating func load() -> Result<Definitions, DefinitionsProblems> {
        Definitions.prepareSchema()
        var document: JSON
        do {
            document = try JSON.parse(bytes)
        } catch {
            return .failure(DefinitionsProblems([DefinitionsProblem(pointer: "", line: error.line, column: error.column, message: error.message)]))
        }
        let schema: JSONSchema
        switch DefinitionsSchema.compiled {
        case .failure(let error):
            let problem = DefinitionsProblem(pointer: "", line: 0, column: 0, message: "the definitions schema itself is broken: \(error)")
            return .failure(DefinitionsProblems([problem]))
        case .success(let compiled):
            schema = compiled
        }

        let hashing = FractionalHashing(rawValue: document["fractionalHashing"]?.stringValue ?? "") ?? .default
        let (violations, compiledFlags, fingerprints) = checkAndCompileFlags(document, schema: schema, hashing: hashing)
        // What banners and cards still need of the document; the rest of it
        // (the flags, most of it) is freed now, before they are compiled,
        // instead of staying alive beside everything compiled from it.
        var items = ItemSections(document)
        document = .null

        // Which items the schema finds wrong; a mistake anywhere else (the
        // document's own structure) refuses it.
        var structural = false
        var brokenBanners = Set<Int>()
        var brokenCards = Set<Int>()
        for violation in violations {
            report(violation.instanceLocation, violation.message)
            let tokens = violation.instanceLocation.tokens
            switch tokens.first.flatMap(Section.init(rawValue:)) {
            // (Each pattern takes its own `where`: `/flags` itself is structure.)
            case .flags? where tokens.count >= 2, .evaluators? where tokens.count >= 2:
                break  // the flag set decides what each flag's mistakes mean
            case .banners? where tokens.count >= 2:
                if let index = Int(tokens[1]) { brokenBanners.insert(index) }
            case .contentCards? where tokens.count >= 2:
                if let index = Int(tokens[1]) { brokenCards.insert(index) }
            default:
                structural = true
            }
        }
        guard !structural, !(strict && !problems.isEmpty) else { return .failure(DefinitionsProblems(sorted(problems))) }

        let flagSet: FlagSet
        switch compiledFlags {
        case .success(let compiled):
            flagSet = compiled
        case .failure(let error):
            report(error.pointer, error.message)
            return .failure(DefinitionsProblems(sorted(problems)))
        }
        // The schema may have named a mistake already; the flag set's words
        // for the same place add nothing.
        let named = Set(problems.map(\.pointer))
        for problem in flagSet.problems where !named.contains(problem.pointer) { report(problem.pointer, problem.message) }
        // Banners and cards written with the same targeting share its compiled parts.
        let rules = SharedRuleParts(evaluators: RuleEvaluators(items.evaluators))
        let banners = compileBanners(items.banners, skipping: brokenBanners, rules: rules, hashing: hashing)
        let cards = compileCards(items.takeCards(), skipping: brokenCards, rules: rules, hashing: hashing)
        if strict && !problems.isEmpty { return .failure(DefinitionsProblems(sorted(problems))) }
        return .success(Definitions(
            flagSet: flagSet, banners: banners, cards: cards, channels: Self.channels(items.channels),
            problems: sorted(problems), fingerprints: fingerprints))
    }

    /// The schema's check and the flag set's compilation (with the flags'
    /// fingerprints): each needs only the document, and on a large one they
    /// run side by side. The flag set is compiled even when the check then
    /// refuses the document. A function of its own, so that the flag
    /// document made here is gone when it returns.
    private func checkAndCompileFlags(
        _ document: JSON, schema: JSONSchema, hashing: FractionalHashing
    ) -> ([JSONSchemaViolation], Result<FlagSet, RuleCompileError>, FlagFingerprints) {
        // A document may hold only banners or cards; flagd's format wants `flags`.
        var flagDocument = document.objectValue ?? [:]
        if flagDocument["flags"] == nil { flagDocument["flags"] = .object([:]) }
        let flags = JSON.object(flagDocument)
        let compileFlags = { () -> (Result<FlagSet, RuleCompileError>, FlagFingerprints) in
            let compiled = Result { () throws(RuleCompileError) -> FlagSet in try FlagSet(document: flags, fractionalHashing: hashing) }
            return (compiled, FlagFingerprints(document: flags, hashing: hashing.rawValue))
        }
        let violations: [JSONSchemaViolation]
        let (compiledFlags, fingerprints): (Result<FlagSet, RuleCompileError>, FlagFingerprints)
        if bytes.count >= Self.sideBySideBytes {
            (violations, (compiledFlags, fingerprints)) = sideBySide({ schema.validate(document) }, compileFlags)
        } else {
            (violations, (compiledFlags, fingerprints)) = (schema.validate(document), compileFlags())
        }
        return (violations, compiledFlags, fingerprints)
    }

    /// The members of the document that banners, cards and channels are
    /// compiled from, taken out of it so that the rest can be freed.
    private struct ItemSections {
        let evaluators: JSONObject
        let banners: [JSON]
        private var cards: [JSON]
        let channels: JSON?

        init(_ document: JSON) {
            evaluators = document["$evaluators"]?.objectValue ?? [:]
            banners = document["banners"]?.arrayValue ?? []
            cards = document["contentCards"]?.arrayValue ?? []
            channels = document["channels"]
        }

        /// The cards, no longer held here: once the document is gone, the
        /// caller holds the only reference and can free each entry as it is compiled.
        mutating func takeCards() -> [JSON] {
            defer { cards = [] }
            return cards
        }
    }

    // MARK: - Sections

    private mutating func compileBanners(
        _ entries: [JSON], skipping broken: Set<Int>, rules: SharedRuleParts, hashing: FractionalHashing
    ) -> [BannerDefinition] {
        var seen: Set<String> = []
        var banners: [BannerDefinition] = []
        for (index, entry) in entries.enumerated() where !broken.contains(index) {
            let pointer = "/banners/\(index)"
            guard let id = entry["id"]?.stringValue, let placementId = entry["placementId"]?.stringValue else { continue }
            guard seen.insert(id).inserted else {
                report(pointer + "/id", "banner id \(id.debugDescription) is used twice; this one is left out")
                continue
            }
            guard let targeting = compileTargeting(entry, at: pointer, rules: rules, hashing: hashing) else { continue }
            banners.append(BannerDefinition(
                id: id, placementId: placementId, html: entry["html"]?.stringValue ?? "",
                priority: entry["priority"]?.integerValue ?? 0, properties: entry["properties"]?.objectValue ?? [:],
                isTestSend: entry["isTestSend"]?.boolValue ?? false, trackingId: entry["trackingId"]?.stringValue,
                expiresAt: entry["expiresAt"]?.doubleValue, targeting: targeting))
        }
        return banners
    }

    /// Each entry is dropped from `entries` once compiled: what is left of
    /// the document then shrinks while the cards grow, instead of the two
    /// adding up to the peak of loading.
    private mutating func compileCards(
        _ entries: consuming [JSON], skipping broken: Set<Int>, rules: SharedRuleParts, hashing: FractionalHashing
    ) -> [CardDefinition] {
        var seen: Set<String> = []
        var cards: [CardDefinition] = []
        for index in entries.indices where !broken.contains(index) {
            let entry = entries[index]
            entries[index] = .null
            let pointer = "/contentCards/\(index)"
            guard let card = Self.card(entry) else { continue }
            let id = card.id
            guard seen.insert(id).inserted else {
                report(pointer + "/id", "content card id \(id.debugDescription) is used twice; this one is left out")
                continue
            }
            guard let targeting = compileTargeting(entry, at: pointer, rules: rules, hashing: hashing) else { continue }
            cards.append(CardDefinition(card: card, targeting: targeting))
        }
        return cards
    }

    /// The card an entry defines. Of its fields a card keeps the id and the
    /// extras as values (the rest only as its text), so only those are copied
    /// (see `JSON.detached`): the card outlives the parsed document.
    private static func card(_ entry: JSON) -> ContentCard? {
        guard case .object(var fields) = entry else { return nil }
        for kept in ["id", "extras"] {
            if let value = fields[kept] { fields[kept] = value.detached() }
        }
        return ContentCard(json: .object(fields))
    }

    private mutating func compileTargeting(
        _ entry: JSON, at pointer: String, rules: SharedRuleParts, hashing: FractionalHashing
    ) -> Targeting? {
        var rule: JSONLogicRule?
        if let targeting = entry["targeting"] {
            do {
                rule = try JSONLogicRule(targeting, sharing: rules, pointerPrefix: pointer + "/targeting", fractionalHashing: hashing)
            } catch {
                report(error.pointer, error.message)
                return nil
            }
        }
        return Targeting(rule: rule, schedule: Schedule(entry["schedule"]), controlShare: entry["controlShare"]?.doubleValue ?? 0)
    }

    /// A channel is on unless `channels` turns it off, as `false` or `{"enabled": false}`.
    /// Which channels the document's `channels` member turns on.
    static func channels(_ json: JSON?) -> [Channel: Bool] {
        var channels: [Channel: Bool] = [:]
        for channel in Channel.allCases {
            switch json?[channel.rawValue] {
            case .bool(let enabled)?: channels[channel] = enabled
            case .object(let settings)?: channels[channel] = settings["enabled"]?.boolValue ?? true
            default: channels[channel] = true
            }
        }
        return channels
    }

    // MARK: - Problems

    private mutating func report(_ pointer: JSONPointer, _ message: String) {
        if locator == nil { locator = JSONSourceLocator(bytes) }
        let location = locator?.location(of: pointer)
        let problem = DefinitionsProblem(
            pointer: pointer.description, line: location?.line ?? 0, column: location?.column ?? 0, message: message)
        if !problems.contains(problem) { problems.append(problem) }
    }

    private mutating func report(_ pointer: String, _ message: String) {
        let parsed = (try? JSONPointer(parsing: pointer)) ?? .root
        report(parsed, message)
    }

    /// In the order they appear in the text.
    private func sorted(_ problems: [DefinitionsProblem]) -> [DefinitionsProblem] {
        problems.enumerated().sorted { lhs, rhs in
            (lhs.element.line, lhs.element.column, lhs.offset) < (rhs.element.line, rhs.element.column, rhs.offset)
        }.map(\.element)
    }
}
