import BuntingCore
import BuntingJSON

/// One entry of the document's `contentCards`.
struct CardDefinition: Sendable {
    var card: ContentCard
    let targeting: Targeting
    /// The card's templates, when it has any: its text is then written per
    /// user; without, every user shares `card`.
    var personalised: PersonalisedCard? = nil

    var id: String { card.id }

    /// The card `subject` gets: the card, or a control card (no content,
    /// not dismissible) for a user in its control group.
    func card(for subject: EvaluationSubject) -> ContentCard {
        guard isControl(for: subject) else { return card }
        return ContentCard(
            id: card.id, type: .control, extras: [:], created: card.created, updated: card.updated,
            expiresAt: card.expiresAt, pinned: false, dismissible: false)
    }

    /// Whether `subject` is in the card's control group (no content to render).
    func isControl(for subject: EvaluationSubject) -> Bool {
        targeting.isControl(card.id, targetingKey: subject.targetingKey)
    }
}
