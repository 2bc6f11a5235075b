import BuntingCore
import BuntingJSON

/// One entry of the document's `banners`.
struct BannerDefinition: Sendable {
    let id: String
    let placementId: String
    let html: String
    /// `html`'s template, when it is one: rendered per user.
    var htmlTemplate: TemplateRef? = nil
    /// `/banners/<index>`.
    var pointer: String = ""
    /// Higher wins its placement; ties go to the earlier entry.
    let priority: Int64
    let properties: JSONObject
    let isTestSend: Bool
    let trackingId: String?
    let expiresAt: Double?
    let targeting: Targeting

    func isShown(at now: Double) -> Bool {
        expiresAt.map { $0 > now } ?? true
    }

    /// The banner this definition gives `subject`: itself (with `html`
    /// rendered for them, if given), or a control banner (empty html, no
    /// properties) for a user in its control group.
    func banner(for subject: EvaluationSubject, html rendered: String? = nil) -> Banner {
        if isControl(for: subject) {
            return Banner(
                id: id, placementId: placementId, html: "", isControl: true, isTestSend: isTestSend,
                expiresAt: expiresAt, properties: [:], trackingId: trackingId)
        }
        return Banner(
            id: id, placementId: placementId, html: rendered ?? html, isControl: false, isTestSend: isTestSend,
            expiresAt: expiresAt, properties: properties, trackingId: trackingId)
    }

    /// Whether `subject` is in the banner's control group (no html to render).
    func isControl(for subject: EvaluationSubject) -> Bool {
        targeting.isControl(id, targetingKey: subject.targetingKey)
    }
}
