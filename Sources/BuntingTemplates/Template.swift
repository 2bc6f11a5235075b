/// A Liquid template in Braze's dialect, parsed once and rendered per user.
///
/// Parse when the document loads (any thread: a `Template` is an immutable
/// value); render at each refresh with the user's `RenderContext`. A text
/// without `{{` or `{%` is plain text: recognised at parse, returned as it
/// is by `render` without any work.
public struct Template: Sendable {
    /// The template's text as written.
    public let source: String
    private let nodes: [Node]
    /// The text holds no `{{` and no `{%`: rendering it gives it back unchanged.
    public let isPlainText: Bool
    /// The content blocks the template includes (`content_blocks.${name}`),
    /// each with the UTF-8 offset of its first mention.
    let contentBlockMentions: [String: Int]

    /// Parses `source`; a template that does not parse is a `.parse` error
    /// with its line and column.
    public init(_ source: String, limits: TemplateLimits = .default) throws(TemplateError) {
        self.source = source
        let length = source.utf8.count
        guard length <= limits.maxTemplateBytes else {
            throw TemplateOffsetError.limit(
                "the template is \(length) bytes, more than \(limits.maxTemplateBytes)", at: 0
            )
            .located(in: source, phase: .parse)
        }
        guard Self.containsMarkup(source) else {
            nodes = []
            isPlainText = true
            contentBlockMentions = [:]
            return
        }
        isPlainText = false
        var parser = TemplateParser(bytes: Array(source.utf8), limits: limits)
        do {
            nodes = try parser.parseDocument()
        } catch {
            throw error.located(in: source, phase: .parse)
        }
        contentBlockMentions = parser.contentBlocks.offsets
    }

    /// The names of the content blocks the template includes.
    public var contentBlockNames: Set<String> { Set(contentBlockMentions.keys) }

    /// An error at the first mention of a content block that `blocks` does
    /// not hold, found without rendering: what a document checks at load.
    public func missingContentBlock(in blocks: ContentBlocks) -> TemplateError? {
        let missing = contentBlockMentions.filter { blocks[$0.key] == nil }.min { $0.value < $1.value }
        guard let (name, offset) = missing else { return nil }
        return TemplateOffsetError.invalid("no content block named '\(name)'", at: offset).located(
            in: source, phase: .parse)
    }

    /// Renders the template for one user. An error is a `.render` error:
    /// a limit reached, an abort, or a filter or comparison that failed on
    /// this user's values; the text is then not given at all.
    public func render(_ context: RenderContext) throws(TemplateError) -> String {
        if isPlainText {
            // Plain text is the output as it stands, within the same limit.
            let length = source.utf8.count
            guard length <= context.limits.maxOutputBytes else {
                throw TemplateOffsetError.limit(
                    "the output would be more than \(context.limits.maxOutputBytes) bytes", at: 0
                )
                .located(in: source, phase: .render)
            }
            return source
        }
        var renderer = Renderer(context: context)
        do {
            return try renderer.renderDocument(nodes)
        } catch {
            throw error.located(in: source, phase: .render)
        }
    }

    /// Renders as `render(_:)` does, within `steps` as well as the limits'
    /// own `maxSteps`, and takes the steps the render spent from `steps`:
    /// renders that share one budget (the items of one refresh) cannot
    /// together run past it, whatever each is allowed alone.
    public func render(_ context: RenderContext, steps: inout Int) throws(TemplateError) -> String {
        if isPlainText { return try render(context) }
        var bounded = context
        bounded.limits.maxSteps = max(0, min(context.limits.maxSteps, steps))
        var renderer = Renderer(context: bounded)
        defer { steps -= min(renderer.steps, steps) }
        do {
            return try renderer.renderDocument(nodes)
        } catch {
            throw error.located(in: source, phase: .render)
        }
    }

    /// Renders as a content block inside another template's render, sharing
    /// its variables and budgets.
    func renderInline(_ renderer: inout Renderer) throws(TemplateOffsetError) -> Interrupt? {
        if isPlainText {
            try renderer.write(source)
            return nil
        }
        return try renderer.render(nodes)
    }

    /// Whether `text` holds `{{` or `{%`, the only ways into Liquid.
    public static func containsMarkup(_ text: String) -> Bool {
        var previousWasBrace = false
        for byte in text.utf8 {
            if previousWasBrace, byte == UInt8(ascii: "{") || byte == UInt8(ascii: "%") { return true }
            previousWasBrace = byte == UInt8(ascii: "{")
        }
        return false
    }
}
