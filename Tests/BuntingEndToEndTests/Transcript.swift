import Foundation

/// A by-hand session as the README and `examples/shell` write it: `>` lines
/// are sent, `<` lines are the messages expected back, in order, where `…`
/// stands for any text. Times and event ids vary from run to run: a
/// `lastSyncAt` other than 0 matches any other, and so does one event id
/// another.
struct Transcript {
    let inputs: [String]
    let expected: [String]

    init(_ text: String) {
        var inputs: [String] = []
        var expected: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("> ") { inputs.append(String(line.dropFirst(2))) }
            if line.hasPrefix("< ") { expected.append(String(line.dropFirst(2))) }
        }
        self.inputs = inputs
        self.expected = expected
    }

    /// The first ```text block after `heading` in a markdown file of the package.
    static func fromMarkdown(_ path: String, after heading: String) throws -> Transcript {
        let text = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent(path), encoding: .utf8)
        guard let section = text.range(of: heading),
            let open = text.range(of: "```text\n", range: section.upperBound..<text.endIndex),
            let close = text.range(of: "```", range: open.upperBound..<text.endIndex)
        else { throw TranscriptError("no ```text block after \(heading) in \(path)") }
        return Transcript(String(text[open.upperBound..<close.lowerBound]))
    }

    /// The differences between `received` and what is expected; empty when they agree.
    func differences(_ received: [String]) -> [String] {
        var found: [String] = []
        for index in 0..<max(expected.count, received.count) {
            guard index < expected.count else {
                found.append("unexpected message \(index + 1): \(received[index])")
                continue
            }
            guard index < received.count else {
                found.append("missing message \(index + 1): \(expected[index])")
                continue
            }
            if !Self.matches(received[index], expected[index]) {
                found.append("message \(index + 1):\n  expected \(expected[index])\n  received \(received[index])")
            }
        }
        return found
    }

    static func matches(_ actual: String, _ pattern: String) -> Bool {
        let actual = normalized(actual)
        let parts = normalized(pattern).components(separatedBy: "…")
        guard actual.hasPrefix(parts[0]), actual.hasSuffix(parts[parts.count - 1]),
            actual.count >= parts[0].count + parts[parts.count - 1].count || parts.count == 1
        else { return false }
        if parts.count == 1 { return actual == parts[0] }
        var rest = actual.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    private static let variable = [
        (try! NSRegularExpression(pattern: #""lastSyncAt":[1-9][0-9.]*"#), #""lastSyncAt":TIME"#),
        (try! NSRegularExpression(pattern: #""eventId":"[0-9a-f]{32}""#), #""eventId":ID"#),
    ]

    private static func normalized(_ text: String) -> String {
        var text = text
        for (expression, replacement) in variable {
            text = expression.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: replacement)
        }
        return text
    }
}

struct TranscriptError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
