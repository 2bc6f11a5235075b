import BuntingJSON

/// What a render reads: the user, their attributes, plain Liquid variables,
/// the time, the document's content blocks, and the limits.
public struct RenderContext: Sendable {
    /// The user's attributes, read by Braze's `${name}` and
    /// `custom_attribute.${name}`.
    public var attributes: JSONObject
    /// Plain Liquid variables, read by `{{ name }}`.
    public var data: JSONObject
    /// The user's id, read by `${user_id}` (before an attribute of that name).
    public var userId: String?
    /// Unix seconds: what `'now'` and `'today'` are. The caller's clock, so
    /// that renders are reproducible and tests need not wait.
    public var now: Double
    /// The document's content blocks, read by `content_blocks.${name}`.
    public var contentBlocks: ContentBlocks
    public var limits: TemplateLimits

    public init(
        attributes: JSONObject = JSONObject(), data: JSONObject = JSONObject(), userId: String? = nil, now: Double,
        contentBlocks: ContentBlocks = ContentBlocks(), limits: TemplateLimits = .default
    ) {
        self.attributes = attributes
        self.data = data
        self.userId = userId
        self.now = now
        self.contentBlocks = contentBlocks
        self.limits = limits
    }
}

/// Named templates a template can include with `{{content_blocks.${name}}}`.
public struct ContentBlocks: Sendable {
    private var blocks: [String: Template]

    public init(_ blocks: [String: Template] = [:]) {
        self.blocks = blocks
    }

    public subscript(name: String) -> Template? {
        get { blocks[name] }
        set { blocks[name] = newValue }
    }

    public var names: [String] { blocks.keys.sorted() }
    public var isEmpty: Bool { blocks.isEmpty }
}
