import BuntingCore
import BuntingJSON
import BuntingSchema
import BuntingTemplates

/// The Liquid templates of a document, checked as it loads, as targeting is:
/// a template that does not parse (or reaches for the network) is a problem
/// with its pointer and its line:column in the document, and its item is
/// left out.
extension DefinitionsLoader {
    /// Parses `text`, the value at `pointer`; nil when it is a template that
    /// does not parse (reported: `item` is what is left out), `.some(nil)`
    /// when it is plain text.
    mutating func compileText(_ text: String, at pointer: JSONPointer, leaving item: String) -> TemplateRef?? {
        switch templates.compile(text) {
        case .plain: return .some(nil)
        case .template(let ref): return .some(ref)
        case .broken(let failure):
            reportTemplate(failure, at: pointer, leaving: item)
            return nil
        }
    }

    /// `the template does not parse (INVALID_TEMPLATE at 1:12 of the
    /// template): unknown tag 'bogus'; the card is left out`, placed at the
    /// error in the document's text.
    mutating func reportTemplate(_ failure: TemplateCompiler.Failure, at pointer: JSONPointer, leaving item: String) {
        let error = failure.error
        report(
            pointer,
            "the template \(failure.what) (\(error.reason.rawValue) at \(error.line):\(error.column) of the template): "
                + "\(error.message); \(item)",
            templateOffset: error.offset)
    }

    /// The document's `contentBlocks` (name → template), compiled before
    /// the items' templates, which are checked against them: one that does
    /// not parse is a problem, and is not there to include.
    mutating func compileContentBlocks(_ section: JSON?) {
        guard case .object(let blocks)? = section else { return }
        // A value that is not a string is the schema's to report.
        let texts = blocks.compactMap { member in member.value.stringValue.map { (name: member.key, text: $0) } }
        for (name, failure) in templates.addContentBlocks(texts) {
            reportTemplate(
                failure, at: JSONPointer(tokens: ["contentBlocks", name]),
                leaving: "the content block is left out, and so is each item whose template includes it")
        }
    }

    /// The card's templates, and the card with marks where each user's text
    /// goes (what the document's table holds for it: no user is served its
    /// text as written); nil for a card without any (every user shares its
    /// text). A card with a template that does not parse is reported and
    /// left out (`leftOut`).
    mutating func compileCardTemplates(
        _ entry: JSON, at pointer: String, leftOut: inout Bool
    ) -> (personalised: PersonalisedCard, card: ContentCard)? {
        guard case .object(let fields) = entry else { return nil }
        // Most cards hold no markup: they cost this look and nothing more.
        let texts = PersonalisedCard.templatedFields.lazy.compactMap { fields[$0]?.stringValue }
        let extrasTexts = (fields["extras"]?.objectValue ?? [:]).lazy.compactMap(\.value.stringValue)
        guard texts.contains(where: Template.containsMarkup) || extrasTexts.contains(where: Template.containsMarkup)
        else { return nil }
        let cardPointer = (try? JSONPointer(parsing: pointer)) ?? .root
        var templated: [PersonalisedCard.Field] = []
        for name in PersonalisedCard.templatedFields {
            guard let text = fields[name]?.stringValue else { continue }
            switch compileText(text, at: cardPointer.appending(name), leaving: "the card is left out") {
            case nil: leftOut = true
            case .some(nil): break
            case .some(let ref?):
                templated.append(PersonalisedCard.Field(template: ref, pointer: "/" + name, extrasKey: nil))
            }
        }
        for (key, value) in fields["extras"]?.objectValue ?? [:] {
            guard let text = value.stringValue else { continue }
            switch compileText(
                text, at: cardPointer.appending("extras").appending(key), leaving: "the card is left out")
            {
            case nil: leftOut = true
            case .some(nil): break
            case .some(let ref?):
                templated.append(
                    PersonalisedCard.Field(
                        template: ref, pointer: JSONPointer(tokens: ["extras", key]).description, extrasKey: key))
            }
        }
        guard !templated.isEmpty, !leftOut else { return nil }
        // The card keeps its id and extras as values (see `DefinitionsLoader.card`).
        var entry = fields
        for kept in ["id", "extras"] {
            if let value = entry[kept] { entry[kept] = value.detached() }
        }
        guard let marked = ContentCard(json: .object(PersonalisedCard.marked(entry, templated))) else { return nil }
        let pieces = PersonalisedCard.cut(marked.definitionText, marks: templated.count)
        return (PersonalisedCard(pointer: pointer, fields: templated, pieces: pieces, entry: entry), marked)
    }

    /// The banner's html: its template, nil when plain; `leftOut` when it does not parse.
    mutating func compileBannerTemplate(_ entry: JSON, at pointer: String, leftOut: inout Bool) -> TemplateRef? {
        guard let html = entry["html"]?.stringValue, Template.containsMarkup(html) else { return nil }
        let htmlPointer = ((try? JSONPointer(parsing: pointer)) ?? .root).appending("html")
        switch compileText(html, at: htmlPointer, leaving: "the banner is left out") {
        case nil:
            leftOut = true
            return nil
        case .some(let ref): return ref
        }
    }

    /// The templates in the string values of flags' variant properties
    /// (`{"type": "string", "value": "Hi {{${first_name}}}"}`), by flag key
    /// and variant; a variant with one that does not parse is not listed in
    /// the channel (flagd's resolution of the flag is untouched).
    mutating func compileFlagTemplates(_ flags: JSON?) -> [String: [String: VariantTemplates]] {
        guard case .object(let flags)? = flags else { return [:] }
        var found: [String: [String: VariantTemplates]] = [:]
        for (key, flag) in flags { compileFlagTemplates(key: key, flag, into: &found) }
        return found
    }

    /// The templates of one flag's variants, added to `found`.
    mutating func compileFlagTemplates(
        key: String, _ flag: JSON, into found: inout [String: [String: VariantTemplates]]
    ) {
        guard case .object(let variants)? = flag["variants"] else { return }
        for (name, variant) in variants {
            guard case .object(let properties)? = variant["properties"],
                properties.contains(where: { $0.value["value"]?.stringValue.map(Template.containsMarkup) ?? false })
            else { continue }
            let variantPointer = JSONPointer(tokens: ["flags", key, "variants", name])
            var templated: [VariantTemplates.Property] = []
            var broken = false
            for (property, typed) in properties {
                guard let text = typed["value"]?.stringValue else { continue }
                let pointer = variantPointer.appending("properties").appending(property).appending("value")
                switch compileText(
                    text, at: pointer,
                    leaving: "the flag is left out of the featureFlags channel for users given this variant")
                {
                case nil: broken = true
                case .some(nil): break
                case .some(let ref?): templated.append(VariantTemplates.Property(key: property, template: ref))
                }
            }
            guard broken || !templated.isEmpty else { continue }
            found[key, default: [:]][name] = VariantTemplates(
                pointer: variantPointer.description, properties: templated, isBroken: broken)
        }
    }

    /// The templates in GrowthBook values: the string members of object
    /// values (what the channel lists as properties) of each feature's
    /// default value, forced values and variations. Checked here so that a
    /// broken one is a problem at load; they are found by their text when
    /// rendered. Whether any value holds markup.
    mutating func compileFeatureTemplates(_ features: JSON?) -> Bool {
        guard case .object(let features)? = features else { return false }
        var found = false
        for (key, feature) in features {
            let featurePointer = JSONPointer(tokens: ["features", key])
            var values: [(JSONPointer, JSON)] = []
            if let value = feature["defaultValue"] { values.append((featurePointer.appending("defaultValue"), value)) }
            for (index, rule) in (feature["rules"]?.arrayValue ?? []).enumerated() {
                let rulePointer = featurePointer.appending("rules").appending(String(index))
                if let value = rule["force"] { values.append((rulePointer.appending("force"), value)) }
                for (place, value) in (rule["variations"]?.arrayValue ?? []).enumerated() {
                    values.append((rulePointer.appending("variations").appending(String(place)), value))
                }
            }
            for (pointer, value) in values {
                guard case .object(let members) = value else { continue }
                for (member, text) in members {
                    guard let text = text.stringValue, Template.containsMarkup(text) else { continue }
                    found = true
                    _ = compileText(
                        text, at: pointer.appending(member),
                        leaving: "the feature is left out of the featureFlags channel for users given this value")
                }
            }
        }
        return found
    }
}

/// The templates of one variant's properties.
struct VariantTemplates: Sendable {
    struct Property: Sendable {
        let key: String
        let template: TemplateRef
    }

    /// `/flags/<key>/variants/<name>`.
    let pointer: String
    let properties: [Property]
    /// A template of the variant does not parse: its flag is not listed.
    let isBroken: Bool
}
