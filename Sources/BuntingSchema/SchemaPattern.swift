/// A `pattern` or `patternProperties` regular expression, compiled once.
///
/// JSON Schema patterns are ECMA-262 regular expressions. Swift's `Regex`
/// reads the common subset alike once told to match Unicode scalars (not
/// grapheme clusters) and to keep `\d`, `\w` and word boundaries ASCII, as
/// ECMA-262 does. Syntax Swift does not read, such as `\cX` or `[^]`, makes
/// the schema fail to compile rather than match differently.
/// Patterns are unanchored: `"b"` matches `"abc"`.
///
/// `Regex` is a backtracking engine: a pattern with nested quantifiers such as
/// `(a+)+$` takes exponential time on some strings. Schemas are trusted input
/// written by us; instances cannot make a pattern without such ambiguity slow.
///
/// `@unchecked Sendable`: `Regex` is an immutable value but does not declare
/// `Sendable`; its lazily built matching program is created once with an
/// atomic store, and `init` builds it before the value is shared.
final class SchemaPattern: @unchecked Sendable {
    let source: String
    private let regex: Regex<AnyRegexOutput>

    /// Throws the compiler's message when `source` is not a pattern Swift can read.
    init(_ source: String) throws {
        self.source = source
        regex = try Regex(source)
            .matchingSemantics(.unicodeScalar)
            .asciiOnlyDigits()
            .asciiOnlyWordCharacters()
            .wordBoundaryKind(.simple)
        _ = try regex.firstMatch(in: "")
    }

    func matches(_ text: String) -> Bool {
        (try? regex.firstMatch(in: text)) != nil
    }
}
