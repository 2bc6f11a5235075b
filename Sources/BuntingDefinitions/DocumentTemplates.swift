import BuntingCore
import BuntingJSON
import BuntingRuntime
import BuntingTemplates
import Synchronization

/// A template of the document, by its place in `DocumentTemplates`.
struct TemplateRef: Hashable, Sendable {
    let index: Int32
}

/// The Liquid of a document: each text of its items that holds `{{` or
/// `{%`, parsed once when the document loads (texts written alike share one
/// template, and are rendered once per refresh), and its content blocks.
/// Texts without markup are not here: their items keep their shared text.
final class DocumentTemplates: Sendable {
    let templates: [Template]
    /// Each template's place, by its text: GrowthBook values are templates
    /// found by their text at render time.
    private let places: [ExactString: Int32]
    let contentBlocks: ContentBlocks
    /// Texts met at render time that were not seen at load (the values of
    /// an encrypted GrowthBook payload), parsed once.
    private let parsedLater = Mutex<[ExactString: Result<Template, TemplateError>]>([:])
    /// Items whose failure was logged already: each is said once per document.
    private let logged = Mutex<Set<LoggedFailure>>([])

    private struct LoggedFailure: Hashable {
        let channel: Channel
        let id: ExactString
        let pointer: ExactString
        let reason: TemplateFault.Reason
    }

    init(templates: [Template] = [], places: [ExactString: Int32] = [:], contentBlocks: ContentBlocks = ContentBlocks())
    {
        self.templates = templates
        self.places = places
        self.contentBlocks = contentBlocks
    }

    static let none = DocumentTemplates()

    /// Bounds on each render of an item's field. Lower than a lone render's
    /// (`renderTemplate`) on output: a refresh renders every item.
    static let itemLimits = TemplateLimits(maxOutputBytes: 64 << 10)

    /// The template written as `text`: the one parsed at load, or parsed now
    /// (once per document).
    func template(forText text: String) -> Result<Template, TemplateError> {
        let key = ExactString(text)
        if let place = places[key] { return .success(templates[Int(place)]) }
        return parsedLater.withLock { parsed in
            if let known = parsed[key] { return known }
            let result = Result { () throws(TemplateError) -> Template in try Template(text, limits: Self.itemLimits) }
            parsed[key] = result
            return result
        }
    }

    /// What a render reads for `subject` at `now`: their attributes, their
    /// id (the targeting key) and the document's content blocks.
    func context(for subject: EvaluationSubject, at now: Double, limits: TemplateLimits = itemLimits) -> RenderContext {
        RenderContext(
            attributes: subject.attributes, userId: subject.targetingKey, now: now, contentBlocks: contentBlocks,
            limits: limits)
    }

    /// Renders a template given with a request (`renderTemplate`).
    func render(_ request: TemplateRequest) -> Result<String, TemplateFault> {
        do throws(TemplateError) {
            let template = try Template(request.template)
            let context = RenderContext(
                attributes: request.attributes, data: request.data, userId: request.userId, now: request.now,
                contentBlocks: contentBlocks)
            return .success(try template.render(context))
        } catch {
            return .failure(TemplateFault(error))
        }
    }

    /// Logs, once per item, field and reason, why an item was left out for a
    /// user: an abort is the template's own decision (info), a render that
    /// failed is a fault of the document (warning).
    func noteOnce(_ item: UnrenderedItem) {
        let key = LoggedFailure(
            channel: item.channel, id: ExactString(item.id), pointer: ExactString(item.pointer),
            reason: item.fault.reason)
        guard logged.withLock({ $0.insert(key).inserted }) else { return }
        let kind =
            switch item.channel {
            case .featureFlags: "the flag"
            case .banners: "the banner"
            case .contentCards: "the content card"
            }
        let what = "\(kind) \(item.id.debugDescription) (\(item.pointer))"
        switch item.fault.reason {
        case .aborted:
            let why = item.fault.abortMessage.map { $0.isEmpty ? "" : ": \($0)" } ?? ""
            log.info("\(what) is left out for a user: its template ran abort_message\(why) (said once per item)")
        case .invalidTemplate, .limit:
            log.warning(
                "\(what) is left out for a user: its template failed to render (\(item.fault)); said once per item")
        }
    }
}

extension TemplateFault {
    init(_ error: TemplateError) {
        let reason: Reason =
            switch error.reason {
            case .invalidTemplate: .invalidTemplate
            case .limit: .limit
            case .aborted: .aborted
            }
        self.init(
            reason: reason, message: error.message, line: error.line, column: error.column,
            abortMessage: error.abortMessage)
    }
}
