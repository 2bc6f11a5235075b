import BuntingJSON
import Synchronization

/// The text of a result that is the same for every user: a feature's
/// default value, or a force rule's. Such a result depends on nothing of
/// the user's (its rule id and value are the payload's), so its text is
/// written once, the first time it is asked for, and kept beside the
/// feature or the rule (not at load: a payload's features are many, those
/// asked for over the protocol few).
final class FixedResultText: Sendable {
    private let text = Mutex<EncodedJSON?>(nil)

    /// The kept text, or the one `write` makes (kept from then on).
    func text(_ write: () -> EncodedJSON) -> EncodedJSON {
        if let known = text.withLock({ $0 }) { return known }
        let written = write()
        text.withLock { $0 = $0 ?? written }
        return written
    }
}
