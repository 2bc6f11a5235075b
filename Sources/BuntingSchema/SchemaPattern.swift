import Synchronization

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
/// `Regex` takes microseconds a match, so a pattern that starts `^literal`
/// (such as `^\$flagd\.`) first checks that prefix, which settles most texts,
/// and all of them when the pattern is nothing more.
///
/// Reading a pattern is costly (a few million instructions for a long one
/// such as flagd's semantic version), so a schema that is checked by its own
/// tests, like the one built into the binary, may leave that to the first
/// text a pattern must decide (`JSONSchema.PatternChecking.onFirstUse`); a pattern that its
/// prefix decides is then never read at all. A pattern that turns out not to
/// compile on first use matches nothing.
///
/// `@unchecked Sendable`: `Regex` is an immutable value but does not declare
/// `Sendable`; its lazily built matching program is created once with an
/// atomic store, and the lock hands out the value only once it is built.
final class SchemaPattern: @unchecked Sendable {
    private enum State {
        case unread
        case compiled(Regex<AnyRegexOutput>)
        case unreadable
    }

    let source: String
    private let state: Mutex<State>
    /// UTF-8 of a literal every matching text starts with.
    private let requiredPrefix: [UInt8]
    /// Whether the pattern is just `^` and that literal, so the prefix decides.
    private let prefixDecides: Bool

    /// Throws the compiler's message when `source` is not a pattern Swift can
    /// read, unless `checking` leaves reading it to the first use.
    init(_ source: String, checking: JSONSchema.PatternChecking) throws {
        self.source = source
        (requiredPrefix, prefixDecides) = Self.literalPrefix(of: source)
        switch checking {
        case .whileCompiling: state = Mutex(.compiled(try Self.compile(source)))
        case .onFirstUse: state = Mutex(.unread)
        }
    }

    private static func compile(_ source: String) throws -> Regex<AnyRegexOutput> {
        let regex = try Regex(source)
            .matchingSemantics(.unicodeScalar)
            .asciiOnlyDigits()
            .asciiOnlyWordCharacters()
            .wordBoundaryKind(.simple)
        _ = try regex.firstMatch(in: "")
        return regex
    }

    func matches(_ text: String) -> Bool {
        if !requiredPrefix.isEmpty {
            guard text.utf8.starts(with: requiredPrefix) else { return false }
            if prefixDecides { return true }
        }
        guard let regex = compiledRegex() else { return false }
        return (try? regex.firstMatch(in: text)) != nil
    }

    /// Reads the pattern now if it was left for its first use and the
    /// prefix does not decide it alone.
    func read() {
        if !prefixDecides { _ = compiledRegex() }
    }

    private func compiledRegex() -> Regex<AnyRegexOutput>? {
        state.withLock { state in
            if case .unread = state {
                state = (try? Self.compile(source)).map(State.compiled) ?? .unreadable
            }
            if case .compiled(let regex) = state { return regex }
            return nil
        }
    }

    /// The literal after a leading `^`, up to the first character with a
    /// meaning of its own; a literal followed by a quantifier is left out.
    /// Patterns with `|` anywhere get no prefix: an alternative may lack it.
    private static func literalPrefix(of source: String) -> ([UInt8], Bool) {
        var scalars = source.unicodeScalars[...]
        guard scalars.first == "^", !scalars.contains("|") else { return ([], false) }
        scalars = scalars.dropFirst()
        var literal = String.UnicodeScalarView()
        while let scalar = scalars.first {
            if scalar == "\\", let escaped = scalars.dropFirst().first, escaped.isASCII,
                !escaped.properties.isAlphabetic, !("0"..."9").contains(escaped)
            {
                literal.append(escaped)
                scalars = scalars.dropFirst(2)
                continue
            }
            if "*+?{".unicodeScalars.contains(scalar), !literal.isEmpty {
                literal.removeLast()
                return (Array(String(literal).utf8), false)
            }
            if ".[](){}*+?^$\\".unicodeScalars.contains(scalar) { break }
            literal.append(scalar)
            scalars = scalars.dropFirst()
        }
        return (Array(String(literal).utf8), scalars.isEmpty)
    }
}
