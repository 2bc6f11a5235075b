/// A text checked in full as `JSON.parse` reads it, without making its
/// value, and where the members of its top-level object (and of some of
/// them) are written: a document can be judged sound and cut into the pieces
/// that matter in one pass, each piece parsed later on its own.
public struct JSONOutline: Sendable {
    /// The top-level object's members, in the order written.
    public let members: [JSONMemberSpans.Member]
    /// The members of each top-level member named when outlining that is an object.
    public let nested: [String: [JSONMemberSpans.Member]]

    /// The outline of a text `JSON.parse` accepts and reads to an object, with
    /// the members of the top-level members named in `inside`; nil for any
    /// other text, and for some texts `JSON.parse` accepts that only jansson
    /// reads (an integer of more than 18 digits, for one), which the caller
    /// then parses as usual.
    public static func of(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSON.defaultMaxDepth, inside: Set<String> = []
    ) -> JSONOutline? {
        JSONReader.outline(bytes, maxDepth: maxDepth, inside: inside)
    }
}
