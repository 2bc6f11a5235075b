import BuntingJSON

/// Liquid templates for testers and tools: `renderTemplate` renders one
/// with the current document's content blocks and limits.
extension Engine {
    /// Renders `template`. With neither `data` nor `attributes`, for the
    /// current user: their attributes and id (`${…}`); otherwise with what
    /// is given. The clock and the document's content blocks apply either
    /// way. Touches no user state. Nil before any document is loaded: the
    /// templates render with a document's content blocks and limits.
    public func renderTemplate(_ template: String, data: JSONObject?, attributes: JSONObject?) -> Result<
        String, TemplateFault
    >? {
        onLoop {
            guard let definitions else { return nil }
            var request = TemplateRequest(
                template: template, data: data ?? [:], attributes: attributes ?? [:], now: now)
            if data == nil && attributes == nil {
                let subject = user.subject
                request.attributes = subject.attributes
                request.userId = subject.targetingKey
            }
            return definitions.renderTemplate(request)
        }
    }

    /// The items the current user's last refreshes left out for their
    /// templates, for `status`.
    var unrenderedStatus: JSON {
        let items = unrendered.items(generation: user.generation)
        return .array(items.prefix(UnrenderedItems.shownInStatus).map(\.json))
    }
}
