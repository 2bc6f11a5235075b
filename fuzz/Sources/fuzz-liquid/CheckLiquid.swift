import BuntingJSON
import BuntingTemplates
import FuzzSupport

/// Limits far below the defaults, so that each input runs in well under a
/// millisecond and the fuzzer reaches the limits themselves.
private let small = TemplateLimits(
    maxTemplateBytes: 8192, maxNesting: 12, maxSteps: 4000, maxOutputBytes: 4096, maxCapturedBytes: 4096,
    maxStringBytes: 4096, maxArrayLength: 400, maxStrftimeWidth: 64, maxContentBlockDepth: 3)

/// Parses and renders a Liquid template. The input is the template's text;
/// after a NUL byte, a JSON object gives the render's data (its `attributes`
/// member, if an object, the user's attributes too). The template is also
/// its own content block `self`, so that blocks nest until their limit.
/// Checks:
/// - text without `{{` or `{%` is plain text and renders as itself;
/// - a parse or render error points inside the text (line and column at
///   least 1, offset within the text, the line no further than the text's);
/// - rendering twice gives the same outcome (determinism);
/// - the output stays within the output limit;
/// - the limits only cut: whatever renders within the small limits renders
///   to the same text with the default ones.
func checkLiquid(_ bytes: UnsafeRawBufferPointer) {
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let source = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<split]), as: UTF8.self)
    var data = JSONObject()
    if split < bytes.count,
        case .object(let object)? = try? JSON.parse(UnsafeRawBufferPointer(rebasing: bytes[(split + 1)...]))
    {
        data = object
    }
    let attributes = data["attributes"]?.objectValue ?? JSONObject()

    let template: Template
    do {
        template = try Template(source, limits: small)
    } catch {
        requireInside(error, source)
        return
    }
    require(template.isPlainText == !Template.containsMarkup(source), "plain text misjudged")

    var blocks = ContentBlocks()
    blocks["self"] = template
    let context = RenderContext(
        attributes: attributes, data: data, userId: "fuzz", now: 1_773_480_413.5, contentBlocks: blocks, limits: small)
    let first = outcome(template, context)
    let second = outcome(template, context)
    require(first == second, "two renders of one template differ")
    switch first {
    case .success(let text):
        require(text.utf8.count <= small.maxOutputBytes, "output of \(text.utf8.count) bytes past the limit")
        if template.isPlainText { require(text == source, "plain text rendered differently") }
        // With the default limits the same text (if the default parse agrees).
        if let roomy = try? Template(source) {
            var roomyBlocks = ContentBlocks()
            roomyBlocks["self"] = roomy
            var wide = context
            wide.limits = .default
            wide.contentBlocks = roomyBlocks
            require(outcome(roomy, wide) == first, "the default limits render differently from the small ones")
        }
    case .failure(let error):
        requireInside(error, source)
    }
}

private func outcome(_ template: Template, _ context: RenderContext) -> Result<String, TemplateError> {
    Result { () throws(TemplateError) -> String in try template.render(context) }
}

private func requireInside(_ error: TemplateError, _ source: String) {
    let length = source.utf8.count
    require(error.offset >= 0 && error.offset <= length, "error offset \(error.offset) outside 0...\(length): \(error)")
    require(error.line >= 1 && error.column >= 1, "error position \(error.line):\(error.column)")
    let lines = source.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    require(error.line <= lines, "error line \(error.line) past the text's \(lines) lines")
    require(!error.message.isEmpty, "an error without a message")
}
