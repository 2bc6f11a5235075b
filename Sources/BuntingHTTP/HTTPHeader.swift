/// A request header given on the command line as `Name: value`.
///
/// Its value may be a secret (an API key, a bearer token): `description`
/// shows the name only, so that printing a header never prints the secret.
public struct HTTPHeader: Equatable, Sendable, CustomStringConvertible {
    public let name: String
    public let value: String

    /// Parses `Name: value`; the name is an HTTP token, the value has no line breaks.
    public init(parsing text: String) throws(HTTPHeaderError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw HTTPHeaderError(why: "must be 'Name: value'")
        }
        let name = String(text[..<colon])
        guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
            throw HTTPHeaderError(why: "the name must be a non-empty HTTP token (letters, digits, -, _ …)")
        }
        let value = text[text.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
        // A line break would start a second header: header injection.
        guard !value.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }) else {
            throw HTTPHeaderError(why: "the value of \(name) contains a line break")
        }
        self.name = name
        self.value = String(value)
    }

    /// The line handed to libcurl.
    var line: String { "\(name): \(value)" }

    public var description: String { "\(name): (hidden)" }

    /// tchar of RFC 9110: visible ASCII except separators.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

public struct HTTPHeaderError: Error, Equatable, Sendable {
    public let why: String
}
