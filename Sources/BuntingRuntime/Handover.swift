import Synchronization

/// A value handed to work that runs elsewhere (on a worker), which takes it
/// out: once taken, nothing here holds it, so that the taker may be its only
/// owner. A closure's capture would hold it for as long as the closure
/// lives; a document's text that its load gives back as it goes must have
/// no other holder (see `Definitions.load`).
public final class Handover<Value: Sendable>: Sendable {
    private let slot: Mutex<Value?>

    public init(_ value: consuming Value) {
        slot = Mutex(value)
    }

    /// The value the first time; nil after.
    public func take() -> Value? {
        slot.withLock { $0.take() }
    }
}
