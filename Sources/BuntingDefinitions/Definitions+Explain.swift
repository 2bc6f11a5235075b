import BuntingCore
import BuntingJSON
import BuntingRules

/// Why the document decides what it decides for one user: each flag's
/// resolution, and each banner and card in or out (targeting, schedule,
/// expiry, control group, a higher-priority banner, a dismissal, a problem
/// that left the entry out when the document loaded).
extension Definitions: ExplainingDefinitions {
    public func explainFlag(_ flagKey: String, context: JSON, at now: Double) -> JSONObject {
        if featureAsFlag(flagKey, context: context, type: nil) != nil {
            return featureExplanation(flagKey, context: context, at: now)
        }
        let resolution = flagSet.resolve(flagKey: flagKey, context: context, timestamp: Int64(now.rounded(.down)))
        return Self.flagExplanation(resolution, flagKey: flagKey)
    }

    public func explainChannel(
        _ channel: Channel, for subject: EvaluationSubject, at now: Double, dismissed: Set<ExactString>
    ) -> [JSONObject] {
        switch channel {
        case .featureFlags: explainFlags(for: subject, at: now)
        case .banners: explainBanners(for: subject, at: now, dismissed: dismissed)
        case .contentCards: explainCards(for: subject, at: now, dismissed: dismissed)
        }
    }

    // MARK: - Flags

    /// `{why, rule?, listed}` of one resolution.
    static func flagExplanation(_ resolution: FlagResolution, flagKey: String) -> JSONObject {
        let rule = JSONPointer(tokens: ["flags", flagKey, "targeting"]).description
        let variant = resolution.variant.map { $0.debugDescription } ?? "none"
        var explanation = JSONObject()
        var why: String
        switch resolution.reason {
        case .static: why = "no targeting: the default variant \(variant)"
        case .targetingMatch:
            why = "the targeting chose variant \(variant)"
            explanation["rule"] = .string(rule)
        case .default:
            why = "the targeting gave null: the default variant \(variant)"
            explanation["rule"] = .string(rule)
        case .disabled: why = "the flag's state is DISABLED: no variant"
        case .error:
            why = [resolution.errorCode?.rawValue, resolution.errorMessage].compactMap { $0 }.joined(separator: ": ")
        }
        let listed = Self.featureFlag(resolution) != nil
        if !listed, resolution.reason != .error, resolution.reason != .disabled {
            why +=
                "; not in the featureFlags channel: its value is "
                + "\(resolution.value.typeName), not a boolean or {enabled, properties}"
        }
        explanation["why"] = .string(why)
        explanation["listed"] = .bool(listed)
        return explanation
    }

    private func featureExplanation(_ key: String, context: JSON, at now: Double) -> JSONObject {
        var attributes = context.objectValue ?? JSONObject()
        if attributes["id"] == nil, let targetingKey = attributes["targetingKey"] { attributes["id"] = targetingKey }
        attributes["targetingKey"] = nil
        let evaluation = evaluateFeatures(
            attributes: attributes, keys: [key], sticky: nil, listing: true, tracking: false, at: now)
        var explanation = Explanation.feature(evaluation.results.first?.result.value ?? .null)
        explanation["listed"] = .bool(!evaluation.flags.isEmpty)
        return explanation
    }

    /// Each flag (then each GrowthBook feature listed as one) with its
    /// resolution and whether the channel lists it.
    private func explainFlags(for subject: EvaluationSubject, at now: Double) -> [JSONObject] {
        var entries = resolvedFlags(for: subject, at: now)
        markUnrenderedFlags(&entries, for: subject, at: now)
        return entries
    }

    /// Each flag as resolved for the user, with whether the channel lists its value.
    private func resolvedFlags(for subject: EvaluationSubject, at now: Double) -> [JSONObject] {
        var entries: [JSONObject] = []
        for resolution in flagSet.resolveAll(context: subject.context, timestamp: Int64(now.rounded(.down))) {
            var entry: JSONObject = [
                "id": .string(resolution.flagKey), "variant": resolution.variant.map(JSON.string) ?? .null,
                "reason": .string(resolution.reason.rawValue),
            ]
            let explanation = Self.flagExplanation(resolution, flagKey: resolution.flagKey)
            if let rule = explanation["rule"] { entry["rule"] = rule }
            entry["in"] = explanation["listed"]
            entry["outcome"] = .string(resolution.reason.rawValue)
            entry["why"] = explanation["why"]
            entries.append(entry)
        }
        if growthBook != nil {
            var attributes = subject.attributes
            if attributes["id"] == nil { attributes["id"] = .string(subject.targetingKey) }
            let evaluation = evaluateFeatures(
                attributes: attributes, keys: nil, sticky: nil, listing: true, tracking: false, at: now)
            let listed = Set(evaluation.flags.map { ExactString($0.id) })
            for (key, result) in evaluation.results {
                let explanation = Explanation.feature(result.value)
                var entry: JSONObject = ["id": .string(key), "in": .bool(listed.contains(ExactString(key)))]
                entry["outcome"] = explanation["source"]
                entry["why"] = explanation["why"]
                if let rule = explanation["rule"] { entry["rule"] = rule }
                entries.append(entry)
            }
        }
        return entries
    }

    // MARK: - Banners and cards

    private func explainBanners(for subject: EvaluationSubject, at now: Double, dismissed: Set<ExactString>)
        -> [JSONObject]
    {
        let context = subject.context
        var budget = WorkBudget.forRound(of: banners.count)
        // What the refresh itself shows: a banner whose template gives no
        // text gives its placement to the next one.
        var unrendered: [UnrenderedItem] = []
        let shown =
            templatedBannerCount > 0
            ? banners(for: subject, at: now, excluding: dismissed, unrendered: &unrendered) : nil
        let notRendered = Self.byID(unrendered)
        var decisions: [(banner: BannerDefinition, outcome: Explanation.Outcome, why: String)] = []
        // The eligible banner of highest priority, the earlier on a tie, fills its placement (as `banners(for:)`).
        var winners: [ExactString: BannerDefinition] = [:]
        for banner in banners {
            if dismissed.contains(ExactString(banner.id)) {
                decisions.append((banner, .dismissed, "the user dismissed it"))
            } else if !banner.isShown(at: now) {
                decisions.append((banner, .expired, "it expired at \(Explanation.time(banner.expiresAt ?? now))"))
            } else {
                let decision = banner.targeting.decision(banner.id, context: context, at: now, budget: &budget)
                let (outcome, why) = Targeting.explain(decision)
                decisions.append((banner, outcome, why))
                let placement = ExactString(banner.placementId)
                if decision == .matches,
                    (winners[placement]?.priority ?? .min) < banner.priority || winners[placement] == nil
                {
                    winners[placement] = banner
                }
            }
        }
        if let shown {
            winners = shown.compactMapValues { shownBanner in banners.first { $0.id == shownBanner.id } }
        }
        var entries = decisions.map { banner, outcome, why -> JSONObject in
            let more: JSONObject = ["placementId": .string(banner.placementId)]
            guard outcome == .shown else { return Explanation.item(id: banner.id, outcome, why, more: more) }
            if let item = notRendered[banner.id] {
                return Explanation.item(id: banner.id, .notRendered, Self.notRenderedWhy(item), more: more)
            }
            guard let winner = winners[ExactString(banner.placementId)], winner.id == banner.id else {
                let winner = winners[ExactString(banner.placementId)]
                return Explanation.item(
                    id: banner.id, .outranked,
                    "banner \((winner?.id ?? "?").debugDescription) (priority \(winner?.priority ?? 0)) "
                        + "fills placement \(banner.placementId.debugDescription); "
                        + "this one has priority \(banner.priority)", more: more)
            }
            if banner.targeting.isControl(banner.id, targetingKey: subject.targetingKey) {
                return Explanation.item(
                    id: banner.id, .control,
                    banner.targeting.controlWhy + ": a control banner fills the placement", more: more)
            }
            return Explanation.item(
                id: banner.id, .shown,
                "it fills placement \(banner.placementId.debugDescription) (priority \(banner.priority))",
                more: more)
        }
        entries += leftOut("banners")
        return entries
    }

    private func explainCards(for subject: EvaluationSubject, at now: Double, dismissed: Set<ExactString>)
        -> [JSONObject]
    {
        let context = subject.context
        var budget = WorkBudget.forRound(of: cards.count)
        var unrendered: [UnrenderedItem] = []
        if templatedCardCount > 0 { _ = contentCards(for: subject, at: now, unrendered: &unrendered) }
        let notRendered = Self.byID(unrendered)
        var entries = cards.map { definition -> JSONObject in
            let id = definition.id
            if dismissed.contains(ExactString(id)) {
                return Explanation.item(id: id, .dismissed, "the user dismissed it")
            }
            if definition.card.isExpired(at: now) {
                return Explanation.item(
                    id: id, .expired, "it expired at \(Explanation.time(definition.card.expiresAt ?? now))")
            }
            let decision = definition.targeting.decision(id, context: context, at: now, budget: &budget)
            guard decision == .matches else {
                let (outcome, why) = Targeting.explain(decision)
                return Explanation.item(id: id, outcome, why)
            }
            if definition.targeting.isControl(id, targetingKey: subject.targetingKey) {
                return Explanation.item(
                    id: id, .control, definition.targeting.controlWhy + ": a control card stands in")
            }
            if let item = notRendered[id] { return Explanation.item(id: id, .notRendered, Self.notRenderedWhy(item)) }
            return Explanation.item(id: id, .shown, "its schedule and targeting admit the user")
        }
        entries += leftOut("contentCards")
        return entries
    }

    // MARK: - Templates

    /// The items a refresh's templates left out, by id (the first of each).
    private static func byID(_ items: [UnrenderedItem]) -> [String: UnrenderedItem] {
        Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func notRenderedWhy(_ item: UnrenderedItem) -> String {
        "its schedule and targeting admit the user, but its template at \(item.pointer) "
            + "gave them no text (\(item.fault)): left out for them"
    }

    /// Flags resolved as listed that the channel leaves out for this user
    /// all the same, their templates giving no text (or, for a variant,
    /// not parsing): not in it, and why (the outcome stays flagd's reason).
    private func markUnrenderedFlags(_ entries: inout [JSONObject], for subject: EvaluationSubject, at now: Double) {
        guard !flagTemplates.isEmpty || featuresHoldTemplates else { return }
        var unrendered: [UnrenderedItem] = []
        let listed = Set(featureFlags(for: subject, at: now, unrendered: &unrendered).map { ExactString($0.id) })
        let notRendered = Self.byID(unrendered)
        for index in entries.indices {
            guard let id = entries[index]["id"]?.stringValue, entries[index]["in"] == .bool(true),
                !listed.contains(ExactString(id))
            else { continue }
            let cause =
                notRendered[id].map { "its template at \($0.pointer) gave them no text (\($0.fault))" }
                ?? "its variant holds a template that does not parse (see the document's problems)"
            entries[index]["in"] = .bool(false)
            entries[index]["why"] = .string(
                (entries[index]["why"]?.stringValue ?? "") + "; left out of the featureFlags channel for this user: "
                    + cause)
        }
    }

    /// The entries of `section` left out when the document loaded, each with
    /// its problems: `{pointer, in: false, outcome: INVALID, why}`.
    private func leftOut(_ section: String) -> [JSONObject] {
        let prefix = "/\(section)/"
        var order: [String] = []
        var messages: [String: [String]] = [:]
        for problem in problems where problem.pointer.hasPrefix(prefix) {
            let index = problem.pointer.dropFirst(prefix.count).prefix { $0 != "/" }
            let entry = prefix + index
            if messages[entry] == nil { order.append(entry) }
            messages[entry, default: []].append(problem.description)
        }
        return order.map { entry in
            Explanation.item(
                id: nil, .invalid,
                "left out when the definitions loaded: " + (messages[entry] ?? []).joined(separator: "; "),
                more: ["pointer": .string(entry)])
        }
    }
}
