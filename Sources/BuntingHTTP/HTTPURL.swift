/// An http(s) URL, checked when the command line is read so that a typo is a
/// usage error at start rather than a failed request later. Only what
/// Bunting needs is taken apart: the origin (to keep headers from other
/// hosts) and a form without credentials (for logs and `status`).
public struct HTTPURL: Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public let scheme: String
    public let host: String
    public let port: Int
    /// The URL without `user:password@` and with every query value replaced
    /// by `…` (tokens and signatures ride there), for logs and `status`.
    public let redacted: String

    /// Whether `text` names an HTTP resource rather than a file.
    public static func isHTTP(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    public init(_ text: String) throws(HTTPURLError) {
        guard let separator = text.firstRange(of: "://") else {
            throw HTTPURLError(why: "must start with http:// or https://")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw HTTPURLError(why: "must start with http:// or https://")
        }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw HTTPURLError(why: "contains a space or a control character")
        }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var redacted = text
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
            redacted = String(text[..<separator.upperBound]) + String(authority) + String(rest[authorityEnd...])
        }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw HTTPURLError(why: "has an unclosed [ in its host")
            }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw HTTPURLError(why: "has text after its host")
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw HTTPURLError(why: "has no host") }
        var port = scheme == "https" ? 443 : 80
        if let portText, !portText.isEmpty {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw HTTPURLError(why: "has an invalid port")
            }
            port = number
        }
        self.text = text
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.redacted = Self.withoutQueryValues(redacted)
    }

    /// `?token=abc&v=1#top` → `?token=…&v=…#top`.
    static func withoutQueryValues(_ text: String) -> String {
        guard let question = text.firstIndex(of: "?") else { return text }
        let queryEnd = text[question...].firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: question)..<queryEnd]
        let hidden = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
            parameter.firstIndex(of: "=").map { parameter[...$0] + "…" } ?? String(parameter)
        }
        return String(text[...question]) + hidden.joined(separator: "&") + String(text[queryEnd...])
    }

    /// Scheme, host and port: where a request goes, for deciding whether
    /// the configured headers may follow a redirect.
    public var origin: String { "\(scheme)://\(host):\(port)" }

    public var description: String { redacted }
}

public struct HTTPURLError: Error, Equatable, Sendable {
    public let why: String
}
