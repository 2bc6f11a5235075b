import BuntingCore
import BuntingJSON

/// One entry of the document's `banners`.
struct BannerDefinition: Sendable {
    let id: String
    let placementId: String
    let html: String
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

    /// The banner this definition gives `subject`: itself, or a control banner
    /// (empty html, no properties) for a user in its control group.
    func banner(for subject: EvaluationSubject) -> Banner {
        if targeting.isControl(id, targetingKey: subject.targetingKey) {
            return Banner(
                id: id, placementId: placementId, html: "", isControl: true, isTestSend: isTestSend,
                expiresAt: expiresAt, properties: [:], trackingId: trackingId)
        }
        return Banner(
            id: id, placementId: placementId, html: html, isControl: false, isTestSend: isTestSend,
            expiresAt: expiresAt, properties: properties, trackingId: trackingId)
    }
}
