import BuntingJSON
import Testing
@testable import BuntingRules

/// The definitions schema's pattern for a literal `sem_ver` version accepts
/// exactly the strings `sem_ver` reads as versions: a document is not
/// refused for a version flagd would compare, nor let through with one it
/// would not. The pattern is compiled as the schema validator compiles it
/// (Swift `Regex`, Unicode scalars, ASCII digits, unanchored search).
struct VersionPatternTests {
    static func pattern() throws -> Regex<AnyRegexOutput> {
        let schema = try loadJSON(TestPaths.packageRoot.appendingPathComponent("schemas/definitions.schema.json"))
        let source = try #require(schema["$defs"]?["versionArgument"]?["pattern"]?.stringValue)
        return try Regex(source)
            .matchingSemantics(.unicodeScalar)
            .asciiOnlyDigits()
            .asciiOnlyWordCharacters()
            .wordBoundaryKind(.simple)
    }

    static func matches(_ pattern: Regex<AnyRegexOutput>, _ text: String) -> Bool {
        (try? pattern.firstMatch(in: text)) != nil
    }

    @Test(arguments: [
        "1", "1.2", "1.2.3", "v1", "V1.2", "v1.2.3", "V0.0.0", "1.2.3-rc.1", "1.2.3-0", "1.2.3-0a", "1.2.3-a.b-c",
        "1.2.3+00", "1.2.3-rc.1+build.7", "10.20.30", "99999999999999999999.0.0",
    ])
    func acceptsWhatSemVerReads(version: String) throws {
        #expect(SemanticVersion(version) != nil, "\(version)")
        #expect(Self.matches(try Self.pattern(), version), "\(version)")
    }

    @Test(arguments: [
        "", "v", "vv1", "1.", "1..2", "01", "1.02", "1.2.3.4", "1.2.3-", "1.2.3+", "1.2.3-01", "1.2.3-rc..1",
        "1.2-rc.1", "1-alpha", "1+build", " 1.2.3", "1.2.3 ", "1.2.3\n", "١.2.3", "1.2.3-α", "latest", "x1.2.3",
    ])
    func refusesWhatSemVerDoesNotRead(version: String) throws {
        #expect(SemanticVersion(version) == nil, "\(version.debugDescription)")
        #expect(!Self.matches(try Self.pattern(), version), "\(version.debugDescription)")
    }

    /// Short strings over the characters versions are made of: the pattern
    /// and `sem_ver` agree on every one.
    @Test func agreesWithSemVerOnGeneratedStrings() throws {
        let pattern = try Self.pattern()
        let alphabet = Array("0123456789..--+vVaZ")
        var random = SeededGenerator(seed: 0x5E3)
        var disagreements: [String] = []
        var accepted = 0
        for _ in 0..<20_000 {
            let text = String((0..<Int.random(in: 1...12, using: &random)).map { _ in random.pick(alphabet) })
            let reads = SemanticVersion(text) != nil
            if reads { accepted += 1 }
            if reads != Self.matches(pattern, text) { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        #expect(accepted > 500, "too few versions among the generated strings to say much: \(accepted)")
    }
}
