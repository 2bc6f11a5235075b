import BuntingJSON

/// A message the server writes, members in a fixed order (`jsonrpc`, then
/// `id`, then `result`/`error`) so that replies read the same every time.
/// Results and params arrive already written as text, so that what the
/// engine keeps as text (snapshots, cached items) is spliced, not re-encoded.
public enum OutgoingMessage: Sendable {
    case success(id: RequestID, result: EncodedJSON)
    case failure(id: RequestID?, error: RPCError)
    /// Params as pieces: a snapshot among them is written from the engine's
    /// own buffer (see `SplicedJSON`).
    case notification(method: String, params: SplicedJSON)
    /// A batch's replies, each already encoded (so that the batch's size is
    /// known while it is put together).
    case batch([[UInt8]])

    /// Appends the message's JSON text (without framing).
    public func encode(appendingTo output: inout [UInt8]) {
        switch self {
        case .success(_, let result):
            appendHead(to: &output)
            output.append(contentsOf: result.bytes)
            output.append(UInt8(ascii: "}"))
        case .failure(let id, let error):
            output.append(contentsOf: Self.replyStart)
            (id ?? .null).encode(appendingTo: &output)
            output.append(contentsOf: Self.errorKey)
            error.json.encode(appendingTo: &output)
            output.append(UInt8(ascii: "}"))
        case .notification(_, let params):
            appendHead(to: &output)
            params.appendEncoded(to: &output)
            output.append(UInt8(ascii: "}"))
        case .batch(let replies):
            output.append(UInt8(ascii: "["))
            for (index, reply) in replies.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(contentsOf: reply)
            }
            output.append(UInt8(ascii: "]"))
        }
    }

    /// The message's text as pieces, its largest text shared (a result's or
    /// params' pieces) rather than copied: what the output channel writes in
    /// place when it is large. The pieces joined are `encode`'s text.
    public var pieces: [[UInt8]] {
        var head: [UInt8] = []
        appendHead(to: &head)
        switch self {
        case .success(_, let result): return [head, result.bytes, Self.closingBrace]
        case .notification(_, let params): return [head] + params.pieces + [Self.closingBrace]
        case .failure, .batch: return [encoded]
        }
    }

    /// What comes before a reply's result or a notification's params:
    /// `{"jsonrpc":"2.0","id":…,"result":` or `{"jsonrpc":"2.0","method":…,"params":`.
    private func appendHead(to output: inout [UInt8]) {
        switch self {
        case .success(let id, _):
            output.append(contentsOf: Self.replyStart)
            id.encode(appendingTo: &output)
            output.append(contentsOf: Self.resultKey)
        case .notification(let method, _):
            output.append(contentsOf: Self.notificationStart)
            JSON.string(method).encode(appendingTo: &output)
            output.append(contentsOf: Self.paramsKey)
        case .failure, .batch:
            break
        }
    }

    /// The size of the largest text the message shares (see `pieces`), without writing anything.
    public var largestSharedText: Int {
        switch self {
        case .success(_, let result): result.bytes.count
        case .notification(_, let params): params.largestPiece
        case .failure, .batch: 0
        }
    }

    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        encode(appendingTo: &bytes)
        return bytes
    }

    private static let replyStart = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private static let resultKey = Array(#","result":"#.utf8)
    private static let errorKey = Array(#","error":"#.utf8)
    private static let notificationStart = Array(#"{"jsonrpc":"2.0","method":"#.utf8)
    private static let paramsKey = Array(#","params":"#.utf8)
    private static let closingBrace = [UInt8(ascii: "}")]
}
