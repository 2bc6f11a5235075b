import BuntingCore
import BuntingJSON
import BuntingTemplates

/// One user's renders in one refresh: each template of the document is
/// rendered at most once (items written alike share the text), and all of
/// them within one budget of steps and output bytes, so that no document
/// can make a refresh run long however many templates it holds.
struct UserRenders {
    let templates: DocumentTemplates
    private var context: RenderContext
    /// By template; made on first use.
    private var outcomes: [Outcome?] = []
    /// The texts as JSON strings, by template, for cards' text; made on first use.
    private var encodedTexts: [[UInt8]?] = []
    private var stepsLeft: Int
    private var bytesLeft: Int

    private enum Outcome {
        case text(String)
        case fault(TemplateFault)
    }

    /// A refresh's budget: at least this many steps (about 50 ms of the
    /// costliest templates in a release build)…
    static let minimumSteps = 2_000_000
    /// …and this many for each item the round may render (a typical card's
    /// two templates take about 30).
    static let stepsPerItem = 1_000
    /// Output: at least 8 MiB, and 4 KiB an item.
    static let minimumBytes = 8 << 20
    static let bytesPerItem = 4 << 10

    init(_ templates: DocumentTemplates, for subject: EvaluationSubject, at now: Double, items: Int) {
        self.templates = templates
        context = templates.context(for: subject, at: now)
        let items = min(max(0, items), Int(Int32.max))
        stepsLeft = max(Self.minimumSteps, items * Self.stepsPerItem)
        bytesLeft = max(Self.minimumBytes, items * Self.bytesPerItem)
    }

    /// The text of template `ref` for this user, rendered once.
    mutating func text(_ ref: TemplateRef) -> Result<String, TemplateFault> {
        let index = Int(ref.index)
        if outcomes.isEmpty { outcomes = Array(repeating: nil, count: templates.templates.count) }
        if let known = outcomes[index] { return Self.result(known) }
        let outcome = render(templates.templates[index])
        outcomes[index] = outcome
        return Self.result(outcome)
    }

    /// The text as a JSON string (quoted and escaped by jansson, as the
    /// rest of a card's text is), written once per refresh.
    mutating func encodedText(_ ref: TemplateRef) -> Result<[UInt8], TemplateFault> {
        let index = Int(ref.index)
        if encodedTexts.isEmpty { encodedTexts = Array(repeating: nil, count: templates.templates.count) }
        if let known = encodedTexts[index] { return .success(known) }
        switch text(ref) {
        case .success(let text):
            let encoded = JSON.string(text).encoded()
            encodedTexts[index] = encoded
            return .success(encoded)
        case .failure(let fault):
            return .failure(fault)
        }
    }

    /// The text as a JSON string of a template `encodedText` gave one for.
    func knownEncodedText(_ ref: TemplateRef) -> [UInt8] {
        encodedTexts[Int(ref.index)]!
    }

    /// A template met by its text (a GrowthBook value), not memoized.
    mutating func text(of template: Template) -> Result<String, TemplateFault> {
        Self.result(render(template))
    }

    private mutating func render(_ template: Template) -> Outcome {
        let itemBytes = DocumentTemplates.itemLimits.maxOutputBytes
        // Said as it is: "more than 0 steps" would read as this template's fault.
        if !template.isPlainText && (stepsLeft <= 0 || bytesLeft <= 0) {
            return .fault(
                TemplateFault(
                    reason: .limit,
                    message:
                        "not rendered: the templates of this refresh spent its budget before this one "
                        + "(the items left were left out)",
                    line: 1, column: 1))
        }
        context.limits.maxOutputBytes = max(0, min(itemBytes, bytesLeft))
        do throws(TemplateError) {
            let text = try template.render(context, steps: &stepsLeft)
            bytesLeft -= text.utf8.count
            return .text(text)
        } catch {
            var fault = TemplateFault(error)
            if fault.reason == .limit && (stepsLeft <= 0 || bytesLeft < itemBytes) {
                fault.message += " (the templates of this refresh spent its budget: the items left were left out)"
            }
            return .fault(fault)
        }
    }

    private static func result(_ outcome: Outcome) -> Result<String, TemplateFault> {
        switch outcome {
        case .text(let text): .success(text)
        case .fault(let fault): .failure(fault)
        }
    }
}
