import BuntingCore
import BuntingJSON

/// One entry of the document's `contentCards`.
struct CardDefinition: Sendable {
    let card: ContentCard
    let targeting: Targeting

    var id: String { card.id }

    /// The card `subject` gets: the card, or a control card (no content,
    /// not dismissible) for a user in its control group.
    func card(for subject: EvaluationSubject) -> ContentCard {
        guard targeting.isControl(card.id, targetingKey: subject.targetingKey) else { return card }
        return ContentCard(
            id: card.id, type: .control, extras: [:], created: card.created, updated: card.updated,
            expiresAt: card.expiresAt, pinned: false, dismissible: false)
    }
}
