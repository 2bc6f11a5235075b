/// One JSON value's text as pieces written one after another, where a large
/// text already made (a snapshot of megabytes) is one of the pieces, shared
/// rather than copied into every message that carries it: the output channel
/// writes such a piece to the client straight from where it was made.
public struct SplicedJSON: Sendable, JSONText {
    /// The text, in order; joined they are one JSON value.
    public let pieces: [[UInt8]]

    /// Text that is one piece.
    public init(_ encoded: EncodedJSON) {
        pieces = [encoded.bytes]
    }

    /// Pieces that are known to join into one JSON value (this module's builders make them).
    init(pieces: [[UInt8]]) {
        self.pieces = pieces
    }

    /// The largest piece's size: what writing it in place saves copying.
    public var largestPiece: Int { pieces.reduce(0) { max($0, $1.count) } }

    /// The text in one buffer (a copy, for readers that need one).
    public var joined: EncodedJSON {
        pieces.count == 1 ? EncodedJSON(trustedText: pieces[0]) : EncodedJSON(writing: self)
    }

    public func appendEncoded(to output: inout [UInt8]) {
        for piece in pieces { output.append(contentsOf: piece) }
    }

    public var encodedCount: Int { pieces.reduce(0) { $0 + $1.count } }
}
