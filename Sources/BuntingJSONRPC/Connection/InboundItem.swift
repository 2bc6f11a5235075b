import BuntingJSON

/// What the reader hands to the loop: a parsed message, or why there is none.
/// Parsing happens on the reader's thread, so the loop only dispatches.
public enum InboundItem: Sendable {
    case message(JSON)
    case unparsable(JSONParseError)
    case brokenFrame(FramingProblem)
}
