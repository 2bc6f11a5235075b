/// A `val`/`exists` path: literal or computed segments, after an optional
/// jump up the scopes of enclosing iterators (`[[2], "x"]`).
struct ValuePath: Sendable {
    enum Segment: Sendable {
        case key(String)
        case index(Int)
        case computed(Node)
    }

    var scopeJump: Int
    var segments: [Segment]
}
