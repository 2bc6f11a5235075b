/// A JavaScript regular expression (`new RegExp(pattern)` or
/// `new RegExp(pattern, "i")`), compiled once, that answers `test` within a
/// step budget.
///
/// Swift's `Regex` cannot be interrupted, and a pattern such as `(a+)+$`
/// backtracks for exponential time; this matcher counts every step, so a
/// hostile pattern costs at most its budget. It implements ECMAScript's
/// syntax without the `u` flag, Annex B's web-compatible forms included,
/// except lookbehind (`(?<=…)`, `(?<!…)`), which is refused as unsupported.
struct JavaScriptRegex: Sendable {
    let pattern: String
    private let program: RegexProgram

    init(pattern: String, ignoreCase: Bool, maxLength: Int) throws(RegexCompileError) {
        self.pattern = pattern
        let units = Array(pattern.utf16)
        guard units.count <= maxLength else { throw .tooLong(units.count, limit: maxLength) }
        let (node, captures) = try RegexParser.parse(units)
        program = try RegexProgram(node, captureCount: captures, ignoreCase: ignoreCase)
    }

    /// The instructions the pattern compiled to.
    var instructionCount: Int { program.instructions.count }

    /// Whether the pattern matches somewhere in `text`; nil when `steps` ran
    /// out first (then `steps` is 0). Spends from `steps` what it used.
    func test(_ text: String, steps: inout Int) -> Bool? {
        let count = text.utf16.count
        let ignoreCase = program.ignoreCase
        let program = self.program
        let budget = steps
        // The code units in a buffer of the call's own (on the stack when small).
        let outcome = withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(count, 1)) {
            buffer -> (Bool?, Int) in
            copyCodeUnits(of: text, into: buffer)
            if let literal = program.literal {
                return Self.find(literal, in: UnsafeBufferPointer(rebasing: buffer[0..<count]), steps: budget)
            }
            if ignoreCase {
                for index in 0..<count { buffer[index] = CaseFolding.canonicalize(buffer[index]) }
            }
            var matcher = RegexMatcher(
                program: program, text: UnsafeBufferPointer(rebasing: buffer[0..<count]), steps: budget)
            do {
                let found = try matcher.search()
                return (found, matcher.stepsLeft)
            } catch {
                return (nil, 0)
            }
        }
        steps = outcome.1
        return outcome.0
    }

    /// A literal pattern's match, a step per code unit compared.
    private static func find(
        _ literal: RegexProgram.Literal, in text: UnsafeBufferPointer<UInt16>, steps: Int
    ) -> (Bool?, Int) {
        let units = literal.units
        guard units.count <= text.count else { return (false, steps) }
        var left = steps
        func matches(at start: Int) -> Bool? {
            for offset in units.indices {
                left -= 1
                if left < 0 { return nil }
                if text[start + offset] != units[offset] { return false }
            }
            return true
        }
        let last = text.count - units.count
        let starts: StrideTo<Int>
        switch (literal.atStart, literal.atEnd) {
        case (true, true): starts = stride(from: 0, to: units.count == text.count ? 1 : 0, by: 1)
        case (true, false): starts = stride(from: 0, to: 1, by: 1)
        case (false, true): starts = stride(from: last, to: last + 1, by: 1)
        case (false, false): starts = stride(from: 0, to: last + 1, by: 1)
        }
        for start in starts {
            guard let found = matches(at: start) else { return (nil, 0) }
            if found { return (true, left) }
        }
        return (false, max(left, 0))
    }
}
