import BuntingCore
import BuntingExperiments
import BuntingJSON
import BuntingRules
import BuntingRuntime
import Synchronization

/// A definitions document, checked against `schemas/definitions.schema.json`
/// and compiled: flagd's flags, banners, content cards and channel switches,
/// ready to decide per user what each channel holds.
public final class Definitions: CompiledDefinitions {
    public let flagSet: FlagSet
    /// The GrowthBook features: the payload the document is, or its `features` section.
    public let growthBook: GrowthBookPayload?
    let banners: [BannerDefinition]
    let cards: [CardDefinition]
    let channels: [Channel: Bool]
    public let placementIds: [String]
    /// What is wrong in the document though it loaded, in document order.
    public let problems: [DefinitionsProblem]
    /// What decides each flag's resolution besides the context, to tell which
    /// flags a new document changes: each flag's definition, and what every
    /// flag shares (evaluators, flag-set metadata, the fractional generation).
    let fingerprints: FlagFingerprints
    /// Results `evaluateFlag` has written, kept for as long as this document is current.
    private let encodedResults = EncodedFlagResults()
    /// The channel's flag for each flag and variant met so far (nil: not
    /// listed), by the flag's place in `resolveAll`'s answer (always the
    /// same flag: the flag set is this document's own and never changes).
    /// A user change looks each of thousands of flags up; a slot per place,
    /// keyed by the variant's position and the reason, costs a fraction of
    /// a dictionary keyed by the flag's name and reads nothing of the flag:
    /// at 50,000 flags, comparing names was a cache miss per flag. The
    /// slots lie in one array, their first two variants inline.
    private let madeFlags = Mutex<[MadeFlags]>([])
    /// The flag set's metadata, written once for every made flag that carries it.
    private let setMetadata: FeatureFlag.SharedMetadata
    /// Set once a round of evaluations spent its budget (logged once).
    private let budgetSpentNoted = Atomic(false)
    /// The Liquid templates of the items and the document's content blocks.
    let templates: DocumentTemplates
    /// The templates in flags' variant properties, by place.
    let flagTemplates: FlagTemplates
    /// How many cards, and banners, hold templates: what a refresh's render budget is sized by.
    let templatedCardCount: Int
    let templatedBannerCount: Int
    /// Whether GrowthBook values may hold templates (found at load, or an
    /// encrypted payload's, unseen): otherwise the features' flags are not scanned.
    let featuresHoldTemplates: Bool

    /// A variant's position (32 bits: a flag has fewer variants) and the
    /// resolution's reason: disabled and error resolutions are not listed,
    /// so the reason is part of the key.
    private struct MadeKey: Equatable {
        let variantPosition: Int32
        let reason: FlagReason

        init(_ resolution: FlagResolution, at position: Int) {
            variantPosition = Int32(clamping: position)
            reason = resolution.reason
        }
    }

    /// The keys are plain values, so that finding an entry retains nothing.
    private struct MadeFlags {
        var firstKey: MadeKey?
        var secondKey: MadeKey?
        var first: FeatureFlag?
        var second: FeatureFlag?
        var more: [(key: MadeKey, flag: FeatureFlag?)] = []

        /// The flag made for `key` in `slot`: nil when none was, `.some(nil)`
        /// when the variant is not listed. Read through the slot's address:
        /// a method called on `slots[place]` copied the slot, retaining and
        /// releasing each of its flags, which at 100,000 flags was two cache
        /// misses a flag and about a tenth of a user change (perf).
        static func made(in slot: UnsafeMutablePointer<MadeFlags>, for key: MadeKey) -> FeatureFlag?? {
            if slot.pointee.firstKey == key { return .some(slot.pointee.first) }
            if slot.pointee.secondKey == key { return .some(slot.pointee.second) }
            return slot.pointee.more.first { $0.key == key }.map(\.flag)
        }

        mutating func add(_ flag: FeatureFlag?, for key: MadeKey) {
            if firstKey == nil {
                (firstKey, first) = (key, flag)
            } else if secondKey == nil {
                (secondKey, second) = (key, flag)
            } else {
                more.append((key, flag))
            }
        }
    }

    init(
        flagSet: FlagSet, growthBook: GrowthBookPayload? = nil, banners: [BannerDefinition], cards: [CardDefinition],
        channels: [Channel: Bool], problems: [DefinitionsProblem] = [],
        fingerprints: FlagFingerprints = FlagFingerprints(),
        templates: DocumentTemplates = .none, flagTemplates: FlagTemplates = FlagTemplates(),
        featuresHoldTemplates: Bool = false
    ) {
        self.flagSet = flagSet
        setMetadata = FeatureFlag.SharedMetadata(flagSet.metadata)
        self.growthBook = growthBook
        self.banners = banners
        self.cards = cards
        self.channels = channels
        self.problems = problems
        self.fingerprints = fingerprints
        self.templates = templates
        self.flagTemplates = flagTemplates
        self.featuresHoldTemplates = featuresHoldTemplates
        templatedCardCount = cards.reduce(0) { $0 + ($1.personalised == nil ? 0 : 1) }
        templatedBannerCount = banners.reduce(0) { $0 + ($1.htmlTemplate == nil ? 0 : 1) }
        var placements: [String] = []
        var seen = Set<ExactString>()
        for banner in banners where seen.insert(ExactString(banner.placementId)).inserted {
            placements.append(banner.placementId)
        }
        self.placementIds = placements
    }

    /// Reads, checks and compiles a document. As flagd does, a document
    /// loads when it is JSON with a readable structure: a flag with a mistake
    /// resolves as flagd resolves it, a banner or card with one is left out,
    /// and each is listed in `problems`. `strict` refuses the document for
    /// any problem at all. A refusal lists every problem found.
    ///
    /// With `givesBackText`, the caller gives the text up: nothing reads it
    /// again, and a large document's pages are handed back to the system as
    /// its flags, banners and cards are compiled (see `DocumentText`), so that the
    /// peak of loading is not the whole text over what is compiled.
    public static func load(
        _ bytes: consuming [UInt8], strict: Bool = false, decryptionKey: String? = nil, givesBackText: Bool = false
    ) -> Result<Definitions, DefinitionsProblems> {
        var loader = DefinitionsLoader(
            consume bytes, strict: strict, decryptionKey: decryptionKey, givesBackText: givesBackText)
        return loader.load()
    }

    /// Starts compiling the built-in schema, and then reading its patterns,
    /// on a thread of its own, so that it is ready, or nearly, by the time
    /// the document has been parsed: a first load then waits for the longer
    /// of the two, not both. The server's compiler calls it as a full load
    /// begins; the thread is started once. (Not at the process's start: a
    /// document served from its note needs no schema before its first
    /// answers, and a thread compiling one beside them slowed the first
    /// answer by a third. Not in every load: tests and fuzz targets need not
    /// outlive a thread they did not ask for.)
    public static func prepareSchema() {
        guard !schemaPrepared.exchange(true, ordering: .relaxed) else { return }
        startThread(name: "bunting-schema") {
            if case .success(let schema) = DefinitionsSchema.compiled { schema.readPatterns() }
        }
    }

    private static let schemaPrepared = Atomic(false)

    /// The engine's compiler: a refusal becomes an INVALID_SERVER_DATA message.
    /// With `known`, a document noted there as loading before is served at
    /// once and loaded in the background (`DeferredDefinitions`), and one
    /// that loads is noted. With `beginsLoading` false, that load waits
    /// for `DeferredDefinitions.beginLoading()`, or for what needs it. With
    /// `preparesSchema`, a full load begins with `prepareSchema()` (the server's).
    /// With `servesUnseen`, a document without a note whose structure says
    /// it loads (`DocumentStructure`, lenient loads only) is served at once
    /// the same way, and noted once its full load is done: the server's
    /// first document, so that a start on a document never seen answers as
    /// soon as one seen before does.
    public static func compiler(
        strict: Bool, known: KnownDocuments? = nil, beginsLoading: Bool = true, preparesSchema: Bool = false,
        decryptionKey: String? = nil, servesUnseen: Bool = false
    ) -> DefinitionsCompiler {
        { bytes in
            let digest = known == nil ? "" : KnownDocuments.digest(of: bytes)
            if let known, let problems = known.problems(of: bytes, digest: digest, strict: strict),
                let deferred = DeferredDefinitions(
                    bytes: bytes, problems: problems, strict: strict, beginLoading: beginsLoading,
                    refused: { failure in
                        known.forget(bytes, digest: digest, strict: strict)
                        log.error(
                            "the definitions document noted in \(known.directory) as loading does not: "
                                + failure.problems.prefix(5).map(\.description).joined(separator: "; ")
                                + "; the note is removed, and no flags, banners "
                                + "or cards are served until the document changes"
                        )
                    })
            {
                log.debug(
                    "the definitions document \(digest.prefix(16)) loaded before (noted in \(known.directory)): "
                        + "serving it while it is checked and compiled")
                return .success(deferred)
            }
            if servesUnseen, !strict, bytes.count <= DocumentStructure.maxBytes,
                let outline = DocumentStructure.outlineIfSurelyLoads(bytes),
                let deferred = DeferredDefinitions(
                    bytes: bytes, problems: nil, strict: false, beginLoading: beginsLoading, outline: outline,
                    load: { bytes, strict in
                        let loaded = load(bytes, strict: strict, decryptionKey: decryptionKey)
                        if case .success(let definitions) = loaded {
                            known?.remember(bytes, digest: digest, strict: strict, problems: definitions.problems)
                        }
                        return loaded
                    },
                    refused: { failure in
                        log.error(
                            "the definitions document served while it was "
                                + "checked in full (its structure said it would load) "
                                + "does not load: "
                                + failure.problems.prefix(5).map(\.description).joined(separator: "; ")
                                + "; no flags, banners or cards are served until the document changes")
                    })
            {
                log.debug("the definitions document is new: serving it while it is checked and compiled")
                return .success(deferred)
            }
            if preparesSchema { prepareSchema() }
            let size = bytes.count
            // Nothing here reads the text again: the load may give it back as it goes.
            switch load(consume bytes, strict: strict, decryptionKey: decryptionKey, givesBackText: true) {
            case .success(let definitions):
                // A GrowthBook payload is not served from a note: its features are all it has.
                if definitions.growthBook == nil || !definitions.flagSet.flagKeys.isEmpty {
                    known?.remember(size: size, digest: digest, strict: strict, problems: definitions.problems)
                }
                return .success(definitions)
            case .failure(let failure):
                return .failure(DefinitionsError(problems: failure.problems.map(\.description)))
            }
        }
    }

    public static let compiler = compiler(strict: false)

    // MARK: - CompiledDefinitions

    public func isEnabled(_ channel: Channel) -> Bool {
        channels[channel] ?? true
    }

    /// The flags the channel lists: those that resolve (not disabled, not in
    /// error) to a boolean or to `{"enabled", "properties"}`; flags of other
    /// value types are for `evaluateFlag` only.
    ///
    /// A flag resolved to a variant is always the same `FeatureFlag` (its
    /// value and metadata are the document's), so each is made and encoded
    /// once and shared by every user whose flag resolves to that variant:
    /// a user change costs a lookup per flag, and their caches share the text.
    public func featureFlags(for subject: EvaluationSubject, at now: Double) -> [FeatureFlag] {
        var unrendered: [UnrenderedItem] = []
        return featureFlags(for: subject, at: now, unrendered: &unrendered)
    }

    /// As above; a flag whose variant's properties hold templates is made
    /// for the user (not memoized), and left out when one gives no text.
    public func featureFlags(for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem])
        -> [FeatureFlag]
    {
        var budget = WorkBudget.forRound(of: flagSet.flagKeys.count)
        let resolutions = flagSet.resolveAll(
            context: subject.context, timestamp: Int64(now.rounded(.down)), budget: &budget)
        if budget.isSpent { noteSpentBudget("flags") }
        // The listed flags whose variant holds templates: (index in `flags`, place).
        var templated: [(index: Int, place: Int)] = []
        let personalising = !flagTemplates.isEmpty
        var flags = madeFlags.withLock { made in
            if made.count < resolutions.count {
                made += Array(repeating: MadeFlags(), count: resolutions.count - made.count)
            }
            var flags: [FeatureFlag] = []
            flags.reserveCapacity(resolutions.count)
            // In place: reading a slot through the array's subscript copied it, retaining each of its flags.
            made.withUnsafeMutableBufferPointer { slots in
                for (place, resolution) in resolutions.enumerated() {
                    guard let position = resolution.variantPosition else {
                        if let flag = Self.featureFlag(resolution, setMetadata: setMetadata) { flags.append(flag) }
                        continue
                    }
                    let key = MadeKey(resolution, at: position)
                    let flag: FeatureFlag?
                    if let known = MadeFlags.made(in: slots.baseAddress! + place, for: key) {
                        flag = known
                    } else {
                        flag = Self.featureFlag(resolution, setMetadata: setMetadata)
                        slots[place].add(flag, for: key)
                    }
                    guard let flag else { continue }
                    if personalising, flagTemplates.variant(at: place, resolution) != nil {
                        templated.append((flags.count, place))
                    }
                    flags.append(flag)
                }
            }
            return flags
        }
        if !templated.isEmpty {
            personalise(&flags, templated, resolutions, for: subject, at: now, unrendered: &unrendered)
        }
        return flags
    }

    static func featureFlag(_ resolution: FlagResolution, setMetadata: FeatureFlag.SharedMetadata? = nil)
        -> FeatureFlag?
    {
        guard resolution.reason != .error, resolution.reason != .disabled else { return nil }
        let object = resolution.metadata
        let tracking = object["trackingString"]?.stringValue
        // A flag without metadata of its own carries the flag set's, the same storage: its text is shared.
        let metadata =
            if let setMetadata, object.sharesStorage(with: setMetadata.object) { setMetadata } else {
                object.isEmpty ? FeatureFlag.SharedMetadata.none : FeatureFlag.SharedMetadata(object)
            }
        if let text = resolution.objectText,
            let made = featureFlag(resolution.flagKey, variantText: text, tracking: tracking, metadata: metadata)
        {
            return made
        }
        switch resolution.value {
        case .bool(let enabled):
            return FeatureFlag(id: resolution.flagKey, enabled: enabled, trackingString: tracking, metadata: metadata)
        case .object(let object):
            guard let enabled = object["enabled"]?.boolValue else { return nil }
            return FeatureFlag(
                id: resolution.flagKey, enabled: enabled, properties: object["properties"]?.objectValue ?? [:],
                trackingString: object["trackingString"]?.stringValue ?? tracking, metadata: metadata)
        default:
            return nil
        }
    }

    /// The flag a variant's object value makes, read from the text it is
    /// kept as, its members found and not parsed, as the tree is read above:
    /// `enabled` a Boolean or no flag, `properties` an object (its text
    /// spliced in as the variant writes it) or none, `trackingString` a
    /// string or the metadata's. `.some(nil)`: no flag; nil: the text did
    /// not read as an object (it always does), for the tree to decide.
    private static func featureFlag(
        _ id: String, variantText text: VariantText, tracking: String?, metadata: FeatureFlag.SharedMetadata
    ) -> FeatureFlag?? {
        text.owner.withUnsafeBytes { bytes -> FeatureFlag?? in
            guard let members = JSONMemberSpans.members(of: bytes, in: text.range) else { return nil }
            // The first member of each name, as a tree's lookup finds it.
            func value(_ key: String) -> Range<Int>? { members.first { $0.key == key }?.value }
            let enabled: Bool
            switch value("enabled").map({ bytes[$0.lowerBound] }) {
            case UInt8(ascii: "t"): enabled = true
            case UInt8(ascii: "f"): enabled = false
            default: return .some(nil)
            }
            var trackingString = tracking
            if let written = value("trackingString"), bytes[written.lowerBound] == UInt8(ascii: "\"") {
                trackingString = JSONTokenScanner.decodedString(bytes, written) ?? tracking
            }
            guard let properties = value("properties"), bytes[properties.lowerBound] == UInt8(ascii: "{") else {
                return FeatureFlag(id: id, enabled: enabled, trackingString: trackingString, metadata: metadata)
            }
            return FeatureFlag(
                id: id, enabled: enabled, propertiesIn: text.owner, at: properties, trackingString: trackingString,
                metadata: metadata)
        }
    }

    /// For each placement, the eligible banner of highest priority (the
    /// earlier entry on a tie), or its control banner for a user in the
    /// control group; banners in `excluding` (dismissed) are passed over.
    public func banners(
        for subject: EvaluationSubject, at now: Double, excluding: Set<ExactString> = []
    ) -> [ExactString: Banner] {
        var unrendered: [UnrenderedItem] = []
        return banners(for: subject, at: now, excluding: excluding, unrendered: &unrendered)
    }

    /// As above; a banner whose html is a template is rendered for the user,
    /// and when it gives no text the placement goes to the next eligible
    /// banner, as if the first were not eligible.
    public func banners(
        for subject: EvaluationSubject, at now: Double, excluding: Set<ExactString>, unrendered: inout [UnrenderedItem]
    ) -> [ExactString: Banner] {
        let context = subject.context
        var budget = WorkBudget.forRound(of: banners.count)
        let winners = bannerWinners(context: context, at: now, excluding: excluding, budget: &budget)
        defer { if budget.isSpent { noteSpentBudget("banners") } }
        guard templatedBannerCount > 0 else { return winners.mapValues { $0.banner(for: subject) } }
        var excluded = excluding
        var renders: UserRenders?
        var shown: [ExactString: Banner] = [:]
        // Placements in a stable order, so that what is left out is listed alike every time.
        var pending = winners.sorted { $0.key.string > $1.key.string }
        while let (placement, banner) = pending.popLast() {
            guard let template = banner.htmlTemplate, !banner.isControl(for: subject) else {
                shown[placement] = banner.banner(for: subject)
                continue
            }
            if renders == nil { renders = UserRenders(templates, for: subject, at: now, items: templatedBannerCount) }
            switch renders!.text(template) {
            case .success(let html):
                shown[placement] = banner.banner(for: subject, html: html)
            case .failure(let fault):
                leaveOut(
                    UnrenderedItem(channel: .banners, id: banner.id, pointer: banner.pointer + "/html", fault: fault),
                    &unrendered)
                excluded.insert(ExactString(banner.id))
                let next = bannerWinners(
                    context: context, at: now, excluding: excluded, only: placement, budget: &budget)
                if let next = next[placement] { pending.append((placement, next)) }
            }
        }
        return shown
    }

    /// For each placement (or only `placement`), the eligible banner of highest priority.
    private func bannerWinners(
        context: JSON, at now: Double, excluding: Set<ExactString>, only placement: ExactString? = nil,
        budget: inout WorkBudget
    ) -> [ExactString: BannerDefinition] {
        var winners: [ExactString: BannerDefinition] = [:]
        for banner in banners where banner.isShown(at: now) && !excluding.contains(ExactString(banner.id)) {
            if let placement, !placement.string.sameBytes(as: banner.placementId) { continue }
            if let current = winners[ExactString(banner.placementId)], current.priority >= banner.priority { continue }
            guard banner.targeting.matches(banner.id, context: context, at: now, budget: &budget) else { continue }
            winners[ExactString(banner.placementId)] = banner
        }
        return winners
    }

    /// Leaves an item out for this user: said once in the log, listed for `status`.
    func leaveOut(_ item: UnrenderedItem, _ unrendered: inout [UnrenderedItem]) {
        templates.noteOnce(item)
        unrendered.append(item)
    }

    /// The cards whose schedule and targeting admit the user (control cards
    /// for those in a card's control group). Expiry is applied when read.
    public func contentCards(for subject: EvaluationSubject, at now: Double) -> [ContentCard] {
        var unrendered: [UnrenderedItem] = []
        return contentCards(for: subject, at: now, unrendered: &unrendered)
    }

    /// As above; a card whose fields hold templates is written for the user
    /// (the cards of a refresh into one table), and left out when one gives no text.
    public func contentCards(for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem])
        -> [ContentCard]
    {
        let context = subject.context
        // One pass, without an array of the matching definitions in between.
        var shown: [ContentCard] = []
        shown.reserveCapacity(cards.count)
        var budget = WorkBudget.forRound(of: cards.count)
        var renders: UserRenders?
        var personal = ContentCard.PersonalisedTable()
        /// Where each card written into `personal` goes among `shown`.
        var personalPlaces: [Int] = []
        for index in cards.indices
        where cards[index].targeting.matches(cards[index].id, context: context, at: now, budget: &budget) {
            // Read in place: a copy of the definition retains all it holds.
            guard let personalised = cards[index].personalised, !cards[index].isControl(for: subject) else {
                shown.append(cards[index].card(for: subject))
                continue
            }
            if renders == nil {
                renders = UserRenders(templates, for: subject, at: now, items: templatedCardCount)
                personal.reserveCapacity(cards: templatedCardCount, bytes: personalised.textSize)
            }
            switch personalised.make(like: cards[index].card, renders: &renders!, into: &personal) {
            case .placed:
                personalPlaces.append(shown.count)
                shown.append(cards[index].card)
            case .card(let card):
                shown.append(card)
            case .fault(let field, let fault):
                leaveOut(
                    UnrenderedItem(
                        channel: .contentCards, id: cards[index].id, pointer: personalised.pointer + field.pointer,
                        fault: fault),
                    &unrendered)
            }
        }
        if !personalPlaces.isEmpty {
            for (place, card) in zip(personalPlaces, personal.cards()) { shown[place] = card }
        }
        if budget.isSpent { noteSpentBudget("content cards") }
        return shown
    }

    public func evaluateFlag(_ flagKey: String, context: JSON, type: FlagType?, at now: Double) -> JSONObject {
        if let feature = featureAsFlag(flagKey, context: context, type: type) { return feature }
        let expecting = type.flatMap { FlagValueType(rawValue: $0.rawValue) }
        return Self.flagdResult(
            flagSet.resolve(
                flagKey: flagKey, context: context, timestamp: Int64(now.rounded(.down)), expecting: expecting))
    }

    public func encodedFlagResult(_ flagKey: String, context: JSON, type: FlagType?, at now: Double) -> EncodedJSON {
        if let feature = featureAsFlag(flagKey, context: context, type: type) { return EncodedJSON(.object(feature)) }
        let expecting = type.flatMap { FlagValueType(rawValue: $0.rawValue) }
        let resolution = flagSet.resolve(
            flagKey: flagKey, context: context, timestamp: Int64(now.rounded(.down)), expecting: expecting)
        return encodedResults.result(for: resolution, type: type) { EncodedJSON(.object(Self.flagdResult($0))) }
    }

    public func evaluateFlags(context: JSON, flagKeys: [String]?, at now: Double) -> JSONObject {
        let timestamp = Int64(now.rounded(.down))
        var flags = JSONObject()
        if let flagKeys {
            var budget = WorkBudget.forRound(of: flagKeys.count)
            for key in flagKeys {
                if let feature = featureAsFlag(key, context: context, type: nil) {
                    flags[key] = .object(feature)
                    continue
                }
                flags[key] = .object(
                    Self.flagdResult(
                        flagSet.resolve(flagKey: key, context: context, timestamp: timestamp, budget: &budget)))
            }
        } else {
            for resolution in flagSet.resolveAll(context: context, timestamp: timestamp) {
                flags[resolution.flagKey] = .object(Self.flagdResult(resolution))
            }
            // GrowthBook features answer as flags too (a key of both is the flag's).
            for key in growthBook?.featureKeys ?? [] where flags[key] == nil {
                flags[key] = featureAsFlag(key, context: context, type: nil).map(JSON.object)
            }
        }
        var result: JSONObject = ["flags": .object(flags)]
        if !flagSet.metadata.isEmpty { result["metadata"] = .object(flagSet.metadata) }
        return result
    }

    /// `{value, variant, reason, errorCode?, errorMessage?, metadata?}` as
    /// flagd reports a resolution; metadata is the flag's over the flag set's.
    static func flagdResult(_ resolution: FlagResolution) -> JSONObject {
        var result: JSONObject = [
            "value": resolution.value, "variant": resolution.variant.map(JSON.string) ?? .null,
            "reason": .string(resolution.reason.rawValue),
        ]
        if let code = resolution.errorCode { result["errorCode"] = .string(code.rawValue) }
        if let message = resolution.errorMessage, !message.isEmpty { result["errorMessage"] = .string(message) }
        let metadata = resolution.metadata
        if !metadata.isEmpty { result["metadata"] = .object(metadata) }
        return result
    }

    /// Says once per document that a round of evaluations spent its whole
    /// budget (see `WorkBudget`): the items left were counted as not matching.
    private func noteSpentBudget(_ items: String) {
        guard !budgetSpentNoted.exchange(true, ordering: .relaxed) else { return }
        log.warning(
            "evaluating the \(items) of the definitions for a user spent the work budget of the round; "
                + "the items left were left out (flags: ERROR/GENERAL); a rule costs far more than targeting rules do")
    }

    public func flagsChanged(since previous: any CompiledDefinitions) -> [String] {
        let previous = (previous as? Definitions) ?? (previous as? DeferredDefinitions)?.definitions
        return fingerprints.changedFlags(since: previous?.fingerprints)
    }
}
