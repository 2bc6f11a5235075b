/// How messages are separated on the wire.
public enum Framing: String, Sendable, CaseIterable {
    /// One JSON value a line: what a person types by hand.
    case ndjson
    /// `Content-Length: N` headers, a blank line, then N bytes: the LSP base protocol.
    case lsp

    /// Appends one outgoing message, framed, to `output`.
    public func appendFrame(_ body: [UInt8], to output: inout [UInt8]) {
        switch self {
        case .ndjson:
            output.append(contentsOf: body)
            output.append(UInt8(ascii: "\n"))
        case .lsp:
            output.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
            output.append(contentsOf: body)
        }
    }
}

/// The framing asked for on the command line.
public enum FramingChoice: String, Sendable, CaseIterable {
    /// Decided by the first bytes of input: a header (`Content-…`) means LSP,
    /// anything else newline-delimited JSON.
    case auto
    case ndjson
    case lsp
}
