/// How messages are separated on the wire.
public enum Framing: String, Sendable, CaseIterable {
    /// One JSON value a line: what a person types by hand.
    case ndjson
    /// `Content-Length: N` headers, a blank line, then N bytes: the LSP base protocol.
    case lsp

    private static let lengthHeader = Array("Content-Length: ".utf8)

    /// Appends one outgoing message, framed, to `output`.
    public func appendFrame(_ body: [UInt8], to output: inout [UInt8]) {
        switch self {
        case .ndjson:
            output.append(contentsOf: body)
            output.append(UInt8(ascii: "\n"))
        case .lsp:
            Self.appendLSPHeader(bodyLength: body.count, to: &output)
            output.append(contentsOf: body)
        }
    }

    /// `Content-Length: N` and the blank line, for a body written after it.
    static func appendLSPHeader(bodyLength: Int, to output: inout [UInt8]) {
        output.append(contentsOf: Self.lengthHeader)
        var digits: [UInt8] = []
        var length = bodyLength
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(length % 10))
            length /= 10
        } while length > 0
        output.append(contentsOf: digits.reversed())
        output.append(contentsOf: [0x0D, 0x0A, 0x0D, 0x0A])
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
