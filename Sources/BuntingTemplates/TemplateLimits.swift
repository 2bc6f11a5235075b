/// Bounds on parsing and rendering one template, so that no template and no
/// user's data can make a render run long, grow without bound or crash.
/// Going past one is a `TemplateError` with reason `.limit` (TEMPLATE_LIMIT),
/// never a crash and never a partial text.
///
/// | limit | default | what counts |
/// |---|---|---|
/// | `maxTemplateBytes` | 1 MiB | UTF-8 bytes of the template's text (at parse) |
/// | `maxNesting` | 32 | blocks inside blocks, brackets inside brackets of one expression, |
/// | | | `liquid` tags inside `liquid` tags (at parse) |
/// | `maxSteps` | 100,000 | work units of one render: 1 for each node rendered, 1 for each loop |
/// | | | iteration (an empty body too), 1 for each filter applied, and 1 for each |
/// | | | element or each 16 bytes a filter reads or builds |
/// | `maxOutputBytes` | 1 MiB | UTF-8 bytes of the rendered text |
/// | `maxCapturedBytes` | 1 MiB | UTF-8 bytes of the strings `assign` and `capture` store, summed over the render |
/// | `maxStringBytes` | 1 MiB | UTF-8 bytes of any one string a filter builds |
/// | `maxArrayLength` | 100,000 | elements of any array a filter builds, and of a range `(a..b)` |
/// | `maxStrftimeWidth` | 256 | a width in a `date` format, as in `%300d` |
/// | `maxContentBlockDepth` | 4 | `content_blocks` inside content blocks |
///
/// Integers are 64-bit: a result outside that range (`plus`, `times`, `abs`,
/// `sum`, `increment`, a range's end, an integer literal) is reported as a
/// limit too. Every loop counts its iterations whatever its body, so a loop
/// cannot run past `maxSteps` even when it writes nothing; with the defaults
/// the costliest template takes a few milliseconds in a release build.
public struct TemplateLimits: Sendable, Hashable {
    public var maxTemplateBytes: Int
    public var maxNesting: Int
    public var maxSteps: Int
    public var maxOutputBytes: Int
    public var maxCapturedBytes: Int
    public var maxStringBytes: Int
    public var maxArrayLength: Int
    public var maxStrftimeWidth: Int
    public var maxContentBlockDepth: Int

    public init(
        maxTemplateBytes: Int = 1 << 20, maxNesting: Int = 32, maxSteps: Int = 100_000,
        maxOutputBytes: Int = 1 << 20, maxCapturedBytes: Int = 1 << 20, maxStringBytes: Int = 1 << 20,
        maxArrayLength: Int = 100_000, maxStrftimeWidth: Int = 256, maxContentBlockDepth: Int = 4
    ) {
        self.maxTemplateBytes = maxTemplateBytes
        self.maxNesting = maxNesting
        self.maxSteps = maxSteps
        self.maxOutputBytes = maxOutputBytes
        self.maxCapturedBytes = maxCapturedBytes
        self.maxStringBytes = maxStringBytes
        self.maxArrayLength = maxArrayLength
        self.maxStrftimeWidth = maxStrftimeWidth
        self.maxContentBlockDepth = maxContentBlockDepth
    }

    public static let `default` = TemplateLimits()
}
