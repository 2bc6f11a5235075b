/// Why a JSONLogic rule was refused at compile time, and where.
///
/// `pointer` is an RFC 6901 JSON pointer to the offending part: relative to the
/// rule (`/if/1/var`), or absolute in the document when the caller gave a
/// pointer prefix (`/flags/checkout/targeting/if/1/var`). Problems inside a
/// shared evaluator point into `/$evaluators/<name>/…`.
public struct RuleCompileError: Error, Sendable, Hashable, CustomStringConvertible {
    public let pointer: String
    public let message: String

    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        "\(pointer.isEmpty ? "at the root" : "at \(pointer)"): \(message)"
    }
}
