import BuntingCore
import BuntingExperiments
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
    /// The document's text, held here alone (see `DocumentText`).
    private let text: DocumentText
    let strict: Bool
    /// Decrypts a GrowthBook payload's `encrypted…` sections (base64 of 16 bytes).
    let decryptionKey: String?
    private var problems: [DefinitionsProblem] = []
    /// The problems reported so far, by their exact text (a document may have thousands).
    private var reported = Set<ReportedProblem>()
    private var locator: JSONSourceLocator?
    /// Where each top-level member's value starts (when read in sections):
    /// the locator's way past text given back.
    private var memberStarts: [String: Int] = [:]
    /// Where the problems of flags, banners and cards were found while their
    /// batch's text was there, once text may be given back (by the place
    /// reported: pointer and template offset).
    private var located: [LocationKey: JSONSourceLocation] = [:]
    /// How many of `reportsHeldBack` were looked at as their batch finished.
    private var heldReportsSeen = 0
    /// The batch of flags being compiled, whose problems are located in its
    /// own text as they are reported, once text may be given back.
    private var compiling: (entries: SectionEntries, range: Range<Int>)?
    /// How many problems have been reported (to tell whether a batch had one).
    private var reportCount = 0
    /// The document's Liquid templates, parsed as their items are compiled.
    var templates = TemplateCompiler()
    /// The banners' properties, those written alike sharing one copy.
    private var bannerProperties = SharedCopies()
    /// While not nil, problems are held here instead of reported: what
    /// compiling banners and cards finds, said only if the document loads.
    private var reportsHeldBack: [HeldReport]?

    private struct HeldReport {
        let pointer: JSONPointer
        let message: String
        let templateOffset: Int?
    }

    private struct ReportedProblem: Hashable {
        let pointer: ExactString
        let message: ExactString
    }

    private struct LocationKey: Hashable {
        let pointer: ExactString
        let templateOffset: Int?
    }

    /// Documents from this size on are checked and compiled side by side:
    /// about where each takes longer than starting a thread (100 flags are 65 KB).
    static let sideBySideBytes = 16 << 10

    /// How many flags, banners or cards are parsed, checked and compiled
    /// together (see `SectionEntries`): what a batch keeps is made while its
    /// entries are near in memory, and the batch is freed in one block. Few,
    /// because a batch's parsed tree sits beside the whole document's text
    /// and everything compiled so far at the peak of loading, the figure
    /// that may be no more than 1.25 times the settled one: 128 instead of
    /// 512 took the peak `RssAnon` at 18,000 flags from 31.9 to 30.8 MB, and
    /// VmHWM at 18,000 cards from 32.8 to 32.3 MB, the loads' time unchanged
    /// (18,000 flags: 470 vs 467 ms, median of six).
    static let entriesDroppedTogether = 128

    /// From this size on, a document its caller gives up (`givesBackText`)
    /// has the text of its flags, banners and cards given back as they are
    /// compiled (see `DocumentText`): below it there is little to give.
    static let givesBackFromBytes = 1 << 20

    /// With `givesBackText`, the caller does not read `bytes` again, and
    /// from `givingBackFrom` bytes on their pages are given back as they
    /// are compiled.
    init(
        _ bytes: consuming [UInt8], strict: Bool, decryptionKey: String? = nil, givesBackText: Bool = false,
        givingBackFrom threshold: Int = givesBackFromBytes
    ) {
        let mayGiveBack = givesBackText && bytes.count >= threshold
        text = DocumentText(consume bytes, mayGiveBack: mayGiveBack)
        self.strict = strict
        self.decryptionKey = decryptionKey
    }

    /// How many bytes of the text were given back (for tests).
    var bytesGivenBack: Int { text.bytesGivenBack }
    /// Whether giving back had to copy a text that was shared after all (for tests).
    var copiedToGiveBack: Bool { text.copiedToGiveBack }

    /// The top-level members whose mistakes stay inside one item.
    private enum Section: String {
        case flags, evaluators = "$evaluators", banners, contentCards
    }

    mutating func load() -> Result<Definitions, DefinitionsProblems> {
        var sections: DocumentSections
        do {
            sections = try DocumentSections(text)
        } catch {
            return .failure(Self.parseFailure(error))
        }
        memberStarts = sections.memberStarts
        let schema: JSONSchema
        switch DefinitionsSchema.compiled {
        case .failure(let error):
            let problem = DefinitionsProblem(
                pointer: "", line: 0, column: 0, message: "the definitions schema itself is broken: \(error)")
            return .failure(DefinitionsProblems([problem]))
        case .success(let compiled):
            schema = compiled
        }

        if sections.notAnObject == nil, GrowthBookPayload.isPayload(topLevelKeys: sections.topLevelKeys) {
            return loadPayload(JSON.object(sections.rest))
        }
        if let document = sections.notAnObject {
            for violation in schema.validate(document) { report(violation.instanceLocation, violation.message) }
            if problems.isEmpty {
                report(JSONPointer.root, "the document must be a JSON object, not \(document.typeName)")
            }
            return .failure(DefinitionsProblems(sorted(problems)))
        }
        // One large section at a time: the flags (with what they share) are
        // checked and compiled, and their parsed tree is freed, before the
        // banners and cards are parsed and checked, a batch of entries at a
        // time. The schema's root is `properties` and `additionalProperties:
        // false` and nothing else, and the item sections' schemas are their
        // type and `items`, so checking the sections apart, and their entries
        // apart, finds what checking the whole document finds (past
        // `defaultViolationLimit` violations, possibly another selection).
        let hashing = FractionalHashing(rawValue: sections.rest["fractionalHashing"]?.stringValue ?? "") ?? .default
        var violations: [JSONSchemaViolation]
        let compiledFlags: Result<FlagSet, RuleCompileError>
        let fingerprints: FlagFingerprints
        let flagTemplates: [String: [String: VariantTemplates]]
        let compiledBanners: [BannerDefinition]
        let compiledCards: [CardDefinition]
        // Content blocks first: each item's template is checked against them.
        compileContentBlocks(sections.rest["contentBlocks"])
        // Banners and cards written with the same targeting share its compiled parts.
        let rules = SharedRuleParts(evaluators: RuleEvaluators(sections.rest["$evaluators"]?.objectValue ?? [:]))
        do {
            (violations, compiledFlags, fingerprints, flagTemplates) = try checkAndCompileFlags(
                sections.takeMembers("flags"), rest: sections.rest, schema: schema, hashing: hashing)
            // Each banner and card is checked and compiled as it is parsed
            // (see `SectionEntries`), before the document is known to load:
            // what compiling them finds is said only if it does.
            reportsHeldBack = []
            compiledBanners = try checkAndCompileBanners(
                sections.takeEntries("banners"), violations: &violations, schema: schema, rules: rules,
                hashing: hashing)
            compiledCards = try checkAndCompileCards(
                sections.takeEntries("contentCards"), violations: &violations, schema: schema, rules: rules,
                hashing: hashing)
        } catch {
            return .failure(Self.parseFailure(error))
        }
        let itemReports = reportsHeldBack ?? []
        reportsHeldBack = nil

        // Which items the schema finds wrong (left out as they were
        // compiled); a mistake anywhere else (the document's own structure)
        // refuses it.
        var structural = false
        for violation in violations {
            report(violation.instanceLocation, violation.message)
            let tokens = violation.instanceLocation.tokens
            switch tokens.first.flatMap(Section.init(rawValue:)) {
            // (Each pattern takes its own `where`: `/flags` itself is structure.)
            case .flags? where tokens.count >= 2, .evaluators? where tokens.count >= 2,
                .banners? where tokens.count >= 2, .contentCards? where tokens.count >= 2:
                break // the item's own mistake
            default:
                structural = true
            }
        }
        // A strict load goes on past the schema's problems, so that it lists
        // every problem the lenient load lists (a flag's bad default variant
        // among them), and refuses at the end.
        guard !structural else { return .failure(DefinitionsProblems(sorted(problems))) }

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
        let named = Set(problems.map { ExactString($0.pointer) })
        for problem in flagSet.problems where !named.contains(ExactString(problem.pointer)) {
            report(problem.pointer, problem.message)
        }
        for held in itemReports { report(held.pointer, held.message, templateOffset: held.templateOffset) }
        let features = compileFeatures(sections.rest, flagSet: flagSet)
        let featureTemplates = compileFeatureTemplates(sections.rest["features"])
        if strict && !problems.isEmpty { return .failure(DefinitionsProblems(sorted(problems))) }
        return .success(
            Definitions(
                flagSet: flagSet, growthBook: features, banners: compiledBanners, cards: compiledCards,
                channels: Self.channels(sections.rest["channels"]), problems: sorted(problems),
                fingerprints: fingerprints,
                templates: templates.finish(), flagTemplates: FlagTemplates(flagTemplates, flagKeys: flagSet.flagKeys),
                featuresHoldTemplates: featureTemplates))
    }

    // MARK: - GrowthBook

    /// A GrowthBook SDK payload as it is served: its features become the
    /// featureFlags channel's (banners and cards have none); a mistake inside
    /// one feature costs that feature only, one that makes the payload
    /// unreadable (or undecryptable) refuses it.
    private mutating func loadPayload(_ document: JSON) -> Result<Definitions, DefinitionsProblems> {
        let payload: GrowthBookPayload
        do throws(PayloadProblem) {
            payload = try GrowthBookPayload(document: document, decryptionKey: decryptionKey)
        } catch {
            report(error.pointer, error.message)
            return .failure(DefinitionsProblems(sorted(problems)))
        }
        for problem in payload.problems { report(problem.pointer, problem.message) }
        // An encrypted section that could not be read (no key, a wrong one,
        // a broken text) is not there: serving without it would answer every
        // feature from nothing, so the document is refused and the previous
        // one goes on serving. (The JavaScript SDK logs and carries on.)
        let unreadable = payload.problems.contains {
            $0.pointer.tokens.count == 1 && $0.pointer.tokens[0].hasPrefix("encrypted")
        }
        // An encrypted payload's values are seen only when rendered.
        let featureTemplates = compileFeatureTemplates(document["features"]) || document["features"] == nil
        if unreadable || (strict && !problems.isEmpty) { return .failure(DefinitionsProblems(sorted(problems))) }
        return .success(
            Definitions(
                flagSet: FlagSet.none, growthBook: payload, banners: [], cards: [], channels: Self.channels(nil),
                problems: sorted(problems),
                templates: templates.finish(), featuresHoldTemplates: featureTemplates))
    }

    /// The `features` section of Bunting's own document, with its saved
    /// groups and bandits; a key that is also a flag's is a problem, and the
    /// flag is the one used.
    private mutating func compileFeatures(_ rest: JSONObject, flagSet: FlagSet) -> GrowthBookPayload? {
        guard let features = rest["features"] else { return nil }
        let payload = GrowthBookPayload(
            features: features, savedGroups: rest["savedGroups"], contextualBandits: rest["contextualBandits"])
        for problem in payload.problems { report(problem.pointer, problem.message) }
        for key in payload.featureKeys where flagSet.hasFlag(key) {
            report(
                JSONPointer(tokens: ["features", key]),
                "a flag has this key too (/flags/\(key)); the flag is the one used")
        }
        return payload
    }

    private static func parseFailure(_ error: JSONParseError) -> DefinitionsProblems {
        DefinitionsProblems([
            DefinitionsProblem(pointer: "", line: error.line, column: error.column, message: error.message)
        ])
    }

    /// What the schema finds wrong in one large section (the document as if it held only that).
    private static func check(_ name: String, _ section: JSON?, schema: JSONSchema, found: Int) -> [JSONSchemaViolation]
    {
        guard let section, found < JSONSchema.defaultViolationLimit else { return [] }
        return schema.validate(.object([name: section]), limit: JSONSchema.defaultViolationLimit - found)
    }

    /// Checks entry `index` of an array section as the schema checks it in
    /// place (as the one entry of its section, the violations' locations
    /// then given its index: the section's schema is `type: array` and
    /// `items`, so the entries are checked apart), adding what it finds to
    /// `violations`. False when it found something: the entry is left out.
    private static func checkEntry(
        _ name: String, _ entry: JSON, at index: Int, schema: JSONSchema, violations: inout [JSONSchemaViolation]
    ) -> Bool {
        let found = check(name, .array([entry]), schema: schema, found: violations.count)
        guard !found.isEmpty else { return true }
        let position = String(index)
        for violation in found {
            var tokens = violation.instanceLocation.tokens
            if tokens.count >= 2 { tokens[1] = position }
            violations.append(
                JSONSchemaViolation(
                    instanceLocation: JSONPointer(tokens: tokens), keywordLocation: violation.keywordLocation,
                    message: violation.message))
        }
        return false
    }

    /// The schema's check of the flags and what they share (every member
    /// but the banners and cards), the flag set's compilation, the flags'
    /// fingerprints and their variants' templates. An object `flags` is
    /// taken a batch of members at a time (`entriesDroppedTogether`): each
    /// batch is checked as the document's only flags (the section's schema
    /// is `type`, `propertyNames` and `additionalProperties`, so its members
    /// are checked apart; the first batch with the document's other
    /// members) while it is compiled, side by side on a large document, and
    /// freed. At 20,000 flags the whole parsed section was most of the peak
    /// of loading. The flag set is compiled even when the check then
    /// refuses the document.
    private mutating func checkAndCompileFlags(
        _ section: LargeSection?, rest: JSONObject, schema: JSONSchema, hashing: FractionalHashing
    ) throws(JSONParseError) -> (
        violations: [JSONSchemaViolation], flagSet: Result<FlagSet, RuleCompileError>,
        fingerprints: FlagFingerprints, templates: [String: [String: VariantTemplates]]
    ) {
        var checked = rest
        var members: SectionEntries?
        switch section {
        case .entries(let entries)?:
            // Flags are an object: its members come in batches, after what they share.
            members = entries
            checked["flags"] = .object([:])
        case .other(let value)?:
            checked["flags"] = value
        case nil:
            break
        }
        var document = checked
        // A document may hold only banners or cards; flagd's format wants `flags`.
        if document["flags"] == nil { document["flags"] = .object([:]) }
        var builder: FlagSet.Builder?
        var failure: RuleCompileError?
        do {
            builder = try FlagSet.Builder(document: .object(document), fractionalHashing: hashing)
        } catch {
            failure = error
        }
        var fingerprints = FlagFingerprints(document: .object(document), hashing: hashing.rawValue)
        var templates = compileFlagTemplates(document["flags"])

        var violations: [JSONSchemaViolation] = []
        let count = members?.count ?? 0
        // Sized once: grown by doubling, the list took up to twice its size for as long as the document is current.
        fingerprints.reserveCapacity(count)
        var first = 0
        repeat {
            var batch: [(key: String, definition: JSON)] = []
            if let members, let keys = members.keys, first < count {
                let range = first..<min(count, first + Self.entriesDroppedTogether)
                batch = Array(zip(keys[range], try members.batch(range)))
                let flags = JSON.object(JSONObject(batch.map { ($0.key, $0.definition) }))
                if first == 0 {
                    checked["flags"] = flags
                } else {
                    checked = ["flags": flags]
                }
            }
            let whole = JSON.object(checked)
            let limit = JSONSchema.defaultViolationLimit - violations.count
            func compileBatch() {
                for flag in batch {
                    compileFlagTemplates(key: flag.key, flag.definition, into: &templates)
                    builder?.add(key: flag.key, definition: flag.definition)
                    fingerprints.add(key: flag.key, definition: flag.definition)
                }
            }
            let found: [JSONSchemaViolation]
            let reportsBefore = reportCount
            let problemsBefore = builder?.problems.count ?? 0
            let batchRange = first..<min(count, first + Self.entriesDroppedTogether)
            if let members, first < count { compiling = (members, batchRange) }
            if text.count >= Self.sideBySideBytes {
                (found, _) = sideBySide({ limit > 0 ? schema.validate(whole, limit: limit) : [] }, compileBatch)
            } else {
                found = limit > 0 ? schema.validate(whole, limit: limit) : []
                compileBatch()
            }
            compiling = nil
            violations += found
            if let members, first < count {
                let problems = builder.map { $0.problems[min(problemsBefore, $0.problems.count)...] } ?? []
                let clean = found.isEmpty && problems.isEmpty && reportCount == reportsBefore
                if text.mayGiveBack && !clean {
                    for violation in found {
                        locateNow(violation.instanceLocation, templateOffset: nil, in: members, batch: batchRange)
                    }
                    for problem in problems {
                        let pointer = (try? JSONPointer(parsing: problem.pointer)) ?? .root
                        locateNow(pointer, templateOffset: nil, in: members, batch: batchRange)
                    }
                }
                // A locator made before holds the text too: giving back would copy it.
                if text.mayGiveBack && clean { locator = nil }
                members.finished(batchRange, givingBack: text.mayGiveBack && clean)
            }
            first += Self.entriesDroppedTogether
        } while first < count
        let flagSet = builder.map { Result.success($0.finish()) } ?? .failure(failure!)
        return (violations, flagSet, fingerprints, templates)
    }

    // MARK: - Sections

    /// The banners section, checked and compiled a batch of entries at a
    /// time; an entry the schema finds wrong is left out.
    private mutating func checkAndCompileBanners(
        _ section: LargeSection?, violations: inout [JSONSchemaViolation], schema: JSONSchema,
        rules: SharedRuleParts, hashing: FractionalHashing
    ) throws(JSONParseError) -> [BannerDefinition] {
        var seen: Set<ExactString> = []
        var banners: [BannerDefinition] = []
        if case .entries(let entries)? = section { banners.reserveCapacity(entries.count) }
        try forEachCheckedBatch("banners", section, violations: &violations, schema: schema) { loader, batch in
            for (index, entry) in batch {
                loader.compileBanner(entry, at: index, seen: &seen, into: &banners, rules: rules, hashing: hashing)
            }
        }
        return banners
    }

    /// An item section's entries a batch at a time (`entriesDroppedTogether`),
    /// each with its index, those the schema finds wrong left out (their
    /// violations added to `violations`); a section that is not an array is
    /// checked whole and has no entries.
    private mutating func forEachCheckedBatch(
        _ name: String, _ section: LargeSection?, violations: inout [JSONSchemaViolation], schema: JSONSchema,
        _ body: (inout Self, [(index: Int, entry: JSON)]) -> Void
    ) throws(JSONParseError) {
        guard case .entries(let entries)? = section else {
            if case .other(let value)? = section {
                violations += Self.check(name, value, schema: schema, found: violations.count)
            }
            return
        }
        for first in stride(from: 0, to: entries.count, by: Self.entriesDroppedTogether) {
            let range = first..<min(entries.count, first + Self.entriesDroppedTogether)
            let found = violations.count
            let batch = try entries.batch(range)
            var checked: [(index: Int, entry: JSON)] = []
            checked.reserveCapacity(batch.count)
            for (offset, entry) in batch.enumerated()
            where Self.checkEntry(name, entry, at: first + offset, schema: schema, violations: &violations) {
                checked.append((first + offset, entry))
            }
            body(&self, checked)
            finishBatch(range, of: entries, violations: violations[found...])
        }
    }

    /// A batch of banners or cards compiled (the flags' are done in
    /// `checkAndCompileFlags` alike): when the text may be given
    /// back, the batch's is if nothing in it had a problem, and otherwise
    /// each of its problems is located now, while its text is there (see
    /// `DocumentText`): later, text before it may be gone.
    private mutating func finishBatch(
        _ range: Range<Int>, of entries: SectionEntries, violations: ArraySlice<JSONSchemaViolation>
    ) {
        let held = reportsHeldBack.map { $0[min(heldReportsSeen, $0.count)...] } ?? []
        heldReportsSeen = reportsHeldBack?.count ?? 0
        guard text.mayGiveBack else {
            entries.finished(range, givingBack: false)
            return
        }
        guard violations.isEmpty && held.isEmpty else {
            for violation in violations {
                locateNow(violation.instanceLocation, templateOffset: nil, in: entries, batch: range)
            }
            for report in held {
                locateNow(report.pointer, templateOffset: report.templateOffset, in: entries, batch: range)
            }
            entries.finished(range, givingBack: false)
            return
        }
        // A locator made before holds the text too: giving back would copy it.
        locator = nil
        entries.finished(range, givingBack: true)
    }

    /// Locates a problem of an entry of `batch` of `entries` in that entry's
    /// own text (nil when it is not in one): an element by its index, a
    /// member by its key.
    @discardableResult
    private mutating func locateNow(
        _ pointer: JSONPointer, templateOffset: Int?, in entries: SectionEntries, batch: Range<Int>
    ) -> JSONSourceLocation? {
        let tokens = pointer.tokens
        guard tokens.count >= 2, let section = entries.section, tokens[0].utf8.elementsEqual(section.utf8) else {
            return nil
        }
        // A key by its bytes: two keys may be the same text written apart (café, composed or not).
        let found =
            if let keys = entries.keys { keys[batch].firstIndex { $0.utf8.elementsEqual(tokens[1].utf8) } } else {
                JSONPointer.arrayIndex(tokens[1]).flatMap { batch.contains($0) ? $0 : nil }
            }
        guard let index = found, let span = entries.span(of: index) else { return nil }
        let entry = text.withUnsafeBytes { Array(UnsafeRawBufferPointer(rebasing: $0[span])) }
        guard let inside = JSONSourceLocator(entry).offset(of: JSONPointer(tokens: Array(tokens.dropFirst(2))))
        else { return nil }
        var offset = span.lowerBound + inside
        if let templateOffset,
            let inDocument = TemplatePlace.documentOffset(
                in: text.bytes, literalStart: offset, decodedOffset: templateOffset)
        {
            offset = inDocument
        }
        let location = text.location(ofOffset: offset)
        located[LocationKey(pointer: ExactString(pointer.description), templateOffset: templateOffset)] = location
        return location
    }

    /// One banner, unless its id is used by an earlier one or its
    /// targeting or template does not compile.
    private mutating func compileBanner(
        _ entry: JSON, at index: Int, seen: inout Set<ExactString>, into banners: inout [BannerDefinition],
        rules: SharedRuleParts, hashing: FractionalHashing
    ) {
        let pointer = "/banners/\(index)"
        guard let id = entry["id"]?.stringValue, let placementId = entry["placementId"]?.stringValue else { return }
        guard seen.insert(ExactString(id)).inserted else {
            report(pointer + "/id", "banner id \(id.debugDescription) is used twice; this one is left out")
            return
        }
        var leftOut = false
        let htmlTemplate = compileBannerTemplate(entry, at: pointer, leftOut: &leftOut)
        guard let targeting = compileTargeting(entry, at: pointer, rules: rules, hashing: hashing), !leftOut else {
            return
        }
        // What is kept of the entry is copied (see `JSON.detached`): held
        // from the parsed document, each banner's text and properties
        // kept the pages of its entry from being given back once the
        // document is freed (at 18,000 banners, most of the document).
        banners.append(
            BannerDefinition(
                id: JSON.detached(id), placementId: JSON.detached(placementId),
                html: JSON.detached(entry["html"]?.stringValue ?? ""), htmlTemplate: htmlTemplate, pointer: pointer,
                priority: entry["priority"]?.integerValue ?? 0,
                properties: entry["properties"].map { bannerProperties.copy(of: $0) }?.objectValue ?? [:],
                isTestSend: entry["isTestSend"]?.boolValue ?? false,
                trackingId: entry["trackingId"]?.stringValue.map(JSON.detached),
                expiresAt: entry["expiresAt"]?.doubleValue, targeting: targeting))
    }

    /// The content cards section, checked and compiled a batch of entries
    /// at a time (an entry the schema finds wrong is left out). The cards
    /// are made straight into the one table they share (`TableBuilder`),
    /// and within each batch every card is made before any card's targeting
    /// is compiled: made one between two targetings that are kept, each
    /// card's parts left holes among them that the trim cannot give back (at
    /// 18,000 cards, 9 MB in holes of 737 bytes, `malloc_info`).
    private mutating func checkAndCompileCards(
        _ section: LargeSection?, violations: inout [JSONSchemaViolation], schema: JSONSchema,
        rules: SharedRuleParts, hashing: FractionalHashing
    ) throws(JSONParseError) -> [CardDefinition] {
        // Every card made goes into the one table the kept ones share. Room
        // for every entry is made at once: grown by doubling, these arrays
        // held up to twice their size at the peak of loading. A card's text
        // in the table is mostly shorter than its entry (no targeting,
        // schedule or control share), so the entries' bytes are the text's room.
        let entries: SectionEntries? = if case .entries(let entries)? = section { entries } else { nil }
        let count = entries?.count ?? 0
        var table = ContentCard.TableBuilder(reservingCapacity: count, textBytes: entries?.textBytes ?? 0)
        var seen = DistinctIds(expecting: count)
        var kept: [Int] = []
        // Made as the cards are compiled, each with its card once the table is listed.
        var definitions: [CardDefinition] = []
        var extras = SharedCopies()
        kept.reserveCapacity(count)
        definitions.reserveCapacity(count)
        try forEachCheckedBatch("contentCards", section, violations: &violations, schema: schema) { loader, batch in
            var made: [(entry: JSON, index: Int, card: Int, personalised: PersonalisedCard?, leftOut: Bool)] = []
            for (index, entry) in batch {
                let pointer = "/contentCards/\(index)"
                // A card with templates is made with marks where each user's text goes (see `PersonalisedCard`).
                var leftOut = false
                let templated = loader.compileCardTemplates(entry, at: pointer, leftOut: &leftOut)
                guard
                    let card = templated.map({ table.add($0.card) }) ?? Self.addCard(entry, to: &table, extras: &extras)
                else {
                    continue
                }
                let id = table.id(of: card)
                guard seen.insert(id, number: card, idOf: table.id(of:)) else {
                    loader.report(
                        pointer + "/id", "content card id \(id.debugDescription) is used twice; this one is left out")
                    continue
                }
                made.append((entry, index, card, templated?.personalised, leftOut))
            }
            for card in made {
                let pointer = "/contentCards/\(card.index)"
                guard
                    let targeting = loader.compileTargeting(card.entry, at: pointer, rules: rules, hashing: hashing),
                    !card.leftOut
                else { continue }
                kept.append(card.card)
                definitions.append(
                    CardDefinition(card: Self.cardNotListedYet, targeting: targeting, personalised: card.personalised))
            }
        }
        // What only the batches needed is let go before the table is listed,
        // the last peak of loading.
        seen = DistinctIds(expecting: 0)
        let shared = (consume table).cards(keeping: kept)
        for index in definitions.indices { definitions[index].card = shared[index] }
        return definitions
    }

    /// What a card definition holds until the table is listed (the
    /// definitions are made as their cards are compiled, rather than in an
    /// array beside the targetings and cards at the last peak of loading).
    private static let cardNotListedYet = ContentCard(
        id: "", type: .classic, extras: [:], created: 0, updated: nil, expiresAt: nil, pinned: false,
        dismissible: false)

    /// The card an entry defines. Of its fields a card keeps the id and the
    /// extras as values (the rest only as its text), so only those are copied
    /// (see `JSON.detached`): the card outlives the parsed document. Extras
    /// written alike share one copy until the table makes its own.
    private static func addCard(
        _ entry: JSON, to table: inout ContentCard.TableBuilder, extras: inout SharedCopies
    ) -> Int? {
        guard case .object(var fields) = entry else { return nil }
        if let id = fields["id"] { fields["id"] = id.detached() }
        if let value = fields["extras"] { fields["extras"] = extras.copy(of: value) }
        return table.add(json: .object(fields))
    }

    private mutating func compileTargeting(
        _ entry: JSON, at pointer: String, rules: SharedRuleParts, hashing: FractionalHashing
    ) -> Targeting? {
        var rule: JSONLogicRule?
        if let targeting = entry["targeting"] {
            do {
                rule = try JSONLogicRule(
                    targeting, sharing: rules, pointerPrefix: pointer + "/targeting", fractionalHashing: hashing)
            } catch {
                report(error.pointer, error.message)
                return nil
            }
        }
        return Targeting(
            rule: rule, schedule: Schedule(entry["schedule"]), controlShare: entry["controlShare"]?.doubleValue ?? 0)
    }

    /// A channel is on unless `channels` turns it off, as `false` or `{"enabled": false}`.
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

    /// Reports a problem at `pointer`; with `templateOffset`, at that byte
    /// of the template the pointer names (a string value), in the document's text.
    mutating func report(_ pointer: JSONPointer, _ message: String, templateOffset: Int? = nil) {
        reportCount += 1
        if reportsHeldBack != nil {
            reportsHeldBack?.append(HeldReport(pointer: pointer, message: message, templateOffset: templateOffset))
            return
        }
        var location: JSONSourceLocation?
        if let known = located[LocationKey(pointer: ExactString(pointer.description), templateOffset: templateOffset)] {
            location = known
        } else if text.mayGiveBack, let batch = compiling,
            let found = locateNow(pointer, templateOffset: templateOffset, in: batch.entries, batch: batch.range)
        {
            // A flag's, as its batch is compiled: in its own text (later, text before it may be gone).
            location = found
        } else if text.hasGivenBack {
            // Past text given back, the way to the place goes by the
            // member it is in, and its line and column are counted from
            // what was counted before that text went (see `DocumentText`).
            if locator == nil { locator = JSONSourceLocator(text.bytes, rootMembers: memberStarts) }
            if var offset = locator?.offset(of: pointer) {
                if let templateOffset,
                    let inDocument = TemplatePlace.documentOffset(
                        in: text.bytes, literalStart: offset, decodedOffset: templateOffset)
                {
                    offset = inDocument
                }
                location = text.location(ofOffset: offset)
            }
        } else {
            if locator == nil { locator = JSONSourceLocator(text.bytes) }
            location = locator?.location(of: pointer)
            if let templateOffset, let start = location?.offset,
                let offset = TemplatePlace.documentOffset(
                    in: text.bytes, literalStart: start, decodedOffset: templateOffset)
            {
                location = locator?.location(ofOffset: offset)
            }
        }
        let problem = DefinitionsProblem(
            pointer: pointer.description, line: location?.line ?? 0, column: location?.column ?? 0, message: message)
        if reported.insert(ReportedProblem(pointer: ExactString(problem.pointer), message: ExactString(message)))
            .inserted
        {
            problems.append(problem)
        }
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
