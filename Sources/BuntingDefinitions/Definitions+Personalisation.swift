import BuntingCore
import BuntingJSON
import BuntingRules
import BuntingTemplates

/// Personalised text: the flags whose properties, and the GrowthBook
/// features whose values, hold templates, rendered for one user; and
/// `renderTemplate`. (Banners and cards are rendered where they are chosen.)
extension Definitions {
    /// Makes the flags at `templated` (index in `flags`, place in the flag
    /// set) for the user, their string properties rendered; a flag whose
    /// template gives no text, or whose variant holds one that did not
    /// parse, is left out.
    func personalise(
        _ flags: inout [FeatureFlag], _ templated: [(index: Int, place: Int)], _ resolutions: [FlagResolution],
        for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem]
    ) {
        var renders = UserRenders(templates, for: subject, at: now, items: templated.count)
        var leftOut: [Int] = []
        for (index, place) in templated {
            guard let variant = flagTemplates.variant(at: place, resolutions[place]) else { continue }
            guard !variant.isBroken else {
                leftOut.append(index)
                continue
            }
            let flag = flags[index]
            var properties = flag.properties
            var fault: (property: String, TemplateFault)?
            for property in variant.properties {
                switch renders.text(property.template) {
                case .success(let text):
                    if case .object(var typed)? = properties[property.key] {
                        typed["value"] = .string(text)
                        properties[property.key] = .object(typed)
                    }
                case .failure(let failure):
                    fault = (property.key, failure)
                }
                if fault != nil { break }
            }
            if let (property, failure) = fault {
                let pointer = variant.pointer + JSONPointer(tokens: ["properties", property, "value"]).description
                leaveOut(
                    UnrenderedItem(channel: .featureFlags, id: flag.id, pointer: pointer, fault: failure), &unrendered)
                leftOut.append(index)
                continue
            }
            flags[index] = FeatureFlag(
                id: flag.id, enabled: flag.enabled, properties: properties, trackingString: flag.trackingString,
                metadata: flag.metadata)
        }
        for index in leftOut.reversed() { flags.remove(at: index) }
    }

    /// The features' flags of GrowthBook's evaluation for `attributes` (its
    /// context: `id` is the user), with the string properties that hold
    /// markup rendered; a flag whose template gives no text is left out.
    func personaliseFeatureFlags(
        _ flags: inout [FeatureFlag], attributes: JSONObject, at now: Double, unrendered: inout [UnrenderedItem]
    ) {
        guard featuresHoldTemplates else { return }
        let subject = EvaluationSubject(targetingKey: attributes["id"]?.stringValue ?? "", attributes: attributes)
        var renders: UserRenders?
        var leftOut: [Int] = []
        for index in flags.indices {
            let flag = flags[index]
            var properties = flag.properties
            var changed = false
            var fault: (property: String, TemplateFault)?
            for (key, typed) in flag.properties {
                guard let text = typed["value"]?.stringValue, Template.containsMarkup(text) else { continue }
                if renders == nil { renders = UserRenders(templates, for: subject, at: now, items: flags.count) }
                let rendered: Result<String, TemplateFault>
                switch templates.template(forText: text) {
                case .success(let template): rendered = renders!.text(of: template)
                case .failure(let error): rendered = .failure(TemplateFault(error))
                }
                switch rendered {
                case .success(let text):
                    var value = typed.objectValue ?? [:]
                    value["value"] = .string(text)
                    properties[key] = .object(value)
                    changed = true
                case .failure(let failure):
                    fault = (key, failure)
                }
                if fault != nil { break }
            }
            if let (property, failure) = fault {
                let pointer = JSONPointer(tokens: ["features", flag.id]).description
                var item = UnrenderedItem(channel: .featureFlags, id: flag.id, pointer: pointer, fault: failure)
                item.fault.message = "property \(property.debugDescription): " + failure.message
                leaveOut(item, &unrendered)
                leftOut.append(index)
            } else if changed {
                flags[index] = FeatureFlag(
                    id: flag.id, enabled: flag.enabled, properties: properties, trackingString: flag.trackingString,
                    metadata: flag.metadata)
            }
        }
        for index in leftOut.reversed() { flags.remove(at: index) }
    }

    public func renderTemplate(_ request: TemplateRequest) -> Result<String, TemplateFault> {
        templates.render(request)
    }
}
