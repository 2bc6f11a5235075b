/// A request the engine refuses. The RPC layer maps `kind` to an error code;
/// `field` names the param at fault and `why` says what is wrong with it.
public struct EngineError: Error, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// An id that names no item the current user has (-32002).
        case notFound
        /// A well-formed request this item does not allow (-32003).
        case notAllowed
        /// Refused while the SDK is disabled (-32004).
        case sdkDisabled
        /// Local storage failed (-32007).
        case storage
        /// Params the schema cannot rule out: a click on a flag, placements of cards (-32602).
        case invalidParams
        /// A bound of the server reached: too many subscriptions (-32010).
        case limitReached
    }

    public var kind: Kind
    public var field: String
    public var why: String

    public init(_ kind: Kind, field: String = "", _ why: String) {
        self.kind = kind
        self.field = field
        self.why = why
    }

    public static let sdkDisabled = EngineError(.sdkDisabled, "the SDK is disabled")
    static func storage(_ error: StoreError) -> EngineError { EngineError(.storage, error.message) }
}
